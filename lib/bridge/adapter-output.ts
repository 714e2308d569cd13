import { checkFinishReason, checkPart, checkUsage } from '../core/validate-input';
import type { ChatResponse, ChatResponseMetadata } from '../handler/types';
import { aiMessage, chatResponse, responseMetadata } from '../handler/values';
import { describeValue } from '../parts/describe-value';
import { isPlainObject, validateAttributes } from '../parts/validate';

// What a provider adapter hands the chain, checked where it enters (the bridge) so that a custom
// adapter's mistake is refused before it reaches the user's handler or the aggregate. The
// per-delta checks (`isFragment`, `isToolCallDelta`) are small typeof tests that allocate
// nothing; only a value that fails one is explained (`…Problem`: what is wrong, for the bridge to
// report as a stream error). The once-per-call checks answer null when the value is fine.

/** The adapter callbacks whose values are checked here, named as the handler API names them. */
type Callback = 'onPartialResponse' | 'onPartialThinking' | 'onPartialToolCall' | 'onCompleteToolCall' | 'keepIncompleteToolCall';

function isPayload(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  const payload = value as { provider?: unknown; kind?: unknown; data?: unknown };
  return typeof payload.provider === 'string' && typeof payload.kind === 'string' && typeof payload.data === 'string';
}

