import type { MessagePart, OpaquePayload } from '../parts/types';

/** Cancels a running stream; calling `cancel()` twice is harmless. */
export interface StreamingHandle {
  cancel(): void;
  isCancelled(): boolean;
  /** Optional: aborted when the stream is cancelled (lets a listener such as `ChatStream` notice a cancel made elsewhere). */
  readonly signal?: AbortSignal | undefined;
}

/** A fragment of answer text. `text` is non-empty except on a payload-only event. */
export interface PartialResponse {
  readonly text: string;
  readonly payload?: OpaquePayload | undefined;
}

/**
 * A fragment of reasoning text. `text` is non-empty, except for a signature-only event
 * (`text: ''` with a payload such as an Anthropic signature or OpenAI encrypted reasoning).
 */
export interface PartialThinking {
  readonly text: string;
  readonly payload?: OpaquePayload | undefined;
}

/** A fragment of a tool call's arguments as it streams. */
export interface PartialToolCall {
  /** 0-based position of the call among this response's tool calls. */
  readonly index: number;
  /** The provider's call id, or null when the provider sends none (Gemini, Ollama). */
  readonly id: string | null;
  readonly name: string;
  /** Non-empty. */
  readonly partialArguments: string;
}

/** The tool call a model asked for. */
export interface ToolExecutionRequest {
  readonly id: string | null;
  readonly name: string;
  /** JSON text as the provider sent it; `"{}"` when empty. */
  readonly arguments: string;
}

/** A finished tool call. */
export interface CompleteToolCall {
  readonly index: number;
  readonly toolExecutionRequest: ToolExecutionRequest;
  /** Provider data to replay, e.g. Gemini's thought signature on a function call. */
  readonly payload?: OpaquePayload | undefined;
}

/** Context passed with `onPartialResponse`. */
export interface PartialResponseContext {
  readonly streamingHandle: StreamingHandle;
}
/** Context passed with `onPartialThinking`. */
export interface PartialThinkingContext {
  readonly streamingHandle: StreamingHandle;
}
/** Context passed with `onPartialToolCall`. */
export interface PartialToolCallContext {
  readonly streamingHandle: StreamingHandle;
}

/** A JSON value as the provider sent it (parsed, then copied and frozen). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonRecord;

/** A JSON object as the provider sent it: own keys only (`__proto__` included), deeply frozen. */
export interface JsonRecord {
  readonly [key: string]: JsonValue;
}

/**
 * Token counts as the provider bills them (SPEC §1, §10); a field is null when the provider did
 * not report it. `inputTokenCount` counts every input token, cached ones included;
 * `outputTokenCount` every output token, reasoning included; `totalTokenCount` is the provider's
 * total when it sends one, else their sum. The details keep the provider's value (0 included)
 * when it reports one and are null when it does not.
 */
export interface TokenUsage {
  readonly inputTokenCount: number | null;
  readonly outputTokenCount: number | null;
  readonly totalTokenCount: number | null;
  /** Input tokens read from the provider's prompt cache (part of `inputTokenCount`). */
  readonly cacheReadInputTokenCount: number | null;
  /** Input tokens written to the provider's prompt cache (part of `inputTokenCount`). */
  readonly cacheWriteInputTokenCount: number | null;
  /** Output tokens spent on reasoning (part of `outputTokenCount`). */
  readonly reasoningTokenCount: number | null;
}

/** The optional details of a `TokenUsage`, as `tokenUsage()` takes them. */
export interface TokenUsageDetails {
  readonly cacheReadInputTokenCount?: number | null | undefined;
  readonly cacheWriteInputTokenCount?: number | null | undefined;
  readonly reasoningTokenCount?: number | null | undefined;
}

/** Why the model stopped. */
export type FinishReason = 'STOP' | 'LENGTH' | 'TOOL_EXECUTION' | 'CONTENT_FILTER' | 'OTHER';

/**
 * What the provider said about the response besides its content. Every field is null when the
 * provider did not say (and, for the finish reasons, on a failed or cancelled stream's partial).
 */
export interface ChatResponseMetadata {
  readonly id: string | null;
  readonly modelName: string | null;
  readonly tokenUsage: TokenUsage | null;
  readonly finishReason: FinishReason | null;
  /** The provider's own finish reason as sent (`end_turn`, `pause_turn`, `length`, `MAX_TOKENS`, `completed` …). */
  readonly providerFinishReason: string | null;
  /** The provider's own usage object as sent (Anthropic: `message_start` usage shallow-merged with `message_delta` usage). */
  readonly providerUsage: JsonRecord | null;
  /** The provider's other response-level fields as sent (which ones: each provider's `*-metadata.ts`). */
  readonly providerMetadata: JsonRecord | null;
}

/** The assistant's message: ordered parts plus views derived from them. */
export interface AiMessage {
  /** The `ChatMessage` discriminator: a model's turn. */
  readonly type: 'ai';
  readonly parts: readonly MessagePart[];
  /** Concatenated text parts, or null when there are none. */
  readonly text: string | null;
  /** Concatenated reasoning text, or null when there is none. */
  readonly thinking: string | null;
  /**
   * The tool calls to execute, from the complete tool-call parts in order (those
   * `onCompleteToolCall` reported); a call marked `incomplete: "true"` or without a name is a part only.
   */
  readonly toolExecutionRequests: readonly ToolExecutionRequest[];
  readonly attributes: Readonly<Record<string, string>>;
}

/** A complete (or, for `partial`, a partly received) chat response. */
export interface ChatResponse {
  readonly aiMessage: AiMessage;
  readonly metadata: ChatResponseMetadata;
}

/**
 * What a handler callback (or a `ChatStream` listener) returns: nothing, or a promise (any
 * thenable) — in spirit `void | Promise<void>`. The stream waits for a returned promise before it
 * delivers the next callback and before it reads the source further; a rejection is reported like
 * a throw. Any other value is ignored. Declared `unknown` rather than that union so that a sync
 * callback written as an expression keeps compiling (`(partial) => process.stdout.write(partial.text)`
 * returns a boolean), while an `async` callback is not a promise passed where `void` is expected.
 */
export type CallbackResult = unknown;

/**
 * Receives a streamed response. Exactly one of `onCompleteResponse` / a stream `onError` ends a
 * stream; `onError` may also receive `HandlerCallbackError`s, which end nothing. Any callback may
 * be `async`: the stream waits for its promise before delivering the next callback (backpressure),
 * and a rejection is reported to `onError` as a `HandlerCallbackError`, exactly like a throw.
 */
export interface StreamingChatResponseHandler {
  onPartialResponse?(partial: PartialResponse, context: PartialResponseContext): CallbackResult;
  onPartialThinking?(partial: PartialThinking, context: PartialThinkingContext): CallbackResult;
  onPartialToolCall?(partial: PartialToolCall, context: PartialToolCallContext): CallbackResult;
  onCompleteToolCall?(complete: CompleteToolCall): CallbackResult;
  onUnmappedRawEvent?(rawEvent: unknown): CallbackResult;
  onCompleteResponse(response: ChatResponse): CallbackResult;
  onError(error: Error): CallbackResult;
  /**
   * Optional: called once by the stream driver before the first event, with the handle that
   * cancels this stream (lets a handler such as `ChatStream` cancel before any token arrives).
   */
  bindStreamingHandle?(handle: StreamingHandle): void;
}

/** The callback names of a handler. */
export type HandlerCallbackName = keyof StreamingChatResponseHandler;
