/**
 * Remembers the text deltas streamed for each content part so that the part's `*.done` event,
 * which repeats the whole text, can be checked against them. A recording (or a proxy) that drops
 * deltas would otherwise lose text the `done` event still carries.
 *
 * Deltas are kept as the wire's own strings (no copies) and compared in place once, at `done`.
 */
export class StreamedTextLedger {
  private readonly runs = new Map<string, string[]>();

  /** Records one delta of the part under `key`. */
  record(key: string, delta: string): void {
    const run = this.runs.get(key);
    if (run === undefined) this.runs.set(key, [delta]);
    else run.push(delta);
  }

  /**
   * Closes the part under `key` against its full text and returns what the deltas did not carry:
   * `''` when they carried it all, the missing tail when they are a prefix of it, and null when
   * they disagree with it (nothing can be added safely then).
   */
  settle(key: string, fullText: string): string | null {
    const run = this.runs.get(key);
    this.runs.delete(key);
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
