/** The two part types that stream in runs of deltas. */
export type DeltaType = 'text' | 'reasoning';

/** What ties the argument deltas of one tool call together: a provider id, or a caller's own key. */
export type ToolCallKey = string | number;

/**
 * The stream index rules of SPEC §5 as state, for one response, fed in stream order: a run of
 * text or reasoning deltas shares one index; any other part takes the next index and ends the
 * run; a tool call's argument deltas take an index at the first delta and keep it until the call
 * ends. A delta that carries a payload never continues a run that already carries one (one
 * provider block, one part). Both `StreamingPartIndexer` (which stamps the index on a copy of the
 * part) and the response core (which merges the part into the slot at that index) count with it.
 */
export class PartIndexCounter {
  /** The type of the open run of deltas; null when no run is open. */
  runType: DeltaType | null = null;
  private nextIndex = 0;
  private runIndex = -1;
  /** Whether a delta of the open run carried a payload (a second payload starts a new part). */
  private runHasPayload = false;
  /** The index of each tool call whose argument deltas arrived and that has not ended, by key. */
  /** Made at the first tool call delta (most streams have none). */
  private openCalls: Map<ToolCallKey, number> | null = null;

  /** The index of a text or reasoning delta: the open run's, or the next one (opening a run of `type`). */
  delta(type: DeltaType, hasPayload: boolean): number {
    if (this.runType !== type || (hasPayload && this.runHasPayload)) {
      this.runType = type;
      this.runIndex = this.nextIndex++;
      this.runHasPayload = hasPayload;
    } else if (hasPayload) {
      this.runHasPayload = true;
    }
    return this.runIndex;
  }

  /** The next index, for a complete part that is no tool call; ends the open run. */
  whole(): number {
    this.runType = null;
    return this.nextIndex++;
  }

  /** The index of an argument delta of the call `key`: taken at its first delta; the open run goes on. */
  toolCallDelta(key: ToolCallKey): number {
    let calls = this.openCalls;
    if (calls === null) {
      calls = new Map();
      this.openCalls = calls;
    }
    const known = calls.get(key);
    if (known !== undefined) return known;
    const index = this.nextIndex++;
    calls.set(key, index);
    return index;
  }

  /**
   * The index of a tool call as it ends (completes, or is given up): its deltas' index, else the
   * next one (always the next one for a null key). The key is free again, so a later call reusing
   * it gets an index of its own. Ends the open run.
   */
  endToolCall(key: ToolCallKey | null): number {
    this.runType = null;
    if (key === null) return this.nextIndex++;
    const known = this.openCalls?.get(key);
    if (known === undefined) return this.nextIndex++;
    this.openCalls?.delete(key);
    return known;
  }

  /** Ends the open run, so the next delta takes a new index even when it is of the same type. */
  endRun(): void {
    this.runType = null;
  }
}
