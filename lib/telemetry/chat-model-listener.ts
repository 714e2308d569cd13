import type { ProviderTelemetry } from '../providers/provider-descriptor';
import type { ChatResponse } from '../handler/types';
import type { LoggingOptions } from './log-listener';

/**
 * How a stream ended, as its listeners see it: the very `StreamOutcome` the stream's promise
 * resolves with (the same shape, declared here so the listener contract stands on its own).
 */
export type ObservedOutcome =
  | { readonly status: 'completed'; readonly response: ChatResponse }
  | { readonly status: 'failed'; readonly error: Error; readonly partial: ChatResponse }
  | { readonly status: 'cancelled'; readonly partial: ChatResponse };

/** What an HTTP client saw of its response: status, headers (lower-case names) and the provider's request id. */
export interface ObservedHttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string | null;
}

/** Where the request went: host name (IPv6 without brackets) and port. */
export interface ObservedServer {
  readonly address: string;
  readonly port: number;
}

/** What every listener call of one stream carries. */
export interface ChatModelRequestContext {
  /** Unique per stream, for correlating the calls of one stream. */
  readonly streamId: string;
  /** The wire format (`openai-chat` …), `auto` until recognised, or the custom adapter's name. */
  readonly format: string;
  /** The provider's `gen_ai.provider.name` value (`openai`, `anthropic`, `gcp.gemini`, `ollama`, or the caller's). */
  readonly provider: string;
  /** The operation (`chat`, `generate_content` for Gemini, or the caller's). */
  readonly operation: string;
  /** The model the request asked for, when known. */
  readonly requestModel: string | null;
  /** The provider request body as sent (HTTP clients), else `telemetry.request`, else undefined. */
  readonly request: unknown;
  /** Where the request went, when known. */
  readonly server: ObservedServer | null;
  /** Epoch milliseconds of request issuance. */
  readonly startTime: number;
  /** The caller's `telemetry.conversationId`, never invented. */
  readonly conversationId: string | null;
  /** One map per stream, shared by all its listeners, for a listener's own state (a span, say). */
  readonly attributes: Map<unknown, unknown>;
  /**
   * What the format's provider descriptor says for telemetry (SPEC §15): its GenAI names, and how
   * its request body reads as `gen_ai.request.*` attributes and as messages. Null while the format
   * is still being recognised, and for a bare adapter.
   */
  readonly providerTelemetry: ProviderTelemetry | null;
  /** What was aggregated so far; built only when called. */
  partial(): ChatResponse;
}

/** Milliseconds from `startTime`, on a monotonic clock. */
export interface StreamTimings {
  /** Until the response headers arrived (HTTP clients), else null. */
  readonly timeToHeadersMs: number | null;
  /** Until the first frame that produced content, null when none did. */
  readonly timeToFirstChunkMs: number | null;
  /** Until the outcome was decided. */
  readonly durationMs: number;
}

/** `onFirstChunk`'s context. */
export interface ChatModelFirstChunkContext extends ChatModelRequestContext {
  readonly timeToFirstChunkMs: number;
}

/** The context of the one terminal call of a stream. */
export interface ChatModelEndContext extends ChatModelRequestContext {
  /** The outcome the stream resolves with. */
  readonly outcome: ObservedOutcome;
  readonly timings: StreamTimings;
  /** The HTTP response (HTTP clients, once one arrived), else null. */
  readonly http: ObservedHttpResponse | null;
  /** Attempts re-sent before the body began (HTTP clients). */
  readonly retries: number;
  /** `HandlerCallbackError`s reported during the stream (they end nothing). */
  readonly handlerErrors: number;
  /** Events surfaced raw through `onUnmappedRawEvent`. */
  readonly unmappedEvents: number;
}

/** `onResponse`'s context: the outcome is `completed`. */
export type ChatModelResponseContext = ChatModelEndContext;
/** `onError`'s context: the outcome is `failed`, and `error` is its error. */
export interface ChatModelErrorContext extends ChatModelEndContext {
  readonly error: Error;
}
/** `onCancel`'s context: the outcome is `cancelled`. */
export type ChatModelCancelContext = ChatModelEndContext;

/**
 * An observer of streams (SPEC §14): `onRequest`, then `onFirstChunk` at most once (before the
 * first content callback), then exactly one of `onResponse`, `onError`, `onCancel`, before the
 * handler's terminal callback and before the stream's promise settles. Calls are synchronous; a
 * returned promise is not awaited. A throw or rejection never touches the stream or the other
 * listeners (one warning per listener).
 */
export interface ChatModelListener {
  onRequest?(context: ChatModelRequestContext): unknown;
  onFirstChunk?(context: ChatModelFirstChunkContext): unknown;
  onResponse?(context: ChatModelResponseContext): unknown;
  onError?(context: ChatModelErrorContext): unknown;
  onCancel?(context: ChatModelCancelContext): unknown;
}

/** What `consumeStream` cannot know of a stream, for its listeners. */
export interface StreamTelemetry {
  /** The `gen_ai.provider.name`; by default from the format. */
  readonly provider?: string | undefined;
  /** The operation; `generate_content` for Gemini, else `chat`, by default. */
  readonly operation?: string | undefined;
  readonly requestModel?: string | undefined;
  /** The request body as sent. */
  readonly request?: unknown;
  readonly serverAddress?: string | undefined;
  readonly serverPort?: number | undefined;
  /** Epoch milliseconds when the request was issued (before the caller's fetch); the call by default. */
  readonly startTime?: number | undefined;
  readonly conversationId?: string | undefined;
}

/** The observation options of `consumeStream` and every HTTP client (logging: `LoggingOptions`). */
export interface ObservationOptions extends LoggingOptions {
  /** Listeners for this stream, called after the process-wide ones (`addChatModelListener`). */
  readonly listeners?: readonly ChatModelListener[] | undefined;
  /** What the stream's listeners should know that the stream cannot tell. */
  readonly telemetry?: StreamTelemetry | undefined;
}
