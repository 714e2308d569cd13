import { HandlerCallbackError } from '../handler/handler-callback-error';
import type { ChatResponse, StreamingChatResponseHandler, StreamingHandle } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type {
  ChatModelEndContext,
  ChatModelHttpAttemptContext,
  ChatModelListener,
  ChatModelRequestContext,
  ChatModelRetryContext,
  HttpAttemptResult,
  ObservationOptions,
  ObservedHttpResponse,
  ObservedOutcome,
  ObservedServer,
  StreamTelemetry,
} from './chat-model-listener';
import { AttemptScopes, attemptErrorType, responseResult, type AttemptObserver } from './http-attempts';
import { channelListener } from './diagnostics-channels';
import { callListener } from './isolated-call';
import { checkListener, globalListeners } from './listener-registry';
import { logListener } from './log-listener';
import type { ProviderTelemetry } from '../providers/provider-descriptor';

/** What an HTTP client tells the observer of its attempts (read once, at the end). */
export interface HttpAttempts {
  readonly http: ObservedHttpResponse | null;
  readonly retries: number;
}

/** What the driver gives the observer of one stream. */
export interface ObservedStream {
  /** The format (`auto` until recognised, then the recognised one), or `custom` for an adapter. */
  format(): string;
  /** The telemetry facts of the format's provider, once the format is known (null before, and for a bare adapter). */
  provider(): ProviderTelemetry | null;
  /** What is aggregated so far. */
  partial(): ChatResponse;
  /** The HTTP client's attempts, when there is a client. */
  readonly attempts?: (() => HttpAttempts) | undefined;
}

const STREAM_PREFIX = Math.floor(Math.random() * 2 ** 32).toString(36);
let streamCount = 0;

const now: () => number =
  typeof globalThis.performance === 'object' && globalThis.performance !== null && typeof globalThis.performance.now === 'function' ? () => globalThis.performance.now() : () => Date.now();

/** Throws a `TypeError` naming the observation option of the wrong kind. */
export function checkObservationOptions(options: ObservationOptions): void {
  const listeners: unknown = options.listeners;
  if (listeners !== undefined) {
    if (!Array.isArray(listeners)) throw new TypeError(`Expected listeners to be an array of ChatModelListener objects, got ${describeValue(listeners)}`);
    listeners.forEach((listener: unknown, index) => checkListener(listener, `listeners[${index}]`));
  }
  const logger: unknown = options.logger;
  if (logger !== undefined && (logger === null || typeof logger !== 'object' || ['debug', 'info', 'warn', 'error'].some((level) => typeof (logger as Record<string, unknown>)[level] !== 'function'))) {
    throw new TypeError(`Expected logger to be an object with debug, info, warn and error methods, got ${describeValue(logger)}`);
  }
  const logLevel: unknown = options.logLevel;
  if (logLevel !== undefined && !['debug', 'info', 'warn', 'error', 'off'].includes(logLevel as string)) {
    throw new TypeError(`Expected logLevel to be debug, info, warn, error or off, got ${describeValue(logLevel)}`);
  }
  const telemetry: unknown = options.telemetry;
  if (telemetry === undefined) return;
  if (telemetry === null || typeof telemetry !== 'object') throw new TypeError(`Expected telemetry to be an object, got ${describeValue(telemetry)}`);
  const fields = telemetry as StreamTelemetry;
  for (const name of ['provider', 'operation', 'requestModel', 'serverAddress', 'conversationId'] as const) {
    const value: unknown = fields[name];
    if (value !== undefined && typeof value !== 'string') throw new TypeError(`Expected telemetry.${name} to be a string, got ${describeValue(value)}`);
  }
  for (const name of ['serverPort', 'startTime'] as const) {
    const value: unknown = fields[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new TypeError(`Expected telemetry.${name} to be a finite number of at least 0, got ${describeValue(value)}`);
    }
  }
}

/**
 * The observer of one stream, or null when no listener is registered (the one check a stream
 * without listeners pays). The driver calls `request` at the start, `headers` when the response
 * arrived, wraps the user's handler with `observe` (the first chunk, the terminal callbacks, the
 * counts) and ends the stream with `finish` before its promise settles.
 */
export function observeStream(options: ObservationOptions, stream: ObservedStream): StreamObserver | null {
  const shared = globalListeners();
  const own = options.listeners;
  const log = logListener(options);
  const channels = channelListener();
  if (shared.length === 0 && (own === undefined || own.length === 0) && log === null && channels === null) return null;
  const listeners = [...shared, ...(own ?? [])];
  if (channels !== null) listeners.push(channels);
  if (log !== null) listeners.push(log);
  return new StreamObserver(listeners, options.telemetry ?? {}, stream);
}

/**
 * One stream's listener calls: `onRequest`, at most one `onFirstChunk`, exactly one terminal call;
 * between them, for an HTTP client, `onHttpAttempt` per request sent and `onRetry` per retry.
 */
