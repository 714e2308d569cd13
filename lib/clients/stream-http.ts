import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { startStream, type StreamOutcome, type StreamRelay } from '../driver/consume-stream';
import { openChunkReader, type ChunkReader } from '../transport/byte-source';
import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import { stringifyJson } from '../wire/stringify-json';
import { chooseFormat, type FormatOption } from '../driver/format-choice';
import { reportDecodingErrors } from './body-decoding';
import type { SourcedValue } from './environment';
import { discard, fetchSameOrigin } from './follow-redirects';
import { httpResponseInfo, type HttpResponseInfo } from './http-response-info';
import { ERROR_BODY_TIME_LIMIT_MS, htmlResponseError, httpStatusError } from './read-error-response';
import { DEFAULT_MAX_RETRIES, isRetryableResponse, retryDelayMs } from './retry';
import { sleep } from '../transport/sleep';
import { signingFetch, type RequestSigner } from './signing-fetch';
import { checkHeaderValue, describeUrl, redactError, redactText, secretsOf } from './secrets';
import { secretRedaction } from './stream-redaction';
import { USER_AGENT } from './version';
import type { ObservationOptions } from '../telemetry/chat-model-listener';
import { clientTelemetry } from './client-telemetry';
import { attemptErrorType, type AttemptObserver } from '../telemetry/http-attempts';
import { attemptUrl } from './attempt-url';

/** Options every provider's HTTP client takes (each client adds where the API lives: `baseURL`, or `host` for Ollama). */
export interface HttpClientOptions extends ObservationOptions {
  /**
   * The URL the endpoint's path is joined to, as before `baseURL` existed: for Anthropic it
   * includes `/v1` (`https://api.anthropic.com/v1`), for Gemini `/v1beta`; for OpenAI and Ollama
   * it is the same as `baseURL` / `host`. Kept with this meaning for one release.
   * @deprecated Use `baseURL` (Ollama: `host`), spelled and defaulted as in the provider's SDK.
   */
  readonly baseUrl?: string | undefined;
  /**
   * The API key, sent the way the provider expects; when absent, the provider's environment
   * variable as its SDK reads it (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY` then
   * `GOOGLE_API_KEY`). When neither is set the promise rejects with a `TypeError` naming them and
   * nothing is sent, as the official SDKs refuse to — unless `headers` carry an `authorization`
   * header or the provider's own key header, or the client is Ollama's (which needs no key). An
   * empty string sends no key on purpose (a local server that takes none). The key never appears
   * in an error: one with a character a header cannot carry is refused (a `TypeError` naming the
   * option or the variable and the position, not the key), and a server echoing it back has it
   * replaced by `[redacted]`.
   */
  readonly apiKey?: string | undefined;
  /** Extra request headers; they override the client's own (e.g. a newer `anthropic-version`, or `user-agent`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The `fetch` to use (the global one by default). */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Cancels the request or the stream, like the handle's `cancel()`. */
  readonly signal?: AbortSignal | undefined;
  /** Fails the stream when no bytes arrive for this long; 300 000 ms (`DEFAULT_IDLE_TIMEOUT_MS`) by default, `Infinity` for never. */
  readonly idleTimeoutMs?: number | undefined;
  /** A deadline for the whole request and stream (milliseconds); off by default. See `ConsumeStreamOptions.timeoutMs`. */
  readonly timeoutMs?: number | undefined;
  /** The largest frame the stream may send; 64 MiB by default. See `ConsumeStreamOptions.maxFrameBytes`. */
  readonly maxFrameBytes?: number | undefined;
  /**
   * How many times a request is retried (2 by default, 0 for never) when it fails before the
   * response body began: a connection error, or status 408, 409, 429 or 5xx (a server's
   * `x-should-retry` overrides). The wait is the server's `retry-after-ms` / `retry-after` (at most
   * 60 s), else 0.5 s × 2^n up to 8 s with jitter, as the official SDKs. A wait that would outlast
   * `timeoutMs` or `idleTimeoutMs` is not taken (the error is reported at once), and a cancel ends
   * it. Once the body began, nothing is retried.
   */
  readonly maxRetries?: number | undefined;
  /**
   * Relays this stream (SPEC §13): pass a `Relay` from `openRelay` (`partstream/relay`). A stop
   * of the response (`stopResponse`, from any process) cancels this request.
   */
  readonly relay?: StreamRelay | undefined;
}

/** A client's outcome: the stream's, with what was seen of the HTTP response once one arrived. */
export type HttpStreamOutcome = StreamOutcome & {
  /** Status, headers and request id of the response; absent when none arrived (a refused connection, a cancel before it). */
  readonly http?: HttpResponseInfo | undefined;
};

/** The `model` of a request body, when it names one. */
function modelOf(body: unknown): string | undefined {
  const model: unknown = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}

