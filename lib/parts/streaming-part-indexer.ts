import { describeValue } from './describe-value';
import { replaceAttributes } from './factories';
import { stampAttributes } from './streaming-parts';
import { PartIndexCounter } from './part-index-counter';
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
 * Stateful: one instance per response id, fed that response's parts in stream order. It counts
 * with the same `PartIndexCounter` as the response core behind `PartsBridge`, so a stream stamped
 * here and the bridge index alike.
 */
export class StreamingPartIndexer {
  private readonly counter = new PartIndexCounter();

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
    const counter = this.counter;
    let index: number;
    switch (part.type) {
      case 'text':
        if (part.text === '' && part.payload === null) return part;
        index = counter.delta('text', part.payload !== null);
        break;
      case 'reasoning':
        index = counter.delta('reasoning', part.payload !== null);
        break;
      case 'tool_call':
        // The call is complete: a later call that reuses its id is another call, with a part of its own.
        index = counter.endToolCall(part.toolCall.id);
        break;
      default:
        index = counter.whole();
    }
    const partial = part.type === 'text' || part.type === 'reasoning';
    return replaceAttributes(part, stampAttributes(part.attributes, index, partial));
  }

  /**
   * Returns a copy of a tool-call argument delta stamped partial. The first delta of a call takes
   * the next index; later deltas with the same tool-call id, and the complete call passed to
   * `stamp`, keep it. Once that complete call is stamped, the id is free again: a later call that
   * reuses it takes an index of its own. The current run of text or reasoning deltas is not ended. The delta must
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
    const index = this.counter.toolCallDelta(id);
    return replaceAttributes(delta, stampAttributes(delta.attributes, index, true));
  }

  /**
   * Ends the current run of text or reasoning deltas: the next delta takes a new index even when
   * it is of the same type. For a caller that knows where a provider block ends (two thinking
   * blocks, two text blocks back to back are two parts). Harmless when no run is open.
   */
  endRun(): void {
    this.counter.endRun();
  }
}
