import { isJsonObject, parseJsonObject, type JsonObject } from '../../wire/read-json';
import { holds, isPlainBody, jsonStringBody, plain } from '../kit/plain-json';
import { detached } from '../../wire/detached-slice';
import { arrayOf } from '../../wire/fresh-array';
import { stringifyJson } from '../../wire/stringify-json';

// Every chunk of a Chat Completions stream repeats the same envelope around its delta:
//   {"id":"chatcmpl-…","object":"chat.completion.chunk","created":…,"model":"…",
//    "choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}
// (OpenAI adds a per-chunk `"obfuscation":"…"` as the last field). A reader learns that envelope
// from a chunk JSON.parse read, as the text before the delta and the text after it, and then reads
// a chunk whose text is that envelope around a compact text, reasoning or argument delta without
// JSON.parse: it compares the envelope, slices out the delta's string, and copies the learned
// chunk with the new delta. Everything else goes through JSON.parse.
//
// Delta objects are built with `new` on plain-prototype constructors, never as object literals,
// and the one-element arrays with `arrayOf`: see kit/plain-json.ts on V8's allocation-site
// pretenuring of literals. (An array literal here was pretenured in about one process in three:
// every chunk's `choices` was then born old, and a million-token stream left 130 MB of them to
// the next major collection.)

const Content = plain(function (this: Record<string, unknown>, text: string) {
  this.content = text;
});
const ReasoningContent = plain(function (this: Record<string, unknown>, text: string) {
  this.reasoning_content = text;
});
const Reasoning = plain(function (this: Record<string, unknown>, text: string) {
  this.reasoning = text;
});
const ContentThenNullReasoning = plain(function (this: Record<string, unknown>, text: string) {
  this.content = text;
  this.reasoning_content = null;
});
const NullContentThenReasoning = plain(function (this: Record<string, unknown>, text: string) {
  this.content = null;
  this.reasoning_content = text;
});
const ToolCalls = plain(function (this: Record<string, unknown>, call: JsonObject) {
  this.tool_calls = arrayOf(call);
});
const ToolCall = plain(function (this: Record<string, unknown>, index: number, fn: JsonObject) {
  this.index = index;
  this.function = fn;
});
const ArgumentsOnly = plain(function (this: Record<string, unknown>, fragment: string) {
  this.arguments = fragment;
});

/** A delta read without JSON.parse: the text around its one string, and how to build it. */
interface DeltaForm {
  readonly opening: string;
  readonly closing: string;
  readonly build: (value: string, index: number) => JsonObject;
}

const TOOL_CALL_OPENING = '{"tool_calls":[{"index":';
const ARGUMENTS_OPENING = ',"function":{"arguments":"';

/** The compact deltas of real streams (OpenAI, DeepSeek, vLLM, OpenRouter), in their servers' key order. */
const FORMS: readonly DeltaForm[] = [
  { opening: '{"content":"', closing: '"}', build: (value) => new Content(value) },
  { opening: '{"content":null,"reasoning_content":"', closing: '"}', build: (value) => new NullContentThenReasoning(value) },
  { opening: '{"content":"', closing: '","reasoning_content":null}', build: (value) => new ContentThenNullReasoning(value) },
  { opening: '{"reasoning_content":"', closing: '"}', build: (value) => new ReasoningContent(value) },
  { opening: '{"reasoning":"', closing: '"}', build: (value) => new Reasoning(value) },
];
const TOOL_CALL_CLOSING = '"}}]}';

/** Largest number of index digits read directly. */
const MAX_INDEX_DIGITS = 9;

/** The per-chunk last field OpenAI varies on every chunk. */
const OBFUSCATION = 'obfuscation';

/** Chunks that could not be learned from after which a reader stops trying (a server whose envelope it cannot read). */
const LEARN_ATTEMPTS = 8;

/** What a reader learned of a stream's envelope. */
interface Envelope {
  /**
   * A copy of the chunk the envelope was learned from (its primitive fields are copied into each
   * chunk read): never the chunk itself, which its mapper may write into.
   */
  readonly chunk: JsonObject;
  /** A copy of its one choice. */
  readonly choice: JsonObject;
  /** The text up to the delta, `"delta":` included. */
  readonly before: string;
  /** The text after the delta; with `obfuscation`, up to its string value. */
  readonly after: string;
  /** True when the chunk ends with an `obfuscation` string, read anew from each chunk. */
  readonly obfuscated: boolean;
}

/**
 * Reads the `data` of a Chat Completions stream's frames as `JSON.parse` would (undefined when it
 * is not a JSON object), one reader per stream: a chunk whose text is the envelope learned from an
 * earlier chunk around a compact content, reasoning or tool-call argument delta is read without
 * JSON.parse, into an object equal to JSON.parse's (same keys in the same order, plain prototypes).
 */
export class OpenAIChatChunkReader {
  private envelope: Envelope | null = null;
  private attemptsLeft = LEARN_ATTEMPTS;

  /** Parses one frame's data. */
  read(data: string): JsonObject | undefined {
    const envelope = this.envelope;
    if (envelope !== null && holds(data, envelope.before, 0)) return readChunk(envelope, data) ?? parseJsonObject(data);
    const chunk = parseJsonObject(data);
    if (chunk !== undefined && this.attemptsLeft > 0) {
      const learned = learn(chunk, data);
      if (learned !== null) this.envelope = learned;
      else this.attemptsLeft--;
    }
    return chunk;
  }
}

