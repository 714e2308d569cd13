import { parseJsonObject, type JsonObject } from '../../wire/read-json';

// Anthropic serializes the per-token events compactly and in a fixed key order:
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}
// For those, reading the index and slicing out the string is both faster than JSON.parse and
// kinder to the heap: V8's JSON.parse places short unique string values (a token or two) in the
// old generation, where they stay until the next major collection — some 20 MB over a
// million-token stream. Everything else goes through JSON.parse.

const PREFIX = '{"type":"content_block_delta","index":';
const SUFFIX = '"}}';

/**
 * The delta types read without JSON.parse: what follows the index up to the string's opening
 * quote, and the delta object JSON.parse would build around the string (same keys, same order).
 */
const DELTAS: readonly { readonly opening: string; readonly delta: (value: string) => JsonObject }[] = [
  { opening: ',"delta":{"type":"text_delta","text":"', delta: (text) => ({ type: 'text_delta', text }) },
  { opening: ',"delta":{"type":"thinking_delta","thinking":"', delta: (thinking) => ({ type: 'thinking_delta', thinking }) },
  { opening: ',"delta":{"type":"input_json_delta","partial_json":"', delta: (partial_json) => ({ type: 'input_json_delta', partial_json }) },
];

/** A string body that is not taken as it is: a backslash (escapes), a quote or a control character. */
const NOT_PLAIN = /["\\\u0000-\u001f]/;

/** Of those, what needs the whole event through JSON.parse: a quote, or a control character (invalid raw). */
const NOT_ESCAPED_ONLY = /["\u0000-\u001f]/;

/**
 * From this length on, a V8 slice is a view that keeps the whole string it was cut from alive
 * (here the text of a network chunk); shorter slices are copies.
 */
const VIEW_MIN_LENGTH = 13;

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
  for (const { opening, delta } of DELTAS) {
    if (!data.startsWith(opening, at)) continue;
    const start = at + opening.length;
    const end = data.length - SUFFIX.length;
    if (end < start) return null;
    const raw = data.slice(start, end);
    // One scan for the common case, a body taken as it is; the rest is rare.
    if (!NOT_PLAIN.test(raw)) return { type: 'content_block_delta', index, delta: delta(detached(raw)) };
    if (NOT_ESCAPED_ONLY.test(raw)) return null;
    const value = unescape(raw);
    return value === null ? null : { type: 'content_block_delta', index, delta: delta(value) };
  }
  return null;
}

/**
 * The string as one of its own, as JSON.parse would return it, so that a delta a caller keeps does
 * not keep the chunk it came in. Slicing a concatenation makes V8 flatten it into a new string.
 */
function detached(raw: string): string {
  return raw.length < VIEW_MIN_LENGTH ? raw : ` ${raw}`.slice(1);
}

/** A quote-free string body with escapes, read by JSON.parse; null when it is not a valid one. */
function unescape(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
