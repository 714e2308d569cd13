import { describeValue } from '../parts/describe-value';
import { INCOMPLETE_ATTRIBUTE } from '../parts/incomplete-tool-call';
import type { MessagePart, OpaquePayload } from '../parts/types';
import type {
  AiMessage,
  ChatResponse,
  ChatResponseMetadata,
  CompleteToolCall,
  FinishReason,
  PartialResponse,
  PartialThinking,
  PartialToolCall,
  TokenUsage,
  TokenUsageDetails,
  ToolExecutionRequest,
} from './types';
import { frozenJsonObject } from './frozen-json';

// These factories run once per streamed token: validation is a handful of typeof checks, and
// the result is one frozen object (no copies, no defensive cloning of strings).

function checkPayload(where: string, payload: OpaquePayload | undefined): void {
  if (payload === undefined) return;
  if (payload === null || typeof payload !== 'object' || typeof payload.provider !== 'string' || typeof payload.kind !== 'string' || typeof payload.data !== 'string') {
    throw new TypeError(`Expected ${where} payload to be {provider, kind, data} strings, got ${describeValue(payload)}`);
  }
}

function checkIndex(where: string, index: number): void {
  if (!Number.isInteger(index) || index < 0) {
    throw new TypeError(`Expected ${where} index to be an integer ≥ 0, got ${describeValue(index)}`);
  }
}

function checkName(where: string, name: string): void {
  if (typeof name !== 'string' || name.trim().length === 0) {
    throw new TypeError(`Expected ${where} name to be a non-blank string, got ${describeValue(name)}`);
  }
}

function checkId(where: string, id: string | null): void {
  if (id !== null && typeof id !== 'string') {
    throw new TypeError(`Expected ${where} id to be a string or null, got ${describeValue(id)}`);
  }
}

function fragment(where: string, text: string, payload: OpaquePayload | undefined): { readonly text: string; readonly payload?: OpaquePayload } {
  if (typeof text !== 'string') throw new TypeError(`Expected ${where} text to be a string, got ${describeValue(text)}`);
  checkPayload(where, payload);
  if (payload === undefined) {
    if (text.length === 0) throw new TypeError(`Expected ${where} text to be non-empty (empty text needs a payload), got string ""`);
    return Object.freeze({ text });
  }
  return Object.freeze({ text, payload });
}

/**
 * A validated, frozen `PartialResponse`. `text` must be non-empty, except on a payload-only
 * event (e.g. Gemini's thought signature on an empty text part). Whitespace counts as content.
 */
export function partialResponse(text: string, payload?: OpaquePayload): PartialResponse {
  return fragment('partial response', text, payload);
}

/**
 * A validated, frozen `PartialThinking`. `text` must be non-empty, except on a signature-only
 * event (`''` with a payload such as an Anthropic signature or OpenAI encrypted reasoning).
 */
export function partialThinking(text: string, payload?: OpaquePayload): PartialThinking {
  return fragment('partial thinking', text, payload);
}

/**
 * A validated, frozen `PartialToolCall`: `index` an integer ≥ 0, `id` a string or null (Gemini,
 * Ollama), `name` non-blank, `partialArguments` non-empty.
 */
export function partialToolCall(index: number, id: string | null, name: string, partialArguments: string): PartialToolCall {
  checkIndex('partial tool call', index);
  checkId('partial tool call', id);
  checkName('partial tool call', name);
  if (typeof partialArguments !== 'string' || partialArguments.length === 0) {
    throw new TypeError(`Expected partial tool call partialArguments to be a non-empty string, got ${describeValue(partialArguments)}`);
  }
  return Object.freeze({ index, id, name, partialArguments });
}

/**
 * A validated, frozen `ToolExecutionRequest`; empty or blank `arguments` become `"{}"`.
 */
