import { detached } from '../../wire/detached-slice';
import { holds, jsonStringBody, plain } from '../kit/plain-json';

// Ollama serializes its per-token lines compactly and in a fixed key order:
//   {"model":"qwen3","created_at":"2025-…Z","message":{"role":"assistant","content":"Hi"},"done":false}
//   {"model":"qwen3","created_at":"2025-…Z","message":{"role":"assistant","content":"","thinking":"Hm"},"done":false}
// Those are read here by slicing out the strings, which is faster than JSON.parse; every other
// line (tool calls, the done: true line, errors, anything unusual) goes through JSON.parse.

// The lines read here are built with `new` on functions whose prototype is Object.prototype (plain
// objects, as JSON.parse's), never as object literals: V8 keeps allocation feedback per literal and
// may start allocating a literal's objects straight in the old generation ("pretenuring") once
// some survived young-generation collections together; per-token lines would then pile up there
// as garbage until the next major collection. Objects made by `new` on an ordinary function start
// young.

const Line = plain(function (this: Record<string, unknown>, model: string, createdAt: string, message: object) {
  this.model = model;
  this.created_at = createdAt;
  this.message = message;
  this.done = false;
});
const TextMessage = plain(function (this: Record<string, unknown>, content: string) {
  this.role = 'assistant';
  this.content = content;
});
const ThinkingMessage = plain(function (this: Record<string, unknown>, thinking: string) {
  this.role = 'assistant';
  this.content = '';
  this.thinking = thinking;
});

const MODEL_OPENING = '{"model":"';
const CREATED_OPENING = '","created_at":"';
const MESSAGE_OPENING = '","message":{"role":"assistant","content":"';
const THINKING_OPENING = '","thinking":"';
const SUFFIX = '"},"done":false}';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Below this, a UTF-16 code unit is a control character, which a JSON string never holds raw. */
const FIRST_PRINTABLE = 0x20;

/**
 * Parses one NDJSON line exactly as `JSON.parse` does (same value, same key order, plain objects;
 * throws `JSON.parse`'s error when the line is not JSON), reading Ollama's compact per-token text
 * and thinking lines without it.
 */
export function parseOllamaLine(text: string): unknown {
  return (holds(text, MODEL_OPENING, 0) && holds(text, SUFFIX, text.length - SUFFIX.length) && readTokenLine(text)) || JSON.parse(text);
}

/**
 * Where the string body starting at `start` ends (the index of its closing quote) when it is taken
 * as it is; -1 when a backslash (an escape) or a raw control character comes first, or no quote.
 */
function plainEnd(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i;
    if (code === BACKSLASH || code < FIRST_PRINTABLE) return -1;
  }
  return -1;
}

/** The line when `text` is exactly a compact text or thinking line; else null. */
function readTokenLine(text: string): object | null {
  const modelEnd = plainEnd(text, MODEL_OPENING.length);
  if (modelEnd === -1 || !holds(text, CREATED_OPENING, modelEnd)) return null;
  const createdStart = modelEnd + CREATED_OPENING.length;
  const createdEnd = plainEnd(text, createdStart);
  if (createdEnd === -1 || !holds(text, MESSAGE_OPENING, createdEnd)) return null;
  let start = createdEnd + MESSAGE_OPENING.length;
  const thinking = holds(text, THINKING_OPENING, start);
  if (thinking) start += THINKING_OPENING.length;
  const end = text.length - SUFFIX.length;
  if (end < start) return null;
  const body = jsonStringBody(text.slice(start, end));
  if (body === null) return null;
  const model = detached(text.slice(MODEL_OPENING.length, modelEnd));
  const createdAt = detached(text.slice(createdStart, createdEnd));
  return new Line(model, createdAt, thinking ? new ThinkingMessage(body) : new TextMessage(body));
}