export class StreamObserver implements AttemptObserver {
  private context: ChatModelRequestContext;
  /** The monotonic clock at `startTime`. */
  private readonly origin: number;
  private headersAt: number | null = null;
  private firstChunkAt: number | null = null;
  private handlerErrors = 0;
  private unmappedEvents = 0;
  /** The provider name is the format's (not the caller's): it follows a format recognised later. */
  private readonly ownProvider: boolean;
  /** The operation name is the format's (not the caller's): it follows a format recognised later. */
  private readonly ownOperation: boolean;
  /** The outcome given to the terminal call; null until then. */
  private ended: ObservedOutcome | null = null;
  /** Requests sent so far, and retries told. */
  private sent = 0;
  private retries = 0;
  /** The scopes of the request in flight (requests are sent one after another), until it ended. */
  private inFlight: AttemptScopes | null = null;

  constructor(
    private readonly listeners: readonly ChatModelListener[],
    telemetry: StreamTelemetry,
    private readonly stream: ObservedStream,
  ) {
    const wallNow = Date.now();
    const startTime = telemetry.startTime ?? wallNow;
    this.origin = now() - Math.max(0, wallNow - startTime);
    const format = stream.format();
    const facts = stream.provider();
    this.ownProvider = telemetry.provider === undefined;
    this.ownOperation = telemetry.operation === undefined;
    const server: ObservedServer | null = telemetry.serverAddress === undefined ? null : Object.freeze({ address: telemetry.serverAddress, port: telemetry.serverPort ?? 443 });
    this.context = Object.freeze({
      streamId: `${STREAM_PREFIX}-${++streamCount}`,
      format,
      provider: telemetry.provider ?? facts?.providerName ?? format,
      operation: telemetry.operation ?? facts?.operationName ?? 'chat',
      providerTelemetry: facts,
      requestModel: telemetry.requestModel ?? null,
      request: telemetry.request,
      server,
      startTime,
      conversationId: telemetry.conversationId ?? null,
      attributes: new Map<unknown, unknown>(),
      partial: () => stream.partial(),
    });
  }

  /** `onRequest`, at the start of the stream. */
  request(): void {
    this.notify('onRequest', this.context);
  }

  /**
   * The format is recognised (`auto` until now): the calls from now on carry it, and the
   * provider name that follows from it (unless the caller named the provider).
   */
  recognised(): void {
    const format = this.stream.format();
    if (format === this.context.format) return;
    const facts = this.stream.provider();
    this.context = Object.freeze({
      ...this.context,
      format,
      providerTelemetry: facts,
      provider: this.ownProvider ? (facts?.providerName ?? format) : this.context.provider,
      operation: this.ownOperation ? (facts?.operationName ?? 'chat') : this.context.operation,
    });
  }

  /** Sends one HTTP request through `send`, in the listeners' `onHttpAttempt` scopes (see `AttemptObserver`). */
  attempt<R extends { readonly status: number }>(method: string, url: string, send: () => Promise<R>): Promise<R> {
    const safe = (): Promise<R> => {
      try {
        return send();
      } catch (error) {
        return Promise.reject(error);
      }
    };
    if (this.ended !== null) return safe();
    const context: ChatModelHttpAttemptContext = Object.freeze({ ...this.context, resendCount: this.sent++, method, url });
    const scopes = AttemptScopes.open(this.listeners, context);
    if (scopes === null) return safe();
    this.inFlight = scopes;
    const sending = scopes.send(safe);
    const settle = (result: HttpAttemptResult): void => {
      if (this.inFlight === scopes) this.inFlight = null;
      scopes.end(result);
    };
    // Ends the scopes before the client hears of the response (this reaction is registered first).
    sending.then(
      (response) => settle(responseResult(response.status)),
      (error: unknown) => settle({ status: null, errorType: attemptErrorType(error) }),
    );
    return sending;
  }

  /** `onRetry`: a failed request is sent again after `delayMs`. */
  retry(status: number | null, errorType: string, delayMs: number): void {
    if (this.ended !== null) return;
    const context: ChatModelRetryContext = Object.freeze({ ...this.context, retry: ++this.retries, status, errorType, delayMs });
    this.notify('onRetry', context);
  }

  /** The response headers arrived. */
  headers(): void {
    if (this.headersAt === null) this.headersAt = now();
  }

  /**
   * The user's handler, observed: the first content callback, unmapped events, handler errors,
   * and the terminal callbacks, before which the stream ends with the outcome `outcome` makes then.
   */
  observe(handler: StreamingChatResponseHandler, outcome: () => ObservedOutcome): StreamingChatResponseHandler {
    // A handler of the wrong kind stays as it is, for the driver to refuse with its TypeError.
    if (handler === null || typeof handler !== 'object' || typeof handler.onCompleteResponse !== 'function' || typeof handler.onError !== 'function') return handler;
    return new ObservedHandler(handler, this, outcome);
  }

  /** `onFirstChunk`, once, before the first content callback. */
  firstChunk(): void {
    if (this.firstChunkAt !== null || this.ended !== null) return;
    const at = now();
    this.firstChunkAt = at;
    this.notify('onFirstChunk', Object.freeze({ ...this.context, timeToFirstChunkMs: at - this.origin }));
  }