export function toolExecutionRequest(request: { id: string | null; name: string; arguments: string }): ToolExecutionRequest {
  if (request === null || typeof request !== 'object') {
    throw new TypeError(`Expected a tool execution request {id, name, arguments}, got ${describeValue(request)}`);
  }
  const { id, name } = request;
  const args = request.arguments;
  checkId('tool execution request', id);
  checkName('tool execution request', name);
  if (typeof args !== 'string') {
    throw new TypeError(`Expected tool execution request arguments to be a string, got ${describeValue(args)}`);
  }
  return Object.freeze({ id, name, arguments: args.trim().length === 0 ? '{}' : args });
}

/**
 * A validated, frozen `CompleteToolCall`: `index` an integer ≥ 0, the request as in
 * `toolExecutionRequest` (blank arguments become `"{}"`), an optional payload such as Gemini's
 * thought signature on a function call.
 */
export function completeToolCall(index: number, request: { id: string | null; name: string; arguments: string }, payload?: OpaquePayload): CompleteToolCall {
  checkIndex('complete tool call', index);
  checkPayload('complete tool call', payload);
  const toolExecutionRequestValue = toolExecutionRequest(request);
  return Object.freeze(payload === undefined ? { index, toolExecutionRequest: toolExecutionRequestValue } : { index, toolExecutionRequest: toolExecutionRequestValue, payload });
}

