import { detached } from '../../wire/detached-slice';
import { plain } from '../kit/plain-json';

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

/** A string body that is not taken as it is: a backslash (escapes), a quote or a control character. */
const NOT_PLAIN = /["\\\u0000-\u001f]/;

/**
 * Parses one NDJSON line exactly as `JSON.parse` does (same value, same key order, plain objects;
 * throws `JSON.parse`'s error when the line is not JSON), reading Ollama's compact per-token text
 * and thinking lines without it.
 */
export function parseOllamaLine(text: string): unknown {
  return (text.startsWith(MODEL_OPENING) && text.endsWith(SUFFIX) && readTokenLine(text)) || JSON.parse(text);
}

/** The line when `text` is exactly a compact text or thinking line; else null. */
function readTokenLine(text: string): object | null {
  const modelEnd = text.indexOf('"', MODEL_OPENING.length);
  if (modelEnd === -1 || !text.startsWith(CREATED_OPENING, modelEnd)) return null;
  const createdStart = modelEnd + CREATED_OPENING.length;
  const createdEnd = text.indexOf('"', createdStart);
  if (createdEnd === -1 || !text.startsWith(MESSAGE_OPENING, createdEnd)) return null;
  const model = plainString(text.slice(MODEL_OPENING.length, modelEnd));
  const createdAt = plainString(text.slice(createdStart, createdEnd));
  if (model === null || createdAt === null) return null;
  let start = createdEnd + MESSAGE_OPENING.length;
  const thinking = text.startsWith(THINKING_OPENING, start);
  if (thinking) start += THINKING_OPENING.length;
  const end = text.length - SUFFIX.length;
  if (end < start) return null;
  const body = stringBody(text.slice(start, end));
  if (body === null) return null;
  return new Line(model, createdAt, thinking ? new ThinkingMessage(body) : new TextMessage(body));
}

/** A short field (model, timestamp) taken as it is when it holds no escape or control character. */
function plainString(raw: string): string | null {
  return NOT_PLAIN.test(raw) ? null : detached(raw);
}

/**
 * A string body (between its quotes) as JSON.parse reads it; null when the line needs JSON.parse.
 * A body with escapes is read as one JSON string literal: it is one exactly when every quote in it
 * is escaped and it has no raw control character, and the line then is the compact form.
 */
function stringBody(raw: string): string | null {
  // One scan for the common case, a body taken as it is; the rest is rare.
  if (!NOT_PLAIN.test(raw)) return detached(raw);
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
