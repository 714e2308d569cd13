import { parseJsonObject, type JsonObject } from '../../wire/read-json';
import { plain, unescapeJsonString } from '../kit/plain-json';
import { detached } from '../../wire/detached-slice';
import { arrayOf } from '../../wire/fresh-array';
import { frozenJsonCopy } from '../../handler/frozen-json';

// Gemini streams one whole GenerateContentResponse per token, compact and in a fixed key order:
//   {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}],
//    "usageMetadata":{…},"modelVersion":"…","responseId":"…"}
// (a thought part adds `,"thought":true` after its text). Most of each chunk is the part after
// the candidates — usage, model, id — and it often repeats chunk after chunk. When a chunk of that
// form repeats the rest of the one before, its text is sliced out (unescaped through JSON.parse
// only when it holds a backslash), the candidates are built here, and the rest — parsed once, at
// its first repeat — is reused. Its values are then shared by the chunks of one reader (one
// stream), so they are deeply frozen: a mapper that wrote into one chunk's value would otherwise
// change the next chunk's. A rest that holds `candidates` again (a repeated key) is never reused:
// the candidates are the values a mapper works on. Everything else goes through JSON.parse whole;
// a rest that keeps changing is looked at ever more rarely.

const PREFIX = '{"candidates":[{"content":{"parts":[{"text":"';
/** What follows a text's closing quote up to the rest of the chunk, for a text and a thought part. */
const AFTER_TEXT = '}],"role":"model"},"index":0}],';
const AFTER_THOUGHT = ',"thought":true}],"role":"model"},"index":0}],';

// Built with `new` on plain-prototype functions, never as literals, and the arrays with `arrayOf`
// (`new Array` has an allocation site too): see parse-anthropic-event.ts on V8 pretenuring objects
// of literals whose first objects happened to survive together.
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



/** The longest run of chunks parsed whole after a rest changed before looking again. */
const MAX_PAUSE = 64;

/** The rest of a chunk after its candidates, as JSON.parse reads it, every value deeply frozen. */
interface Rest {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * Reads the chunks of one Gemini stream as `JSON.parse` would (undefined when the data is not a
 * JSON object), single-text-part chunks of the wire's compact form without parsing them whole.
 * One reader per stream: it keeps the last chunk's rest (usage, model, id) to reuse while it repeats.
 */
export class GeminiChunkReader {
  /** The rest of the last compact chunk, as text; its keys and values once it repeated. */
  private restText: string | null = null;
  private rest: Rest | null = null;
  private restRead = false;
  /** Chunks to parse whole before looking for a repeated rest again, and the next such pause. */
  private skip = 0;
  private pause = 0;

  /** The chunk `data` holds, deep-equal to JSON.parse's (same keys, order and plain prototypes). */
  read(data: string): JsonObject | undefined {
    if (this.skip > 0) {
      this.skip--;
      return parseJsonObject(data);
    }
    return (data.startsWith(PREFIX) && this.readTextChunk(data)) || parseJsonObject(data);
  }

  /** The chunk when `data` is one text or thought part of the compact form and a rest read before; else null. */
  private readTextChunk(data: string): JsonObject | null {
    const start = PREFIX.length;
    const end = closingQuote(data, start);
    if (end < 0) return null;
    let at = end + 1;
    let thought = false;
    if (data.startsWith(AFTER_TEXT, at)) at += AFTER_TEXT.length;
    else if (data.startsWith(AFTER_THOUGHT, at)) {
      at += AFTER_THOUGHT.length;
      thought = true;
    } else return null;
    const rest = this.restOf(data, at);
    if (rest === null) return null;
    const raw = data.slice(start, end);
    const text = raw.indexOf('\\') < 0 ? detached(raw) : unescapeJsonString(raw);
    if (text === null) return null;
    const chunk = new Chunk(arrayOf<unknown>(new Candidate(new Content(arrayOf<unknown>(thought ? new ThoughtPart(text) : new TextPart(text))))));
    const target = chunk as Record<string, unknown>;
    for (let i = 0; i < rest.keys.length; i++) target[rest.keys[i]] = rest.values[i];
    return chunk;
  }

  /**
   * The rest from `at` on (`"key":value,…}`) when it repeats the previous chunk's, parsed at its
   * first repeat; null otherwise (the chunk is then parsed whole: a rest that changes every chunk,
   * as growing token counts do, costs no more than that), or when it is not one to merge.
   */
  private restOf(data: string, at: number): Rest | null {
    const last = this.restText;
    // Equal-length texts compare as one memory scan.
    if (last === null || data.length - at !== last.length || !data.endsWith(last)) {
      // A rest that keeps changing (token counts on every chunk) is looked at ever more rarely
      // (every 64th chunk at most), so that looking costs next to nothing beside JSON.parse.
      if (last !== null) {
        this.pause = Math.min(MAX_PAUSE, this.pause * 2 || 1);
        this.skip = this.pause;
      }
      this.restText = detached(data.slice(at));
      this.rest = null;
      this.restRead = false;
      return null;
    }
    this.pause = 0;
    if (!this.restRead) {
      this.restRead = true;
      this.rest = parseRest(last);
    }
    return this.rest;
  }
}

/** A rest text as keys and values; null when it is not one to merge. */
function parseRest(text: string): Rest | null {
  // Not a key first (`}` alone would read as an empty object where JSON.parse fails).
  if (text.charCodeAt(0) !== 34 /* " */) return null;
  const parsed = parseJsonObject(`{${text}`);
  // `__proto__` is an own key to JSON.parse, a prototype to assignment. A repeated `candidates`
  // would be shared by every chunk of the rest: such chunks are parsed whole.
  if (parsed === undefined || hasOwn(parsed, '__proto__') || hasOwn(parsed, 'candidates')) return null;
  const keys = Object.keys(parsed);
  // Frozen, as they are shared by the chunks that repeat the rest (plain JSON: the copy cannot fail).
  return { keys, values: keys.map((key) => frozenJsonCopy(parsed[key], key)) };
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

