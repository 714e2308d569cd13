import { parseJsonObject, type JsonObject } from '../../wire/read-json';

// Gemini streams one whole GenerateContentResponse per token, compact and in a fixed key order:
//   {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}],
//    "usageMetadata":{…},"modelVersion":"…","responseId":"…"}
// (a thought part adds `,"thought":true` after its text). Most of each chunk is the part after
// the candidates — usage, model, id — and it is the same text chunk after chunk. For chunks of
// that form the text is sliced out (unescaped through JSON.parse only when it holds a
// backslash), the candidates are built here, and the rest is parsed once and reused while its
// text repeats: its values are then shared by the chunks of one reader (one stream), which only
// reads them (the metadata a caller gets is copied and frozen). Everything else goes through
// JSON.parse.

const PREFIX = '{"candidates":[{"content":{"parts":[{"text":"';
/** What follows a text's closing quote up to the rest of the chunk, for a text and a thought part. */
const AFTER_TEXT = '}],"role":"model"},"index":0}],';
const AFTER_THOUGHT = ',"thought":true}],"role":"model"},"index":0}],';

// Built with `new` on plain-prototype functions, never as literals: see parse-anthropic-event.ts
// on V8 pretenuring objects of literals whose first objects happened to survive together.
type Plain<A extends unknown[]> = new (...args: A) => JsonObject;

function plain<A extends unknown[]>(construct: (this: Record<string, unknown>, ...args: A) => void): Plain<A> {
  construct.prototype = Object.prototype;
  return construct as unknown as Plain<A>;
}

const TextPart = plain(function (this: Record<string, unknown>, text: string) {
  this.text = text;
});
const ThoughtPart = plain(function (this: Record<string, unknown>, text: string) {
  this.text = text;
  this.thought = true;
});
const Content = plain(function (this: Record<string, unknown>, parts: unknown[]) {
  this.parts = parts;
  this.role = 'model';
});
const Candidate = plain(function (this: Record<string, unknown>, content: JsonObject) {
  this.content = content;
  this.index = 0;
});
const Chunk = plain(function (this: Record<string, unknown>, candidates: unknown[]) {
  this.candidates = candidates;
});

/** One value in an array of its own, with no array literal (see above). */
function single(value: unknown): unknown[] {
  const array = new Array<unknown>(1);
  array[0] = value;
  return array;
}

/** From this length on a V8 slice is a view keeping the whole string it was cut from alive. */
const VIEW_MIN_LENGTH = 13;

/** The rest of a chunk after its candidates: its text and what JSON.parse made of it. */
interface Rest {
  readonly text: string;
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * Reads the chunks of one Gemini stream as `JSON.parse` would (undefined when the data is not a
 * JSON object), single-text-part chunks of the wire's compact form without parsing them whole.
 * One reader per stream: it keeps the last chunk's rest (usage, model, id) to reuse.
 */
export class GeminiChunkReader {
  private rest: Rest | null = null;

  /** The chunk `data` holds, deep-equal to JSON.parse's (same keys, order and plain prototypes). */
  read(data: string): JsonObject | undefined {
    return (data.startsWith(PREFIX) && this.readTextChunk(data)) || parseJsonObject(data);
  }

  /** The chunk when `data` is exactly one text or thought part of the compact form; else null. */
  private readTextChunk(data: string): JsonObject | null {
    const start = PREFIX.length;
    const end = closingQuote(data, start);
    if (end < 0) return null;
    const raw = data.slice(start, end);
    const text = raw.indexOf('\\') < 0 ? detached(raw) : unescape(raw);
    if (text === null) return null;
    let at = end + 1;
    let thought = false;
    if (data.startsWith(AFTER_TEXT, at)) at += AFTER_TEXT.length;
    else if (data.startsWith(AFTER_THOUGHT, at)) {
      at += AFTER_THOUGHT.length;
      thought = true;
    } else return null;
    const rest = this.restOf(data, at);
    if (rest === null) return null;
    const chunk = new Chunk(single(new Candidate(new Content(single(thought ? new ThoughtPart(text) : new TextPart(text))))));
    const target = chunk as Record<string, unknown>;
    for (let i = 0; i < rest.keys.length; i++) target[rest.keys[i]] = rest.values[i];
    return chunk;
  }

  /** The rest from `at` on (`"key":value,…}`), reused while its text repeats; null when it is not one to merge. */
  private restOf(data: string, at: number): Rest | null {
    const last = this.rest;
    // Comparing in place would need a slice too; equal-length texts compare as one memory scan.
    if (last !== null && data.length - at === last.text.length && data.endsWith(last.text)) return last;
    // Not a key first (`}` alone would read as an empty object where JSON.parse fails).
    if (data.charCodeAt(at) !== 34 /* " */) return null;
    const text = data.slice(at);
    const parsed = parseJsonObject(`{${text}`);
    // `__proto__` is an own key to JSON.parse, a prototype to assignment. (A repeated `candidates`
    // replaces the first one's value in place, as JSON.parse does.)
    if (parsed === undefined || hasOwn(parsed, '__proto__')) return null;
    const keys = Object.keys(parsed);
    const rest: Rest = { text: ` ${text}`.slice(1), keys, values: keys.map((key) => parsed[key]) };
    this.rest = rest;
    return rest;
  }
}

function hasOwn(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * The index of the quote closing the string body that starts at `from`; -1 when a raw control
 * character comes first (JSON.parse then decides) or no quote closes it.
 */
function closingQuote(data: string, from: number): number {
  for (let at = from; at < data.length; at++) {
    const code = data.charCodeAt(at);
    if (code === 34) return at;
    if (code === 92 /* \ */) at++;
    else if (code < 32) return -1;
  }
  return -1;
}

/** The string as one of its own, not a view keeping the network chunk alive. */
function detached(raw: string): string {
  return raw.length < VIEW_MIN_LENGTH ? raw : ` ${raw}`.slice(1);
}

/** A string body with escapes, read by JSON.parse; null when it is not a valid one. */
function unescape(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