/** True for a string, number, boolean or null. */
function primitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** True when every field of `object` but `except` holds a primitive. */
function primitivesBut(object: JsonObject, except: string): boolean {
  for (const key of Object.keys(object)) if (key !== except && !primitive(object[key])) return false;
  return true;
}

/**
 * The envelope of `chunk` (JSON.parse's reading of `data`), or null when it is not one: `data` must
 * be exactly the compact serialization of the chunk (no spaces, no duplicate keys, escapes as
 * JSON.stringify writes them), with one choice whose `delta` is an object, and every other field of
 * the chunk and of the choice a primitive. Then the first `"delta":{` of the text is the choice's.
 */
function learn(chunk: JsonObject, data: string): Envelope | null {
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return null;
  const choice: unknown = choices[0];
  if (!isJsonObject(choice) || !isJsonObject(choice.delta)) return null;
  if (!primitivesBut(chunk, 'choices') || !primitivesBut(choice, 'delta')) return null;
  // stringifyJson: a delta may nest deeper than JSON.stringify can recurse (SPEC §11).
  if (stringifyJson(chunk) !== data) return null;
  const at = data.indexOf('"delta":{');
  const deltaText = stringifyJson(choice.delta) as string;
  if (at === -1 || !data.startsWith(deltaText, at + 8)) return null;
  const keys = Object.keys(chunk);
  const last = keys[keys.length - 1];
  const obfuscation = chunk[OBFUSCATION];
  const obfuscated = last === OBFUSCATION && typeof obfuscation === 'string';
  const afterEnd = obfuscated ? data.length - JSON.stringify(obfuscation).length - 1 : data.length;
  return {
    // Spread defines own keys (a `__proto__` key stays one); every field but choices / delta is a primitive.
    chunk: { ...chunk },
    choice: { ...choice },
    before: detached(data.slice(0, at + 8)),
    after: detached(data.slice(at + 8 + deltaText.length, afterEnd)),
    obfuscated,
  };
}

/** The chunk when `data` (which starts with the envelope's text) is the envelope around a compact delta; else null. */
function readChunk(envelope: Envelope, data: string): JsonObject | null {
  let end = data.length;
  let obfuscation: string | null = null;
  if (envelope.obfuscated) {
    // …"obfuscation":"<plain value>"}
    if (!data.endsWith('"}')) return null;
    const valueEnd = data.length - 2;
    const valueStart = data.lastIndexOf('"', valueEnd - 1) + 1;
    if (valueStart <= envelope.before.length) return null;
    end = valueStart - 1;
    const value = data.slice(valueStart, valueEnd);
    if (!isPlainBody(value)) return null;
    obfuscation = detached(value);
  }
  const start = envelope.before.length;
  if (end - envelope.after.length < start || !holds(data, envelope.after, end - envelope.after.length)) return null;
  end -= envelope.after.length;
  const delta = readDelta(data, start, end);
  if (delta === null) return null;
  const chunk: Record<string, unknown> = { ...envelope.chunk };
  const choice: Record<string, unknown> = { ...envelope.choice };
  choice.delta = delta;
  chunk.choices = arrayOf(choice);
  if (obfuscation !== null) chunk[OBFUSCATION] = obfuscation;
  return chunk;
}

/** The delta when `data` from `start` to `end` is exactly one of the compact forms; else null. */
function readDelta(data: string, start: number, end: number): JsonObject | null {
  if (data.startsWith(TOOL_CALL_OPENING, start)) return readToolCallDelta(data, start + TOOL_CALL_OPENING.length, end);
  for (const { opening, closing, build } of FORMS) {
    if (!data.startsWith(opening, start) || !data.startsWith(closing, end - closing.length)) continue;
    const value = stringBody(data, start + opening.length, end - closing.length);
    return value === null ? null : build(value, 0);
  }
  return null;
}

/** `{"tool_calls":[{"index":N,"function":{"arguments":"…"}}]}`, its opening already matched up to N. */
function readToolCallDelta(data: string, digitsStart: number, end: number): JsonObject | null {
  let at = digitsStart;
  let index = 0;
  for (let code = data.charCodeAt(at); code >= 48 && code <= 57; code = data.charCodeAt(++at)) index = index * 10 + (code - 48);
  const digits = at - digitsStart;
  // A JSON integer: at least one digit, no leading zero but 0 itself (a sign, fraction or exponent fails the opening below).
  if (digits === 0 || digits > MAX_INDEX_DIGITS || (digits > 1 && data.charCodeAt(digitsStart) === 48)) return null;
  if (!data.startsWith(ARGUMENTS_OPENING, at) || !data.startsWith(TOOL_CALL_CLOSING, end - TOOL_CALL_CLOSING.length)) return null;
  const value = stringBody(data, at + ARGUMENTS_OPENING.length, end - TOOL_CALL_CLOSING.length);
  return value === null ? null : new ToolCalls(new ToolCall(index, new ArgumentsOnly(value)));
}

/** The value of the JSON string body from `start` to `end` (quotes excluded), or null when it is not a valid one. */
function stringBody(data: string, start: number, end: number): string | null {
  return end < start ? null : jsonStringBody(data.slice(start, end));
}
