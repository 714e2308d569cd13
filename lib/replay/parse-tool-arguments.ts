import type { ToolExecutionRequest } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type { ToolCall } from '../parts/types';
import { JsonSyntaxError } from './json-syntax-error';
import { parsePartialJson } from './parse-partial-json';

// Arguments come from the model: an error quotes only this much of them around the break, and
// this much of a name or id.
const SNIPPET_RADIUS = 30;
const MAX_LABEL = 64;

// JSON whitespace only (`trim()` would also accept e.g. U+00A0, which JSON.parse rejects).
const BLANK = /^[ \t\n\r]*$/;

function shorten(value: string, max: number): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

function describeCall(name: unknown, id: unknown): string {
  const shownName = typeof name === 'string' ? shorten(name, MAX_LABEL) : '(no name)';
  const shownId = typeof id === 'string' ? `id ${shorten(id, MAX_LABEL)}` : 'no id';
  return `tool call ${shownName} (${shownId})`;
}

/** At most `2 * SNIPPET_RADIUS` characters of `text` around `position`, quoted and escaped. */
function snippet(text: string, position: number): string {
  const start = Math.max(0, position - SNIPPET_RADIUS);
  const end = Math.min(text.length, position + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${JSON.stringify(text.slice(start, end))}${end < text.length ? '…' : ''}`;
}

// Called only once JSON.parse has failed: V8's own message quotes the text, so the break is
// located again with parsePartialJson, which names the position and quotes one character.
function argumentsError(text: string, label: string): JsonSyntaxError {
  let position = text.length;
  let reason = 'the text ends before the JSON value is complete';
  let cause: unknown;
  try {
    parsePartialJson(text);
  } catch (error) {
    if (!JsonSyntaxError.isInstance(error)) throw error;
    ({ position, reason } = error);
    cause = error;
  }
  return new JsonSyntaxError(`The arguments of ${label} are not valid JSON: at position ${position}, ${reason} (near ${snippet(text, position)})`, position, reason, { cause });
}

/**
 * The arguments of a tool call as a value: `JSON.parse` of `call.arguments`, which may be any
 * JSON value (a `__proto__` key stays a plain own key). Empty, blank (JSON whitespace) or null
 * arguments give `{}`, as a provider's empty arguments mean `"{}"`.
 *
 * Accepts a `ToolExecutionRequest` or a tool-call part's `toolCall`. Throws a `TypeError` when
 * `call` is not such an object or its arguments are neither a string nor null, and a
 * `JsonSyntaxError` (a `SyntaxError`) when the arguments are not valid JSON, naming the tool's name
 * and id, the position and the reason, and quoting at most 60 characters around the break.
 */
export function parseToolArguments(call: ToolExecutionRequest | ToolCall): unknown {
  if (call === null || typeof call !== 'object' || Array.isArray(call)) {
    throw new TypeError(`Expected a tool call ({id, name, arguments}), got ${describeValue(call)}`);
  }
  const { id, name, arguments: text } = call as { id?: unknown; name?: unknown; arguments?: unknown };
  if (text === null || (typeof text === 'string' && BLANK.test(text))) return {};
  const label = describeCall(name, id);
  if (typeof text !== 'string') {
    const hint = 'toolCall' in call ? " (pass a tool-call part's toolCall, not the part)" : '';
    throw new TypeError(`Expected the arguments of ${label} to be a string or null, got ${describeValue(text)}${hint}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw argumentsError(text, label);
  }
}
