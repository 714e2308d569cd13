import { parseJsonObject, type JsonObject } from '../../wire/read-json';
import { plain, unescapeJsonString, type Plain } from '../kit/plain-json';
import { detached } from '../../wire/detached-slice';

// Anthropic serializes the per-token events compactly and in a fixed key order:
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}
// For those, reading the index and slicing out the string is both faster than JSON.parse and
// kinder to the heap: V8's JSON.parse places short unique string values (a token or two) in the
// old generation, where they stay until the next major collection — some 20 MB over a
// million-token stream. Everything else goes through JSON.parse.

const PREFIX = '{"type":"content_block_delta","index":';
const SUFFIX = '"}}';

// The events read here are built with `new` on functions whose prototype is Object.prototype
// (plain objects, as JSON.parse's), never as object literals. V8 keeps allocation feedback per
// literal and, once a literal's objects happen to survive young-generation collections together
// (as can happen while the code still runs unoptimized), allocates all its later objects straight
// in the old generation ("pretenuring"). Per-token events then pile up there as garbage until the
// next major collection: 10 to over 100 MB on a million-token stream, in some processes and not
// others. Objects made by `new` on an ordinary function carry no such feedback and start young.

const BlockDelta = plain(function (this: Record<string, unknown>, index: number, delta: JsonObject) {
  this.type = 'content_block_delta';
  this.index = index;
  this.delta = delta;
});
const TextDelta = plain(function (this: Record<string, unknown>, text: string) {
  this.type = 'text_delta';
  this.text = text;
});
const ThinkingDelta = plain(function (this: Record<string, unknown>, thinking: string) {
  this.type = 'thinking_delta';
  this.thinking = thinking;
});
const InputJsonDelta = plain(function (this: Record<string, unknown>, partial_json: string) {
  this.type = 'input_json_delta';
  this.partial_json = partial_json;
});

/**
 * The delta types read without JSON.parse: what follows the index up to the string's opening
 * quote, and the delta object JSON.parse would build around the string (same keys, same order).
 */
const DELTAS: readonly { readonly opening: string; readonly Delta: Plain<[string]> }[] = [
  { opening: ',"delta":{"type":"text_delta","text":"', Delta: TextDelta },
  { opening: ',"delta":{"type":"thinking_delta","thinking":"', Delta: ThinkingDelta },
  { opening: ',"delta":{"type":"input_json_delta","partial_json":"', Delta: InputJsonDelta },
];

/** A string body that is not taken as it is: a backslash (escapes), a quote or a control character. */
// eslint-disable-next-line no-control-regex -- a raw control character is invalid JSON: it sends the text to JSON.parse
const NOT_PLAIN = /["\\\u0000-\u001f]/;

/** Of those, what needs the whole event through JSON.parse: a quote, or a control character (invalid raw). */
// eslint-disable-next-line no-control-regex -- a raw control character is invalid JSON: it sends the text to JSON.parse
const NOT_ESCAPED_ONLY = /["\u0000-\u001f]/;


/** Largest number of index digits read directly (exact in a double, far beyond any real index). */
const MAX_INDEX_DIGITS = 9;

/**
 * Parses an Anthropic event's data as `JSON.parse` would (undefined when it is not a JSON object),
 * reading `content_block_delta` events of the wire's compact form without it.
 */
export function parseAnthropicEvent(data: string): JsonObject | undefined {
  return (data.startsWith(PREFIX) && data.endsWith(SUFFIX) && readDelta(data)) || parseJsonObject(data);
}

/** The event when `data` is exactly a compact text, thinking or input JSON delta; else null. */
function readDelta(data: string): JsonObject | null {
  const digitsStart = PREFIX.length;
  let at = digitsStart;
  let index = 0;
  for (let code = data.charCodeAt(at); code >= 48 && code <= 57; code = data.charCodeAt(++at)) index = index * 10 + (code - 48);
  const digits = at - digitsStart;
  // A JSON integer: at least one digit, no leading zero but 0 itself (a sign, fraction or exponent fails the opening below).
  if (digits === 0 || digits > MAX_INDEX_DIGITS || (digits > 1 && data.charCodeAt(digitsStart) === 48)) return null;
  for (const { opening, Delta } of DELTAS) {
    if (!data.startsWith(opening, at)) continue;
    const start = at + opening.length;
    const end = data.length - SUFFIX.length;
    if (end < start) return null;
    const raw = data.slice(start, end);
    // One scan for the common case, a body taken as it is; the rest is rare.
    if (!NOT_PLAIN.test(raw)) return new BlockDelta(index, new Delta(detached(raw)));
    if (NOT_ESCAPED_ONLY.test(raw)) return null;
    const value = unescapeJsonString(raw);
    return value === null ? null : new BlockDelta(index, new Delta(value));
  }
  return null;
}

