import { parseJsonObject, type JsonObject } from '../../wire/read-json';
import { jsonStringBody, plain } from '../kit/plain-json';
import { detached } from '../../wire/detached-slice';
import { freshArray } from '../../wire/fresh-array';

// OpenAI serializes the per-token Responses events compactly and in a fixed key order:
//   {"type":"response.output_text.delta","sequence_number":12,"item_id":"msg_…","output_index":1,
//    "content_index":0,"delta":"Hi","logprobs":[],"obfuscation":"…"}
// (`reasoning_text.delta` likewise; `reasoning_summary_text.delta` has `summary_index` and no
// `logprobs`; `function_call_arguments.delta` and `custom_tool_call_input.delta` have no index of
// their own; `sequence_number`, `logprobs` and `obfuscation` may be absent.) For those, reading
// the numbers and slicing out the strings is faster than JSON.parse and kinder to the heap: V8's
// JSON.parse places short unique string values in the old generation, where they stay until the
// next major collection. Everything else — another key order, other fields, whitespace, a
// non-empty `logprobs` — goes through JSON.parse.

// The events read here are built with `new` on functions whose prototype is Object.prototype
// (plain objects, as JSON.parse's), never as object literals: V8 keeps allocation feedback per
// literal and may start allocating all of a literal's later objects in the old generation
// ("pretenuring") once some of them happened to survive young collections together; per-token
// events would then pile up there. Objects made by `new` on an ordinary function start young.

// Each takes the fields in wire order; `sequence` < 0, `logprobs` false and `obfuscation` null when absent.
const ContentDelta = plain(function (
  this: Record<string, unknown>,
  type: string,
  sequence: number,
  itemId: string,
  outputIndex: number,
  index: number,
  delta: string,
  logprobs: boolean,
  obfuscation: string | null,
) {
  this.type = type;
  if (sequence >= 0) this.sequence_number = sequence;
  this.item_id = itemId;
  this.output_index = outputIndex;
  this.content_index = index;
  this.delta = delta;
  if (logprobs) this.logprobs = freshArray<never>();
  if (obfuscation !== null) this.obfuscation = obfuscation;
});
const SummaryDelta = plain(function (
  this: Record<string, unknown>,
  type: string,
  sequence: number,
  itemId: string,
  outputIndex: number,
  index: number,
  delta: string,
  logprobs: boolean,
  obfuscation: string | null,
) {
  this.type = type;
  if (sequence >= 0) this.sequence_number = sequence;
  this.item_id = itemId;
  this.output_index = outputIndex;
  this.summary_index = index;
  this.delta = delta;
  if (logprobs) this.logprobs = freshArray<never>();
  if (obfuscation !== null) this.obfuscation = obfuscation;
});
const ItemDelta = plain(function (
  this: Record<string, unknown>,
  type: string,
  sequence: number,
  itemId: string,
  outputIndex: number,
  _index: number,
  delta: string,
  logprobs: boolean,
  obfuscation: string | null,
) {
  this.type = type;
  if (sequence >= 0) this.sequence_number = sequence;
  this.item_id = itemId;
  this.output_index = outputIndex;
  this.delta = delta;
  if (logprobs) this.logprobs = freshArray<never>();
  if (obfuscation !== null) this.obfuscation = obfuscation;
});

/**
 * One compact delta event, whole: the kind, `sequence_number`, `item_id` (a string without
 * escapes), `output_index`, the kind's index key and value, `delta` (any JSON string body),
 * `logprobs` when empty, `obfuscation` (a string without escapes). The alternatives inside every
 * repetition start with different characters, so a match or a miss takes time linear in the data.
 */
const COMPACT_DELTA =
  // eslint-disable-next-line no-control-regex -- a raw control character is invalid JSON: such a line misses and goes to JSON.parse
  /^\{"type":"response\.(output_text|reasoning_summary_text|function_call_arguments|reasoning_text|custom_tool_call_input)\.delta"(?:,"sequence_number":(0|[1-9]\d{0,8}))?,"item_id":"([^"\\\x00-\x1f]*)","output_index":(0|[1-9]\d{0,8})(?:,"(content_index|summary_index)":(0|[1-9]\d{0,8}))?,"delta":"((?:[^"\\\x00-\x1f]|\\.)*)"(,"logprobs":\[\])?(?:,"obfuscation":"([^"\\\x00-\x1f]*)")?\}$/;

/**
 * Reads the events of one Responses stream as `JSON.parse` would (undefined when the data is not
 * a JSON object), the per-token delta events of the wire's compact form without it. One reader per
 * stream: consecutive events of one item get the same string for their item id (the value is the
 * same; one short string is kept, by the reader, never between streams).
 */
export class OpenAIResponsesEventReader {
  /** The last item id read. */
  private lastItemId = '';

  /** Parses one frame's data. */
  read(data: string): JsonObject | undefined {
    return this.readDelta(data) ?? parseJsonObject(data);
  }

  /** The item id as the last one's string when it is the same, else as a string of its own (remembered). */
  private sameItemId(itemId: string): string {
    if (itemId === this.lastItemId) return this.lastItemId;
    this.lastItemId = detached(itemId);
    return this.lastItemId;
  }

  /** The event when `data` is exactly a compact delta event of a kind read here; else null. */
  private readDelta(data: string): JsonObject | null {
    const match = COMPACT_DELTA.exec(data);
    if (match === null) return null;
    const [, kind, sequence, itemId, outputIndex, indexKey, index, rawDelta, logprobs, obfuscation] = match;
    const delta = jsonStringBody(rawDelta);
    if (delta === null) return null;
    const seq = sequence === undefined ? -1 : Number(sequence);
    const id = this.sameItemId(itemId);
    const output = Number(outputIndex);
    const empty = logprobs !== undefined;
    const obfuscated = obfuscation === undefined ? null : detached(obfuscation);
    if (indexKey === undefined) {
      if (kind === 'function_call_arguments') return new ItemDelta('response.function_call_arguments.delta', seq, id, output, -1, delta, empty, obfuscated);
      if (kind === 'custom_tool_call_input') return new ItemDelta('response.custom_tool_call_input.delta', seq, id, output, -1, delta, empty, obfuscated);
      return null;
    }
    const at = Number(index);
    if (indexKey === 'content_index') {
      if (kind === 'output_text') return new ContentDelta('response.output_text.delta', seq, id, output, at, delta, empty, obfuscated);
      if (kind === 'reasoning_text') return new ContentDelta('response.reasoning_text.delta', seq, id, output, at, delta, empty, obfuscated);
      return null;
    }
    return kind === 'reasoning_summary_text' ? new SummaryDelta('response.reasoning_summary_text.delta', seq, id, output, at, delta, empty, obfuscated) : null;
  }
}
