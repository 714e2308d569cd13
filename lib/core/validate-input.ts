import type { FinishReason, TokenUsage } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type { MessagePart } from '../parts/types';
import { isPlainObject, requirePartShape, requireString } from '../parts/validate';

const FINISH_REASONS: ReadonlySet<string> = new Set<FinishReason>(['STOP', 'LENGTH', 'TOOL_EXECUTION', 'CONTENT_FILTER', 'OTHER']);

function checkPayload(value: unknown, field: string): void {
  if (value === null) return;
  if (!isPlainObject(value) || typeof value.provider !== 'string' || typeof value.kind !== 'string' || typeof value.data !== 'string') {
    throw new TypeError(`Expected ${field} to be {provider, kind, data} or null, got ${describeValue(value)}`);
  }
}

/**
 * Checks what the aggregator reads of a part (its type, the fields it merges, payload and
 * attributes) and throws a `TypeError` naming the field (`part.text`, or `chunk.parts[2].text`
 * when `position` is given) otherwise. Names are only built on failure: this runs per delta.
 */
export function checkPart(value: unknown, name: string, position = -1): MessagePart {
  if (
    isPlainObject(value) &&
    (value.payload === null || isPayload(value.payload)) &&
    isPlainObject(value.attributes) &&
    ((value.type === 'text' && typeof value.text === 'string') ||
      (value.type === 'reasoning' && isNullableString(value.text) && isNullableString(value.summary)) ||
      (value.type === 'tool_call' && isToolCall(value.toolCall)) ||
      value.type === 'tool_result' ||
      value.type === 'media' ||
      value.type === 'unknown')
  ) {
    return value as unknown as MessagePart;
  }
  return explainPart(value, position < 0 ? name : `${name}[${position}]`);
}

function isNullableString(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

function isPayload(value: unknown): boolean {
  return isPlainObject(value) && typeof value.provider === 'string' && typeof value.kind === 'string' && typeof value.data === 'string';
}

function isToolCall(value: unknown): boolean {
  return isPlainObject(value) && isNullableString(value.id) && isNullableString(value.type) && isNullableString(value.name) && isNullableString(value.arguments);
}

/** Throws the `TypeError` that says what is wrong with a part that failed `checkPart`. */
function explainPart(value: unknown, field: string): never {
  const part = requirePartShape(value, field);
  checkPayload(part.payload, `${field}.payload`);
  switch (part.type) {
    case 'text':
      requireString(part.text, `${field}.text`);
      break;
    case 'reasoning':
      if (part.text !== null) requireString(part.text, `${field}.text`);
      if (part.summary !== null) requireString(part.summary, `${field}.summary`);
      break;
    case 'tool_call': {
      const call: unknown = part.toolCall;
      if (!isPlainObject(call)) {
        throw new TypeError(`Expected ${field}.toolCall to be an object, got ${describeValue(call)}`);
      }
      for (const key of ['id', 'type', 'name', 'arguments'] as const) {
        if (call[key] !== null) requireString(call[key], `${field}.toolCall.${key}`);
      }
      break;
    }
    default:
      break;
  }
  throw new TypeError(`Expected ${field} to be a message part, got ${describeValue(part)}`);
}

/** The count fields of a `TokenUsage`; a missing detail reads as not reported. */
const USAGE_FIELDS = ['inputTokenCount', 'outputTokenCount', 'totalTokenCount', 'cacheReadInputTokenCount', 'cacheWriteInputTokenCount', 'reasoningTokenCount'] as const;

/** Checks a token usage object (or null/undefined); fields are numbers or null. */
export function checkUsage(value: unknown, field: string): TokenUsage | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    throw new TypeError(`Expected ${field} to be a token usage object or null, got ${describeValue(value)}`);
  }
  for (const key of USAGE_FIELDS) {
    const count = value[key];
    if (count !== null && count !== undefined && typeof count !== 'number') {
      throw new TypeError(`Expected ${field}.${key} to be a number or null, got ${describeValue(count)}`);
    }
  }
  return value as unknown as TokenUsage;
}

/** Checks a finish reason (or null/undefined). */
export function checkFinishReason(value: unknown, field: string): FinishReason | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !FINISH_REASONS.has(value)) {
    throw new TypeError(`Expected ${field} to be 'STOP', 'LENGTH', 'TOOL_EXECUTION', 'CONTENT_FILTER', 'OTHER' or null, got ${describeValue(value)}`);
  }
  return value as FinishReason;
}
