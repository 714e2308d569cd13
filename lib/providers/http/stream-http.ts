import type { StreamingChatResponseHandler } from '../../handler/types';
import { describeValue } from '../../parts/describe-value';
import { startStream, type StreamOutcome } from '../consume-stream';
import { openChunkReader, type ChunkReader } from '../decode/byte-source';
import { describeError } from '../decode/describe-error';
import { StreamError } from '../stream-error';
import type { WireFormat } from '../types';
import { htmlResponseError, httpStatusError } from './read-error-response';

/** Options every provider's HTTP client takes. */
export interface HttpClientOptions {
  /** Where the API lives (the provider's by default); point it at a compatible server or a proxy. */
  readonly baseUrl?: string;
  /** The API key, sent the way the provider expects (no key is sent when absent). */
  readonly apiKey?: string;
  /** Extra request headers; they override the client's own (e.g. a newer `anthropic-version`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (the global one by default). */
  readonly fetch?: typeof globalThis.fetch;
  /** Cancels the request or the stream, like the handle's `cancel()`. */
  readonly signal?: AbortSignal;
  /** Fails the stream when no bytes arrive for this long; 300 000 ms (`DEFAULT_IDLE_TIMEOUT_MS`) by default, `Infinity` for never. */
  readonly idleTimeoutMs?: number;
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

/** Throws a `TypeError` for options of the wrong kind. */
export function checkHttpClientOptions(options: HttpClientOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`Expected HTTP client options, got ${describeValue(options)}`);
  checkString('baseUrl', options.baseUrl);
  checkString('apiKey', options.apiKey);
  if (options.headers !== undefined && (typeof options.headers !== 'object' || options.headers === null)) {
    throw new TypeError(`Expected headers to be an object of strings, got ${describeValue(options.headers)}`);
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

/** Where a request went, for messages: the URL without its query (which may hold a key). */
function describeUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * POSTs a streaming request and drives `handler` with the response, like `consumeStream`. The
 * request is aborted by a cancel (the handle or `options.signal`), by the idle timeout and when
 * the stream stops early. An error status becomes one `onError` with an `http` StreamError (status,
 * parsed body, provider message), an HTML page a `format` error, a failed request a `network` one;
 * the promise resolves with the outcome either way.
 */
export function streamHttp(request: HttpStreamRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkHttpClientOptions(options);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers = new Headers({ 'content-type': 'application/json', accept: ACCEPT[request.format] });
  for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const body = JSON.stringify(request.body);
  const open = async (signal: AbortSignal): Promise<ChunkReader> => {
    let response: Response;
    try {
      response = await fetchImpl(request.url, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new StreamError('network', `The request to ${request.provider} (${describeUrl(request.url)}) failed: ${describeError(error)}`, { cause: error });
    }
    if (!response.ok) throw await httpStatusError(response, request.provider);
    if (/^\s*text\/html/i.test(response.headers.get('content-type') ?? '')) {
      throw await htmlResponseError(response, request.provider, `a stream (${ACCEPT[request.format]})`);
    }
    return openChunkReader(response);
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
