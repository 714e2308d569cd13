import { parseJsonObject, type JsonObject } from '../shared/read-json';

// Within one stream, the per-token chunks of an OpenAI-style server differ only in the delta's
// string: `{"id":"…","object":"chat.completion.chunk",…,"choices":[{"index":0,"delta":{"content":"Hi"},…}]}`.
// Once such a chunk's shell (everything but that string) has been parsed and checked, the next
// chunk with the same shell is read by comparing the text around the string and copying the parsed
// shell: faster than JSON.parse, and kinder to the heap, since V8's JSON.parse places short unique
// strings (a token) in the old generation, where they stay until the next major collection.
// Anything else — other deltas, escapes, a shell that changes every chunk — goes through JSON.parse.

/** The deltas read this way: the text that opens the string, and the key it is under. */
const HOLES = [
  { opening: '"delta":{"content":"', key: 'content' },
  { opening: '"delta":{"reasoning_content":"', key: 'reasoning_content' },
] as const;

type Hole = (typeof HOLES)[number];

/** A string body that is not read as is: a backslash (escapes) or a control character (invalid raw). */
const NOT_PLAIN = /[\\\u0000-\u001f]/;

/** Shells learned without a single chunk then read through them: past this, the stream's shells change every chunk (some servers add a random field to each), and learning stops. */
const MAX_UNUSED_SHELLS = 8;

/** A checked shell: the text before and after the string, and the chunk parsed with the string empty. */
interface Shell {
  readonly hole: Hole;
  readonly before: string;
  readonly after: string;
  readonly parsed: JsonObject;
  used: boolean;
}

/**
 * Reads the chunks of one stream as `JSON.parse` would (undefined when a chunk is not a JSON
 * object). Stateful: one reader per stream.
 */
export class ChatChunkReader {
  private readonly shells: (Shell | null)[] = HOLES.map(() => null);
  private unusedShells = 0;

  /** The chunk `data` parsed: a fresh object, equal to what JSON.parse returns. */
  read(data: string): JsonObject | undefined {
    for (let h = 0; h < HOLES.length; h++) {
      const hole = HOLES[h];
      const opening = data.indexOf(hole.opening);
      if (opening === -1) continue;
      const start = opening + hole.opening.length;
      const end = data.indexOf('"', start);
      if (end === -1) break;
      const value = data.slice(start, end);
      if (NOT_PLAIN.test(value)) break;
      const shell = this.shells[h];
      if (shell !== null && data.length === shell.before.length + value.length + shell.after.length && data.startsWith(shell.before) && data.endsWith(shell.after)) {
        shell.used = true;
        return withDelta(shell, value);
      }
      return this.learn(h, data, start, end, value) ?? parseJsonObject(data);
    }
    return parseJsonObject(data);
  }

  /**
   * Checks the chunk's shell and keeps it for the next chunks: the shell must parse, and putting
   * another string in the hole must change exactly `choices[0].delta[key]` (so the hole is that
   * string and no other, and no later duplicate key overrides it). Returns the chunk, or undefined
   * when it was not learned.
   */
  private learn(h: number, data: string, start: number, end: number, value: string): JsonObject | undefined {
    if (this.unusedShells >= MAX_UNUSED_SHELLS) return undefined;
    const previous = this.shells[h];
    if (previous !== null && !previous.used) this.unusedShells++;
    this.shells[h] = null;
    const hole = HOLES[h];
    const before = data.slice(0, start);
    const after = data.slice(end);
    const parsed = parseJsonObject(before + after);
    const probe = parseJsonObject(`${before}?${after}`);
    if (parsed === undefined || probe === undefined || deltaOf(parsed, hole.key) !== '' || deltaOf(probe, hole.key) !== '?' || hasProtoKey(parsed)) return undefined;
    const shell: Shell = { hole, before, after, parsed, used: false };
    this.shells[h] = shell;
    return withDelta(shell, value);
  }
}

/** `choices[0].delta[key]` of a parsed chunk, or undefined. */
function deltaOf(chunk: JsonObject, key: string): unknown {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return undefined;
  const choice: unknown = choices[0];
  if (typeof choice !== 'object' || choice === null) return undefined;
  const delta = (choice as JsonObject).delta;
  return typeof delta === 'object' && delta !== null ? (delta as JsonObject)[key] : undefined;
}

/** A copy of the shell's chunk with the delta's string set. */
function withDelta(shell: Shell, value: string): JsonObject {
  const chunk = copy(shell.parsed) as { choices: { delta: Record<string, string> }[] };
  chunk.choices[0].delta[shell.hole.key] = value;
  return chunk as unknown as JsonObject;
}

/** A deep copy of a parsed JSON value (plain objects, arrays and primitives). */
function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as JsonObject)[key]);
  return out;
}

/** Whether a parsed value has a `__proto__` key anywhere (a plain assignment could not copy it). */
function hasProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true;
  return Object.values(value).some(hasProtoKey);
}
