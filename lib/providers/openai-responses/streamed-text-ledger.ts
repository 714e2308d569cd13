/**
 * Remembers the text deltas streamed for each content part so that the part's `*.done` event,
 * which repeats the whole text, can be checked against them. A recording (or a proxy) that drops
 * deltas would otherwise lose text the `done` event still carries.
 *
 * A part is named by its kind (a short tag such as `t` for output text), its item id and its
 * index within the item. Deltas are kept as the wire's own strings (no copies) and compared in
 * place once, at `done`. Consecutive deltas of one part (the usual stream) go to the part's run
 * without building its key or looking it up again.
 */
export class StreamedTextLedger {
  private readonly runs = new Map<string, string[]>();
  /** The part the last delta went to, and its run (null: none, or settled since). */
  private lastKind = '';
  private lastItem: unknown = undefined;
  private lastIndex: unknown = undefined;
  private lastRun: string[] | null = null;

  /** Records one delta of the part `kind` / `itemId` / `index`. */
  record(kind: string, itemId: unknown, index: unknown, delta: string): void {
    if (this.lastRun !== null && itemId === this.lastItem && index === this.lastIndex && kind === this.lastKind) {
      this.lastRun.push(delta);
      return;
    }
    const key = partKey(kind, itemId, index);
    let run = this.runs.get(key);
    if (run === undefined) {
      run = [delta];
      this.runs.set(key, run);
    } else {
      run.push(delta);
    }
    this.lastKind = kind;
    this.lastItem = itemId;
    this.lastIndex = index;
    this.lastRun = run;
  }

  /**
   * Closes the part `kind` / `itemId` / `index` against its full text and returns what the deltas
   * did not carry: `''` when they carried it all, the missing tail when they are a prefix of it,
   * and null when they disagree with it (nothing can be added safely then).
   */
  settle(kind: string, itemId: unknown, index: unknown, fullText: string): string | null {
    const key = partKey(kind, itemId, index);
    const run = this.runs.get(key);
    this.runs.delete(key);
    if (run !== undefined && run === this.lastRun) this.lastRun = null;
    let offset = 0;
    if (run !== undefined) {
      for (const delta of run) {
        if (!fullText.startsWith(delta, offset)) return null;
        offset += delta.length;
      }
    }
    return offset === 0 ? fullText : fullText.slice(offset);
  }
}

/** The key of one part: kind, item id and index (as text: ids and indexes of any JSON type stay apart by kind and position). */
function partKey(kind: string, itemId: unknown, index: unknown): string {
  return `${kind}${String(itemId)}:${String(index)}`;
}