function isIndex(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isNullableString(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

function expected(callback: Callback, field: string, what: string, value: unknown): string {
  return `Expected the adapter's ${callback} ${field} to be ${what}, got ${describeValue(value)}`;
}

/** Why a callback's `context` cannot be forwarded (it must be an object carrying the stream's handle), or null. */
function contextProblem(callback: Callback, context: unknown): string | null {
  return context !== null && typeof context === 'object' ? null : expected(callback, 'context', 'an object with the streamingHandle', context);
}

/**
 * True when `partial` is a `PartialResponse` / `PartialThinking` (text a string, payload absent or
 * `{provider, kind, data}`) and `context` an object: the per-token check, kept small enough to inline.
 */
export function isFragment(partial: unknown, context: unknown): boolean {
  return (
    partial !== null &&
    typeof partial === 'object' &&
    typeof (partial as { text?: unknown }).text === 'string' &&
    isPayload((partial as { payload?: unknown }).payload) &&
    context !== null &&
    typeof context === 'object'
  );
}

/** What is wrong with a value that failed `isFragment` (null when nothing is). */
export function fragmentProblem(callback: 'onPartialResponse' | 'onPartialThinking', partial: unknown, context: unknown): string | null {
  if (partial === null || typeof partial !== 'object') return expected(callback, 'value', 'an object {text, payload?}', partial);
  const { text, payload } = partial as { text?: unknown; payload?: unknown };
  if (typeof text !== 'string') return expected(callback, 'text', 'a string', text);
  if (!isPayload(payload)) return expected(callback, 'payload', '{provider, kind, data} strings', payload);
  return contextProblem(callback, context);
}

/** True when `partial` is a `PartialToolCall` (index an integer ≥ 0, id a string or null, name and arguments strings) and `context` an object. */
export function isToolCallDelta(partial: unknown, context: unknown): boolean {
  if (partial === null || typeof partial !== 'object' || context === null || typeof context !== 'object') return false;
  const value = partial as { index?: unknown; id?: unknown; name?: unknown; partialArguments?: unknown };
  return isIndex(value.index) && isNullableString(value.id) && typeof value.name === 'string' && typeof value.partialArguments === 'string';
}

/** What is wrong with a value that failed `isToolCallDelta` (null when nothing is). */
export function toolCallDeltaProblem(partial: unknown, context: unknown): string | null {
  const callback = 'onPartialToolCall';
  if (partial === null || typeof partial !== 'object') return expected(callback, 'value', 'an object {index, id, name, partialArguments}', partial);
  const { index, id, name, partialArguments } = partial as { index?: unknown; id?: unknown; name?: unknown; partialArguments?: unknown };
  if (!isIndex(index)) return expected(callback, 'index', 'an integer ≥ 0', index);
  if (!isNullableString(id)) return expected(callback, 'id', 'a string or null', id);
  if (typeof name !== 'string') return expected(callback, 'name', 'a string', name);
  if (typeof partialArguments !== 'string') return expected(callback, 'partialArguments', 'a string', partialArguments);
  return contextProblem(callback, context);
}

/** Null when `complete` is a `CompleteToolCall` (index an integer ≥ 0, a request {id, name, arguments}, an optional payload); else what is wrong. */
export function completeToolCallProblem(complete: unknown): string | null {
  const callback = 'onCompleteToolCall';
  if (complete === null || typeof complete !== 'object') return expected(callback, 'value', 'an object {index, toolExecutionRequest, payload?}', complete);
  const { index, toolExecutionRequest: request, payload } = complete as { index?: unknown; toolExecutionRequest?: unknown; payload?: unknown };
  if (!isIndex(index)) return expected(callback, 'index', 'an integer ≥ 0', index);
  if (request === null || typeof request !== 'object') return expected(callback, 'toolExecutionRequest', 'an object {id, name, arguments}', request);
  const { id, name, arguments: args } = request as { id?: unknown; name?: unknown; arguments?: unknown };
  if (!isNullableString(id)) return expected(callback, 'toolExecutionRequest.id', 'a string or null', id);
  if (typeof name !== 'string' || name.trim().length === 0) return expected(callback, 'toolExecutionRequest.name', 'a non-blank string', name);
  if (typeof args !== 'string') return expected(callback, 'toolExecutionRequest.arguments', 'a string', args);
  if (!isPayload(payload)) return expected(callback, 'payload', '{provider, kind, data} strings', payload);
  return null;
}

/** Null when `call` is an `IncompleteToolCall` (index an integer ≥ 0, id and name strings or null, arguments a string); else what is wrong. */
export function incompleteToolCallProblem(call: unknown): string | null {
  const callback = 'keepIncompleteToolCall';
  if (call === null || typeof call !== 'object') return expected(callback, 'value', 'an object {index, id, name, arguments, payload?}', call);
  const { index, id, name, arguments: args, payload } = call as { index?: unknown; id?: unknown; name?: unknown; arguments?: unknown; payload?: unknown };
  if (!isIndex(index)) return expected(callback, 'index', 'an integer ≥ 0', index);
  if (!isNullableString(id)) return expected(callback, 'id', 'a string or null', id);
  if (!isNullableString(name)) return expected(callback, 'name', 'a string or null', name);
  if (typeof args !== 'string') return expected(callback, 'arguments', 'a string', args);
  if (!isPayload(payload)) return expected(callback, 'payload', '{provider, kind, data} strings', payload);
  return null;
}

/**
 * The provider's response an adapter completes with, as the chain takes it: `aiMessage` an object
 * with a `parts` array of valid parts and string attributes (absent: none), `metadata` a
 * `ChatResponseMetadata` (absent, or fields left out: null). The response itself when it is one
 * already; else a checked copy. Throws a `TypeError` naming the field otherwise. Once per stream.
 */
export function adapterResponse(value: unknown): ChatResponse {
  const where = "the adapter's onCompleteResponse";
  if (!isPlainObject(value)) throw new TypeError(`Expected ${where} to get a ChatResponse {aiMessage, metadata}, got ${describeValue(value)}`);
  const message = value.aiMessage;
  if (!isPlainObject(message)) throw new TypeError(`Expected ${where} response.aiMessage to be an AiMessage {parts, attributes}, got ${describeValue(message)}`);
  const parts: unknown = message.parts;
  if (!Array.isArray(parts)) throw new TypeError(`Expected ${where} response.aiMessage.parts to be an array of parts, got ${describeValue(parts)}`);
  for (let i = 0; i < parts.length; i++) checkPart(parts[i], `${where} response.aiMessage.parts`, i);
  const attributes = validateAttributes(message.attributes, `${where} response.aiMessage.attributes`);
  const metadata = adapterMetadata(value.metadata, `${where} response.metadata`);
  if (metadata === value.metadata && attributes === message.attributes) return value as unknown as ChatResponse;
  return chatResponse(aiMessage(parts as ChatResponse['aiMessage']['parts'], attributes), metadata);
}

const METADATA_STRINGS = ['id', 'modelName', 'providerFinishReason'] as const;
const METADATA_OBJECTS = ['providerUsage', 'providerMetadata'] as const;

function adapterMetadata(value: unknown, field: string): ChatResponseMetadata {
  if (value === undefined) return responseMetadata();
  if (!isPlainObject(value)) throw new TypeError(`Expected ${field} to be a ChatResponseMetadata, got ${describeValue(value)}`);
  let complete = true;
  for (const key of METADATA_STRINGS) {
    const v = value[key];
    if (v === undefined) complete = false;
    else if (v !== null && typeof v !== 'string') throw new TypeError(`Expected ${field}.${key} to be a string or null, got ${describeValue(v)}`);
  }
  for (const key of METADATA_OBJECTS) {
    const v = value[key];
    if (v === undefined) complete = false;
    else if (v !== null && !isPlainObject(v)) throw new TypeError(`Expected ${field}.${key} to be a JSON object or null, got ${describeValue(v)}`);
  }
  if (value.tokenUsage === undefined || value.finishReason === undefined) complete = false;
  checkUsage(value.tokenUsage, `${field}.tokenUsage`);
  checkFinishReason(value.finishReason, `${field}.finishReason`);
  // Fields left out read as null (as `responseMetadata` gives them); a complete object is kept as it is.
  return complete ? (value as unknown as ChatResponseMetadata) : responseMetadata(value as Parameters<typeof responseMetadata>[0]);
}