/** One streaming request to a provider, as `streamHttp` sends it. */
export interface HttpStreamRequest {
  /** The wire format of the response body: a format's name, or a provider's descriptor. */
  readonly format: FormatOption;
  /** The provider's name, for error messages. */
  readonly provider: string;
  readonly url: string;
  /** Where the URL came from (an option's or an environment variable's name), for error messages. */
  readonly urlFrom?: string;
  /** The API key (already in `headers`) and where it came from: kept out of every error. */
  readonly apiKey?: SourcedValue | undefined;
  /** The provider's headers (the API key among them); `options.headers` override them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON request body. */
  readonly body: unknown;
  /** The model asked for, for the stream's listeners (`body.model` when absent). */
  readonly model?: string | undefined;
  /** Signs each request just before it is sent, every retry and redirect included (see `signingFetch`). */
  readonly sign?: RequestSigner | undefined;
}

/**
 * The idle timeout of the HTTP clients unless told otherwise: 5 minutes (300 000 ms), as Node's own
 * `fetch` waits between body chunks — a reasoning model can think silently for minutes. It bounds
 * each wait for the response headers and for the next bytes; `timeoutMs` bounds the whole stream.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** The `accept` header for a body format: its descriptor's content type (SSE for `auto`). */
function acceptOf(format: FormatOption): string {
  return chooseFormat(format, undefined).expected?.contentType ?? 'text/event-stream';
}

function checkString(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`Expected ${name} to be a string, got ${describeValue(value)}`);
}

/**
 * Throws a `TypeError` for options of the wrong kind, and for an `apiKey` or header value with a
 * character an HTTP header cannot carry (a line break, a NUL); the message names the position,
 * never the value.
 */
export function checkHttpClientOptions(options: HttpClientOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`Expected HTTP client options, got ${describeValue(options)}`);
  checkString('baseUrl', options.baseUrl);
  checkString('apiKey', options.apiKey);
  if (options.apiKey !== undefined) checkHeaderValue('apiKey', options.apiKey);
  const retries = options.maxRetries;
  if (retries !== undefined && !(typeof retries === 'number' && Number.isInteger(retries) && retries >= 0)) {
    throw new TypeError(`Expected maxRetries to be a whole number of at least 0, got ${describeValue(retries)}`);
  }
  if (options.headers !== undefined && (typeof options.headers !== 'object' || options.headers === null)) {
    throw new TypeError(`Expected headers to be an object of strings, got ${describeValue(options.headers)}`);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value === 'string') checkHeaderValue(`headers[${JSON.stringify(name)}]`, value);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError(`Expected fetch to be a function, got ${describeValue(options.fetch)}`);
}

/** The wait for the response (and each retry wait) may take this long before the idle timeout or the deadline, whichever comes first. */
function timeLeftMs(options: HttpClientOptions, startedAt: number): number {
  const elapsed = Date.now() - startedAt;
  let left = Infinity;
  for (const bound of [options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, options.timeoutMs ?? Infinity]) {
    if (bound !== Infinity) left = Math.min(left, bound - elapsed);
  }
  return left;
}

/** Throws a `TypeError` naming `from` unless `url` is an absolute URL without credentials (fetch refuses `user:password@`). */
function checkRequestUrl(url: string, from: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Expected ${from} to be an absolute URL (like https://api.example.com/v1), got ${JSON.stringify(describeUrl(url))}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError(`Expected ${from} without credentials, got one with user:password@ (${describeUrl(url)}); fetch does not send them: pass them in headers (e.g. authorization) instead`);
  }
}

/**
 * How long an error body may take: the error-body limit, but short of the idle timeout and the
 * deadline (which count from the start of the request), so that the status is reported before
 * either ends the stream as a timeout.
 */
function errorBodyTimeLimit(options: HttpClientOptions, startedAt: number): number {
  return Math.max(0, Math.min(ERROR_BODY_TIME_LIMIT_MS, 0.8 * timeLeftMs(options, startedAt)));
}

/** A wait shorter than this before the idle timeout or deadline is not started: the retry would have no time left. */
const RETRY_TIME_MARGIN_MS = 50;

/**
 * POSTs a streaming request and drives `handler` with the response, like `consumeStream`. The
 * request is aborted by a cancel (the handle or `options.signal`), by the idle timeout and when
 * the stream stops early. A connection error or a retryable status (408, 409, 429, 5xx) before the
 * body began is retried up to `maxRetries` times (see `HttpClientOptions.maxRetries`); what
 * remains is reported: an error status becomes one `onError` with an `http` StreamError (status,
 * parsed body, provider message; the body read within 64 KiB and `ERROR_BODY_TIME_LIMIT_MS`), an
 * HTML page a `format` error, a failed request a `network` one, a body that cannot be decompressed
 * a `network` one saying so; the promise resolves with the outcome either way, carrying
 * `http` (status, headers, request id) once a response arrived. Redirects are followed only
 * within the same origin (see `fetchSameOrigin`). No error carries the API key, a credential
 * header's value or URL credentials, in its message, fields or `cause` — an error built from the
 * stream (a provider's error event) included — and no raw event does either. A URL that is not
 * absolute or has credentials, a header value fetch would refuse, and options of the wrong kind
 * reject the promise with a `TypeError` before anything is sent.
 */