  countHandlerError(): void {
    this.handlerErrors++;
  }

  countUnmappedEvent(): void {
    this.unmappedEvents++;
  }

  /**
   * Ends the stream with the outcome `build` makes (the terminal call, once) and returns it; the
   * outcome given at the terminal callback when there was one.
   */
  finish<O extends ObservedOutcome>(build: () => O): O {
    const ended = this.ended;
    if (ended !== null) return ended as O;
    const outcome = build();
    this.end(outcome);
    return outcome;
  }

  private end(outcome: ObservedOutcome): void {
    this.ended = outcome;
    const at = now();
    const cut = this.inFlight;
    if (cut !== null) {
      // A request still in flight ends with the stream, before it (it is aborted next).
      this.inFlight = null;
      cut.end({ status: null, errorType: outcome.status === 'cancelled' ? 'cancelled' : cutErrorType(outcome.status === 'failed' ? outcome.error : null) });
    }
    const attempts = this.stream.attempts?.();
    const format = this.stream.format();
    const facts = this.stream.provider();
    const context: ChatModelEndContext = {
      ...this.context,
      format,
      providerTelemetry: facts,
      provider: this.ownProvider ? (facts?.providerName ?? format) : this.context.provider,
      outcome,
      timings: Object.freeze({
        timeToHeadersMs: this.headersAt === null ? null : this.headersAt - this.origin,
        timeToFirstChunkMs: this.firstChunkAt === null ? null : this.firstChunkAt - this.origin,
        durationMs: at - this.origin,
      }),
      http: attempts?.http ?? null,
      retries: attempts?.retries ?? 0,
      handlerErrors: this.handlerErrors,
      unmappedEvents: this.unmappedEvents,
    };
    switch (outcome.status) {
      case 'completed':
        this.notify('onResponse', Object.freeze(context));
        return;
      case 'failed':
        this.notify('onError', Object.freeze({ ...context, error: outcome.error }));
        return;
      default:
        this.notify('onCancel', Object.freeze(context));
    }
  }

  /** The terminal callback is about to be delivered: the outcome is decided. */
  terminal(build: () => ObservedOutcome): void {
    if (this.ended === null) this.end(build());
  }

  private notify(hook: keyof ChatModelListener, context: unknown): void {
    for (const listener of this.listeners) callListener(listener, hook, context);
  }
}

/** The `errorType` of a request the stream's failure cut: the StreamError's kind (`timeout`), else `_OTHER`. */
function cutErrorType(error: Error | null): string {
  const kind: unknown = error === null ? undefined : (error as { kind?: unknown }).kind;
  return typeof kind === 'string' ? kind : '_OTHER';
}

type Callback = (this: unknown, value: unknown, context?: unknown) => unknown;

/**
 * The user's handler as the driver's safe handler sees it when the stream is observed: every
 * callback forwards to the user's (read when called, as the safe handler reads it), the first
 * content callback tells `onFirstChunk` before it, and a terminal callback tells the terminal
 * listener call before it. Per token: one field check and the forwarding call.
 */
class ObservedHandler implements StreamingChatResponseHandler {
  /** No content callback yet. */
  private waiting = true;

  constructor(
    private readonly handler: StreamingChatResponseHandler,
    private readonly observer: StreamObserver,
    private readonly outcome: () => ObservedOutcome,
  ) {}

  private first(): void {
    this.waiting = false;
    this.observer.firstChunk();
  }

  bindStreamingHandle(handle: StreamingHandle): unknown {
    const callback = this.handler.bindStreamingHandle as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, handle);
  }

  onPartialResponse(partial: unknown, context: unknown): unknown {
    if (this.waiting) this.first();
    const callback = this.handler.onPartialResponse as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, partial, context);
  }

  onPartialThinking(partial: unknown, context: unknown): unknown {
    if (this.waiting) this.first();
    const callback = this.handler.onPartialThinking as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, partial, context);
  }

  onPartialToolCall(partial: unknown, context: unknown): unknown {
    if (this.waiting) this.first();
    const callback = this.handler.onPartialToolCall as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, partial, context);
  }

  onCompleteToolCall(complete: unknown): unknown {
    if (this.waiting) this.first();
    const callback = this.handler.onCompleteToolCall as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, complete);
  }

  onUnmappedRawEvent(rawEvent: unknown): unknown {
    this.observer.countUnmappedEvent();
    const callback = this.handler.onUnmappedRawEvent as Callback | undefined;
    return callback == null ? undefined : callback.call(this.handler, rawEvent);
  }

  onCompleteResponse(response: ChatResponse): unknown {
    this.observer.terminal(this.outcome);
    return this.handler.onCompleteResponse(response);
  }

  onError(error: Error): unknown {
    if (HandlerCallbackError.isInstance(error)) this.observer.countHandlerError();
    else this.observer.terminal(this.outcome);
    return this.handler.onError(error);
  }
}
