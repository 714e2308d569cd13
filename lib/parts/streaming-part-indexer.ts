import { describeValue } from './describe-value';
import { replaceAttributes } from './factories';
import { stampAttributes } from './streaming-parts';
import type { MessagePart, ToolCallPart } from './types';
import { requirePartShape } from './validate';

/**
 * Derives the `StreamingParts` index for streams that carry no content block index, from the
 * order in which parts arrive, so that `MessageAggregator` can rebuild the ordered parts:
 * a run of reasoning deltas becomes one reasoning part, a run of text deltas one text part, and
 * every other part (a tool call, say) takes an index of its own and ends the run.
 *
 * One provider block, one part: a delta that carries a payload never joins a run that already
 * carries one (two signed thinking blocks, two encrypted reasoning items stay two parts, each with
 * its own payload), and `endRun()` ends the run where the caller knows a provider block ended.
 *
 * Stateful: one instance per response id, fed that response's parts in stream order.
 */
export class StreamingPartIndexer {
  /** The index the next run or complete part will take. */
  private nextIndex = 0;
  /** Type of the current run of deltas, or null when no run is open. */
  private runType: 'text' | 'reasoning' | null = null;
  private runIndex = -1;
  /** Whether a delta of the current run carried a payload (a second payload starts a new part). */
  private runHasPayload = false;
  /** Index of each tool call whose argument deltas were stamped, by tool-call id. */
  private readonly toolCallIndexes = new Map<string, number>();

  /**
   * Returns a copy of `part` with its stream index set, and advances the indexer. An empty text
   * part without payload (a usage-only chunk's placeholder) is returned unchanged and does not end
   * the current run; text and reasoning parts are stamped partial, continuing the current run of
   * their type or starting the next index (a part with a payload never continues a run that
   * already carries one); any other part is stamped complete with the next index
   * (a tool call whose deltas were stamped gets their index) and ends the run.
   */
  stamp(part: MessagePart): MessagePart {
    requirePartShape(part, 'part');
    const index = this.indexFor(part);
    if (index < 0) return part;
    const partial = part.type === 'text' || part.type === 'reasoning';
    return replaceAttributes(part, stampAttributes(part.attributes, index, partial));
  }

  /**
   * Returns a copy of a tool-call argument delta stamped partial. The first delta of a call takes
   * the next index; later deltas with the same tool-call id, and the complete call passed to
   * `stamp`, keep it. The current run of text or reasoning deltas is not ended. The delta must
   * carry its call's id (a `TypeError` otherwise): it is the only key that ties the deltas together.
   */
  stampToolCallDelta(delta: ToolCallPart): ToolCallPart {
    requirePartShape(delta, 'delta');
    if (delta.type !== 'tool_call') {
      throw new TypeError(`Expected delta to be a tool_call part, got a ${delta.type} part`);
    }
    const id = delta.toolCall.id;
    if (typeof id !== 'string') {
      throw new TypeError(`Expected delta.toolCall.id to be a string, got ${describeValue(id)}`);
    }
    const index = this.indexForToolCallDelta(id);
    return replaceAttributes(delta, stampAttributes(delta.attributes, index, true));
  }

  /**
   * The index `stamp(part)` would give, advancing the indexer exactly as `stamp` does but without
   * building the stamped copy; -1 for an empty text placeholder (left unstamped). The caller
   * passes a valid part.
   * @internal
   */
  indexFor(part: MessagePart): number {
    switch (part.type) {
      case 'text':
        if (part.text === '' && part.payload === null) return -1;
        return this.continueRun('text', part.payload !== null);
      case 'reasoning':
        return this.continueRun('reasoning', part.payload !== null);
      case 'tool_call': {
        this.runType = null;
        const id = part.toolCall.id;
        const known = id === null ? undefined : this.toolCallIndexes.get(id);
        if (known !== undefined) return known;
        return this.nextIndex++;
      }
      default:
        this.runType = null;
        return this.nextIndex++;
    }
  }

  /**
   * The index `stampToolCallDelta` would give a delta of the call `toolCallId`, advancing the
   * indexer exactly as it does.
   * @internal
   */
  indexForToolCallDelta(toolCallId: string): number {
    const known = this.toolCallIndexes.get(toolCallId);
    if (known !== undefined) return known;
    const index = this.nextIndex++;
    this.toolCallIndexes.set(toolCallId, index);
    return index;
  }

  /**
   * The index `stamp` would give a non-empty text or reasoning delta of `type`, advancing the
   * indexer the same way, for a caller that has no part object to pass.
   * @internal
   */
  indexForDelta(type: 'text' | 'reasoning'): number {
    return this.continueRun(type, false);
  }

  /**
   * Ends the current run of text or reasoning deltas: the next delta takes a new index even when
   * it is of the same type. For a caller that knows where a provider block ends (two thinking
   * blocks, two text blocks back to back are two parts). Harmless when no run is open.
   */
  endRun(): void {
    this.runType = null;
  }

  private continueRun(type: 'text' | 'reasoning', hasPayload: boolean): number {
    if (this.runType !== type || (hasPayload && this.runHasPayload)) {
      this.runType = type;
      this.runIndex = this.nextIndex++;
      this.runHasPayload = hasPayload;
    } else if (hasPayload) {
      this.runHasPayload = true;
    }
    return this.runIndex;
  }
}