export function streamHttp(request: HttpStreamRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<HttpStreamOutcome> {
  try {
    return sendHttpStream(request, handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function sendHttpStream(request: HttpStreamRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions): Promise<HttpStreamOutcome> {
  const startedAt = Date.now();
  checkHttpClientOptions(options);
  checkRequestUrl(request.url, request.urlFrom ?? 'baseUrl');
  if (request.apiKey !== undefined) checkHeaderValue(request.apiKey.from, request.apiKey.value);
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') checkHeaderValue(`The ${name} header`, value);
  }
  const secrets = secretsOf(request.apiKey?.value ?? options.apiKey, [request.headers, options.headers ?? {}]);
  const fetchImpl = signingFetch(options.fetch ?? globalThis.fetch, request.sign);
  const headers = new Headers({ 'content-type': 'application/json', accept: acceptOf(request.format), 'user-agent': USER_AGENT });
  for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  // Replayed tool arguments may nest deeper than JSON.stringify can recurse (SPEC §11).
  const body = stringifyJson(request.body) as string;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  let http: HttpResponseInfo | undefined;
  let retries = 0;
  const seen = (response: Response): void => {
    http = httpResponseInfo(response, secrets);
  };
  /** The wait before retry number `attempt` (0 first), or null when no retry is due or there is no time left for one. */
  const retryWait = (attempt: number, responseHeaders: Headers | null): number | null => {
    if (attempt >= maxRetries) return null;
    const delay = retryDelayMs(responseHeaders, attempt);
    return delay + RETRY_TIME_MARGIN_MS < timeLeftMs(options, startedAt) ? delay : null;
  };
  /** Waits before a retry; a cancel ends the wait and throws its reason. */
  const pause = async (wait: number, signal: AbortSignal): Promise<void> => {
    await sleep(wait, signal);
    if (signal.aborted) throw signal.reason;
  };
  const open = async (signal: AbortSignal, observer: AttemptObserver | null): Promise<ChunkReader> => {
    // Every request on the wire (each redirect hop too) is one attempt for the stream's listeners.
    const send: typeof fetchImpl =
      observer === null
        ? fetchImpl
        : (input, init) =>
            observer.attempt(init?.method ?? 'GET', attemptUrl(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, secrets), () => fetchImpl(input, init));
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchSameOrigin(send, request.url, { method: 'POST', headers, body, signal }, request.provider, seen);
      } catch (error) {
        if (signal.aborted || StreamError.isInstance(error)) throw error;
        const wait = retryWait(attempt, null);
        if (wait !== null) {
          observer?.retry(null, attemptErrorType(error), wait);
          await pause(wait, signal);
          retries++;
          continue;
        }
        const why = redactText(describeError(error), secrets);
        throw new StreamError('network', `The request to ${request.provider} (${describeUrl(request.url)}) failed: ${why}`, { cause: redactError(error, secrets) });
      }
      if (!response.ok) {
        const wait = isRetryableResponse(response.status, response.headers) ? retryWait(attempt, response.headers) : null;
        if (wait !== null) {
          // Let go of the body unread: this response is not the one reported.
          discard(response);
          observer?.retry(response.status, String(response.status), wait);
          await pause(wait, signal);
          retries++;
          continue;
        }
        throw await httpStatusError(response, request.provider, { timeLimitMs: errorBodyTimeLimit(options, startedAt), secrets });
      }
      if (/^\s*text\/html/i.test(response.headers.get('content-type') ?? '')) {
        throw await htmlResponseError(response, request.provider, `a stream (${acceptOf(request.format)})`, { timeLimitMs: errorBodyTimeLimit(options, startedAt), secrets });
      }
      return reportDecodingErrors(openChunkReader(response), response, request.provider);
    }
  };
  const idle = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return startStream(
    open,
    handler,
    {
      format: request.format,
      signal: options.signal,
      idleTimeoutMs: idle === Infinity ? undefined : idle,
      timeoutMs: options.timeoutMs,
      maxFrameBytes: options.maxFrameBytes,
      relay: options.relay,
      // A server may echo the key inside the stream too (an error event, any event surfaced raw).
      redaction: secretRedaction(secrets),
      listeners: options.listeners,
      logger: options.logger,
      logLevel: options.logLevel,
      telemetry: clientTelemetry(request.url, request.model ?? modelOf(request.body), request.body, options.telemetry),
    },
    () => ({ http: http ?? null, retries }),
  ).then((outcome) => (http === undefined ? outcome : Object.freeze({ ...outcome, http })));
}
