import type { StreamingChatResponseHandler } from '../../handler/types';
import { describeValue } from '../../parts/describe-value';
import { startStream, type StreamOutcome } from '../consume-stream';
import { openChunkReader, type ChunkReader } from '../decode/byte-source';
import { describeError } from '../decode/describe-error';
import { StreamError } from '../stream-error';
import type { WireFormat } from '../types';
import { reportDecodingErrors } from './body-decoding';
import { fetchSameOrigin } from './follow-redirects';
import { ERROR_BODY_TIME_LIMIT_MS, htmlResponseError, httpStatusError } from './read-error-response';
import { checkHeaderValue, describeUrl, redactError, redactText, secretsOf } from './secrets';

/** Options every provider's HTTP client takes. */
export interface HttpClientOptions {
  /** Where the API lives (the provider's by default); point it at a compatible server or a proxy. */
  readonly baseUrl?: string | undefined;
  /**
   * The API key, sent the way the provider expects (no key is sent when absent). It never appears
   * in an error: one with a character a header cannot carry is refused (a `TypeError` naming the
   * position, not the key), and a server echoing it back has it replaced by `[redacted]`.
   */
  readonly apiKey?: string | undefined;
  /** Extra request headers; they override the client's own (e.g. a newer `anthropic-version`). */
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
}

/** One streaming request to a provider, as `streamHttp` sends it. */
export interface HttpStreamRequest {
  /** The wire format of the response body. */
  readonly format: WireFormat;
  /** The provider's name, for error messages. */
  readonly provider: string;
  readonly url: string;
  /** The provider's headers (the API key among them); `options.headers` override them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON request body. */
  readonly body: unknown;
}

/**
 * The idle timeout of the HTTP clients unless told otherwise: 5 minutes (300 000 ms), as Node's own
 * `fetch` waits between body chunks — a reasoning model can think silently for minutes. It bounds
 * each wait for the response headers and for the next bytes; `timeoutMs` bounds the whole stream.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

const ACCEPT: Readonly<Record<WireFormat, string>> = {
  'openai-chat': 'text/event-stream',
  'openai-responses': 'text/event-stream',
  anthropic: 'text/event-stream',
  gemini: 'text/event-stream',
  ollama: 'application/x-ndjson',
};

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
  if (options.headers !== undefined && (typeof options.headers !== 'object' || options.headers === null)) {
    throw new TypeError(`Expected headers to be an object of strings, got ${describeValue(options.headers)}`);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value === 'string') checkHeaderValue(`headers[${JSON.stringify(name)}]`, value);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError(`Expected fetch to be a function, got ${describeValue(options.fetch)}`);
}

/** Throws a `TypeError` unless the request is an object with a `model` string and the options are of the right kinds. */
export function checkModelRequest(request: unknown, what: string, options: HttpClientOptions): void {
  if (typeof request !== 'object' || request === null || typeof (request as { model?: unknown }).model !== 'string') {
    throw new TypeError(`Expected ${what} request with a model name, got ${describeValue(request)}`);
  }
  checkHttpClientOptions(options);
}

/** `base` + `path`, with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Throws a `TypeError` unless `url` is an absolute URL without credentials (fetch refuses `user:password@`). */
function checkRequestUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Expected baseUrl to be an absolute URL (like https://api.example.com/v1), got ${JSON.stringify(describeUrl(url))}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError(
      `Expected baseUrl without credentials, got one with user:password@ (${describeUrl(url)}); fetch does not send them: pass them in headers (e.g. authorization) instead`,
    );
  }
}

/**
 * How long an error body may take: the error-body limit, but short of the idle timeout and the
 * deadline (which count from the start of the request), so that the status is reported before
 * either ends the stream as a timeout.
 */
function errorBodyTimeLimit(options: HttpClientOptions, startedAt: number): number {
  const elapsed = Date.now() - startedAt;
  let limit = ERROR_BODY_TIME_LIMIT_MS;
  for (const bound of [options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, options.timeoutMs ?? Infinity]) {
    if (bound !== Infinity) limit = Math.min(limit, 0.8 * (bound - elapsed));
  }
  return Math.max(0, limit);
}

/**
 * POSTs a streaming request and drives `handler` with the response, like `consumeStream`. The
 * request is aborted by a cancel (the handle or `options.signal`), by the idle timeout and when
 * the stream stops early. An error status becomes one `onError` with an `http` StreamError (status,
 * parsed body, provider message; the body read within 64 KiB and `ERROR_BODY_TIME_LIMIT_MS`), an
 * HTML page a `format` error, a failed request a `network` one, a body that cannot be decompressed
 * a `network` one saying so; the promise resolves with the outcome either way. Redirects are
 * followed only within the same origin (see `fetchSameOrigin`). No error carries the API key,
 * a credential header's value or URL credentials, in its message, fields or `cause`. A URL that
 * is not absolute or has credentials, and a header value fetch would refuse, throw a `TypeError`.
 */
export function streamHttp(request: HttpStreamRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  const startedAt = Date.now();
  checkHttpClientOptions(options);
  checkRequestUrl(request.url);
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') checkHeaderValue(`The ${name} header`, value);
  }
  const secrets = secretsOf(options.apiKey, [request.headers, options.headers ?? {}]);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers = new Headers({ 'content-type': 'application/json', accept: ACCEPT[request.format] });
  for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const body = JSON.stringify(request.body);
  const open = async (signal: AbortSignal): Promise<ChunkReader> => {
    let response: Response;
    try {
      response = await fetchSameOrigin(fetchImpl, request.url, { method: 'POST', headers, body, signal }, request.provider);
    } catch (error) {
      if (signal.aborted || StreamError.isInstance(error)) throw error;
      const why = redactText(describeError(error), secrets);
      throw new StreamError('network', `The request to ${request.provider} (${describeUrl(request.url)}) failed: ${why}`, { cause: redactError(error, secrets) });
    }
    if (!response.ok) throw await httpStatusError(response, request.provider, { timeLimitMs: errorBodyTimeLimit(options, startedAt), secrets });
    if (/^\s*text\/html/i.test(response.headers.get('content-type') ?? '')) {
      throw await htmlResponseError(response, request.provider, `a stream (${ACCEPT[request.format]})`, { timeLimitMs: errorBodyTimeLimit(options, startedAt), secrets });
    }
    return reportDecodingErrors(openChunkReader(response), response, request.provider);
  };
  const idle = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return startStream(open, handler, {
    format: request.format,
    signal: options.signal,
    idleTimeoutMs: idle === Infinity ? undefined : idle,
    timeoutMs: options.timeoutMs,
    maxFrameBytes: options.maxFrameBytes,
  });
}
