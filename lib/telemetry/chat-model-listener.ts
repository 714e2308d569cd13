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
 * One HTTP request an HTTP client sends for a stream: the first, a retry, or a redirect hop (each
 * is one request on the wire). Told before it is sent.
 */
export interface ChatModelHttpAttemptContext extends ChatModelRequestContext {
  /** How many requests this stream sent before this one (retries and redirect hops alike): 0 for the first. */
  readonly resendCount: number;
  /** The HTTP method (`POST`). */
  readonly method: string;
  /**
   * The URL sent to, without credentials or fragment; the API key, where it appears, and the value
   * of every query parameter whose name looks like a secret (`key`, `sig`, `token` …) read `REDACTED`.
   */
  readonly url: string;
}

/** How one HTTP attempt ended: with a response (`status`), or without one (`status` null). */
export interface HttpAttemptResult {
  /** The response's status; null when none arrived (a connection error, a cancel). */
  readonly status: number | null;
  /**
   * Null for a response below 400; else a low-cardinality class of the failure: the status as a
   * string (`"429"`), or, without a response, the connection error's code (`ECONNREFUSED`), else its
   * name (`TypeError`, `AbortError`), else `_OTHER`.
   */
  readonly errorType: string | null;
}

/** What a listener does around one HTTP attempt (both optional). */
export interface HttpAttemptScope {
  /**
   * Runs `send` (the attempt's `fetch`), in the listener's own context if it likes (an
   * OpenTelemetry listener makes the attempt's span active there). It must call `send` once; a
   * scope that throws or never calls it is passed by (the attempt is sent all the same).
   */
  wrap?(send: () => Promise<unknown>): unknown;
  /** The attempt ended, once: when its response headers arrived or it failed. */
  end?(result: HttpAttemptResult): unknown;
}

/** A request the HTTP client is about to retry, after a wait. */
export interface ChatModelRetryContext extends ChatModelRequestContext {
  /** 1 for the first retry. */
  readonly retry: number;
  /** The status of the response that is retried; null after a connection error. */
  readonly status: number | null;
  /** The failure retried, as `HttpAttemptResult.errorType` classes it (`"503"`, `ECONNRESET` …). */
  readonly errorType: string;
  /** The wait before the retry is sent, in milliseconds. */
  readonly delayMs: number;
}

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
  /**
   * HTTP clients only: a request is about to be sent (the first, a retry, a redirect hop). The
   * scope returned, if any, wraps the send and hears how it ended.
   */
  onHttpAttempt?(context: ChatModelHttpAttemptContext): HttpAttemptScope | undefined | void;
  /** HTTP clients only: a failed request will be sent again after `delayMs`. */
  onRetry?(context: ChatModelRetryContext): unknown;
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
