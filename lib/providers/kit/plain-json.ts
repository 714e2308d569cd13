import { detached } from '../../wire/detached-slice';
import type { JsonObject } from '../../wire/read-json';

// What the per-token scanners share. They build the values JSON.parse would build, and build them
// with `new` on functions whose prototype is Object.prototype rather than as object literals: V8
// keeps allocation feedback per literal and, once a literal's objects happen to survive a
// young-generation collection together, may allocate all its later objects straight in the old
// generation ("pretenuring"), where per-token garbage then piles up until a major collection.

/** A constructor of plain objects (prototype Object.prototype, own keys in assignment order). */
export type Plain<A extends unknown[]> = new (...args: A) => JsonObject;

/** Makes `construct` build plain objects, as JSON.parse's: its instances' prototype is Object.prototype. */
export function plain<A extends unknown[]>(construct: (this: Record<string, unknown>, ...args: A) => void): Plain<A> {
  construct.prototype = Object.prototype;
  return construct as unknown as Plain<A>;
}

/** The body of a JSON string literal that holds escapes (and no unescaped quote), read by JSON.parse; null when it is not a valid one. */
export function unescapeJsonString(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}

/** A string body that is not taken as it is: a backslash (escapes), a quote or a control character. */
// eslint-disable-next-line no-control-regex -- a raw control character is invalid JSON: it sends the text to JSON.parse
const NOT_PLAIN = /["\\\u0000-\u001f]/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Below this, a UTF-16 code unit is a control character, which a JSON string never holds raw. */
const FIRST_PRINTABLE = 0x20;

/** True when a JSON string body is taken as it is: no backslash, quote or control character. */
export function isPlainBody(raw: string): boolean {
  return !NOT_PLAIN.test(raw);
}

/**
 * The value of a JSON string literal's body `raw` (between its quotes) as JSON.parse reads it: a
 * string of its own (see `detached`), unescaped when it holds escapes; null when it is no such
 * body (a quote no backslash escapes, a raw control character, a broken escape): the caller then
 * leaves the event to JSON.parse.
 */
export function jsonStringBody(raw: string): string | null {
  if (isPlainBody(raw)) return detached(raw);
  // Rejected here rather than by a JSON.parse that throws: an exception costs more than parsing
  // the whole event (a delta's text followed by another field ends at an unescaped quote).
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE || code < FIRST_PRINTABLE) return null;
  }
  return unescapeJsonString(raw);
}

/**
 * True when `text` holds `part` at `at`. V8's substring search compares a long fixed part several
 * times faster than `startsWith`'s character loop, and makes no slice to compare. On a miss it
 * searches on to the end of the text: a few passes over it at most, as JSON.parse makes one.
 */
export function holds(text: string, part: string, at: number): boolean {
  return at >= 0 && text.indexOf(part, at) === at;
}