function checkCount(field: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`Expected token usage ${field} to be an integer ≥ 0 or null, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * A validated, frozen `TokenUsage`. Counts are integers ≥ 0 or null (not reported); `total`
 * defaults to `input + output` when both are known, else null. The details (cache read, cache
 * write, reasoning) default to null: not reported.
 */
export function tokenUsage(input: number | null, output: number | null, total?: number | null, details: TokenUsageDetails = {}): TokenUsage {
  const inputTokenCount = checkCount('inputTokenCount', input);
  const outputTokenCount = checkCount('outputTokenCount', output);
  let totalTokenCount = checkCount('totalTokenCount', total);
  if (totalTokenCount === null && inputTokenCount !== null && outputTokenCount !== null) {
    totalTokenCount = inputTokenCount + outputTokenCount;
  }
  if (details === null || typeof details !== 'object') {
    throw new TypeError(`Expected token usage details to be an object, got ${describeValue(details)}`);
  }
  return Object.freeze({
    inputTokenCount,
    outputTokenCount,
    totalTokenCount,
    cacheReadInputTokenCount: checkCount('cacheReadInputTokenCount', details.cacheReadInputTokenCount),
    cacheWriteInputTokenCount: checkCount('cacheWriteInputTokenCount', details.cacheWriteInputTokenCount),
    reasoningTokenCount: checkCount('reasoningTokenCount', details.reasoningTokenCount),
  });
}

const FINISH_REASONS: ReadonlySet<string> = new Set<FinishReason>(['STOP', 'LENGTH', 'TOOL_EXECUTION', 'CONTENT_FILTER', 'OTHER']);

/**
 * What `responseMetadata` takes: the fields of a `ChatResponseMetadata`, each optional; the
 * provider objects may be any plain JSON object (as parsed from the wire), copied on the way in.
 */
export type ResponseMetadataFields = Partial<Omit<ChatResponseMetadata, 'providerUsage' | 'providerMetadata'>> & {
  readonly providerUsage?: { readonly [key: string]: unknown } | null | undefined;
  readonly providerMetadata?: { readonly [key: string]: unknown } | null | undefined;
};

/**
 * A validated, frozen `ChatResponseMetadata`; every field defaults to null. `providerUsage` and
 * `providerMetadata` must be plain JSON objects; they are kept as deep-frozen copies whose keys
 * are all own keys (`frozenJsonCopy`).
 */
export function responseMetadata(fields: ResponseMetadataFields = {}): ChatResponseMetadata {
  const id = fields.id ?? null;
  const modelName = fields.modelName ?? null;
  const tokenUsageValue = fields.tokenUsage ?? null;
  const finishReason = fields.finishReason ?? null;
  const providerFinishReason = fields.providerFinishReason ?? null;
  if (id !== null && typeof id !== 'string') throw new TypeError(`Expected metadata id to be a string or null, got ${describeValue(id)}`);
  if (modelName !== null && typeof modelName !== 'string') {
    throw new TypeError(`Expected metadata modelName to be a string or null, got ${describeValue(modelName)}`);
  }
  if (tokenUsageValue !== null && typeof tokenUsageValue !== 'object') {
    throw new TypeError(`Expected metadata tokenUsage to be a TokenUsage or null, got ${describeValue(tokenUsageValue)}`);
  }
  if (finishReason !== null && !FINISH_REASONS.has(finishReason)) {
    throw new TypeError(`Expected metadata finishReason to be one of ${[...FINISH_REASONS].join(', ')} or null, got ${describeValue(finishReason)}`);
  }
  if (providerFinishReason !== null && typeof providerFinishReason !== 'string') {
    throw new TypeError(`Expected metadata providerFinishReason to be a string or null, got ${describeValue(providerFinishReason)}`);
  }
  return Object.freeze({
    id,
    modelName,
    tokenUsage: tokenUsageValue,
    finishReason,
    providerFinishReason,
    providerUsage: frozenJsonObject(fields.providerUsage, 'metadata providerUsage'),
    providerMetadata: frozenJsonObject(fields.providerMetadata, 'metadata providerMetadata'),
  });
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

function unreachable(value: never): never {
  throw new TypeError(`Expected a message part, got ${describeValue((value as { type?: unknown }).type)}`);
}

/**
 * A frozen `AiMessage` whose views are derived from `parts`: `text` / `thinking` concatenate the
 * text / reasoning parts (null when there are none), `toolExecutionRequests` come from the
 * tool-call parts in order (blank arguments read as `"{}"`) — only from the calls a handler could
 * have been told of as complete: a part marked `incomplete: "true"` (its arguments were cut off,
 * or it never got a name) and a part without a name are no request to execute, and stay parts only.
 */
export function aiMessage(parts: readonly MessagePart[], attributes: Readonly<Record<string, string>> = NO_ATTRIBUTES): AiMessage {
  if (!Array.isArray(parts)) throw new TypeError(`Expected aiMessage parts to be an array, got ${describeValue(parts)}`);
  if (attributes === null || typeof attributes !== 'object') {
    throw new TypeError(`Expected aiMessage attributes to be a Record<string, string>, got ${describeValue(attributes)}`);
  }
  let text: string | null = null;
  let thinking: string | null = null;
  const requests: ToolExecutionRequest[] = [];
  const list: readonly MessagePart[] = parts;
  for (const part of list) {
    switch (part.type) {
      case 'text':
        text = text === null ? part.text : text + part.text;
        break;
      case 'reasoning':
        if (part.text !== null) thinking = thinking === null ? part.text : thinking + part.text;
        break;
      case 'tool_call': {
        const { name, arguments: args } = part.toolCall;
        // The rule of CompleteToolCall: a request has a non-blank name and was not cut off.
        if (name === null || name.trim().length === 0 || part.attributes[INCOMPLETE_ATTRIBUTE] === 'true') break;
        requests.push(
          Object.freeze({
            id: part.toolCall.id,
            name,
            arguments: args === null || args.trim().length === 0 ? '{}' : args,
          }),
        );
        break;
      }
      case 'tool_result':
      case 'media':
      case 'unknown':
        break;
      default:
        return unreachable(part);
    }
  }
  return Object.freeze({
    type: 'ai' as const,
    parts: Object.isFrozen(parts) ? parts : Object.freeze(parts.slice()),
    text,
    thinking,
    toolExecutionRequests: Object.freeze(requests),
    attributes: Object.isFrozen(attributes) ? attributes : Object.freeze({ ...attributes }),
  });
}

/** A frozen `ChatResponse` of a message and its metadata (metadata defaults to all null). */
export function chatResponse(message: AiMessage, metadata: ChatResponseMetadata = responseMetadata()): ChatResponse {
  if (message === null || typeof message !== 'object' || !Array.isArray(message.parts)) {
    throw new TypeError(`Expected chatResponse message to be an AiMessage, got ${describeValue(message)}`);
  }
  return Object.freeze({ aiMessage: message, metadata });
}
