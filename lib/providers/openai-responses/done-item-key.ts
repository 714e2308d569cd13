import { stringOrNull, type JsonObject } from '../../wire/read-json';
import type { ToolCallAccumulator } from '../kit/tool-call-accumulator';

/**
 * Finds the call a Responses `output_item.done` item completes when the item's id is not the key
 * its argument deltas used (a proxy or a recording that renames items): the call started under
 * the item's `call_id`, else the one at its output index — only a call that has no `call_id` of
 * its own yet may be claimed that way. Calls are noted as they start; the first call per
 * `call_id` and per output index is the one found.
 */
export class DoneItemKey {
  private readonly byCallId = new Map<string, string>();
  private readonly byOutputIndex = new Map<number, string>();

  /** Notes a call started under `key`, with its `call_id` (when known) and output index (when a number). */
  note(key: string, callId: string | null, outputIndex: unknown): void {
    if (callId !== null && !this.byCallId.has(callId)) this.byCallId.set(callId, key);
    if (typeof outputIndex === 'number' && !this.byOutputIndex.has(outputIndex)) this.byOutputIndex.set(outputIndex, key);
  }

  /** The key of the call `item` belongs to: its id when a call was started under it, else by call_id or output index, else its id (null without one). */
  of(item: JsonObject, outputIndex: unknown, calls: ToolCallAccumulator<string>): string | null {
    const id = stringOrNull(item.id);
    if (id !== null && calls.has(id)) return id;
    const callId = stringOrNull(item.call_id);
    const byCallId = callId === null ? undefined : this.byCallId.get(callId);
    if (byCallId !== undefined) return byCallId;
    const byIndex = typeof outputIndex === 'number' ? this.byOutputIndex.get(outputIndex) : undefined;
    if (byIndex !== undefined && calls.idOf(byIndex) === null) return byIndex;
    return id;
  }
}
