import { describeValue } from '../parts/describe-value';

/**
 * A body partstream can read: a fetch `Response`, a byte `ReadableStream`, or an async iterable of
 * bytes or strings — or of an SDK's already-decoded event objects, for a format whose descriptor
 * reads them (`readObject`: Bedrock's, from `bedrockFramesFromSdkStream`).
 */
export type StreamSource = Response | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | AsyncIterable<object>;

/** Pulls chunks out of a `StreamSource`, one at a time. */
export interface ChunkReader {
  /** The next chunk; `done` when the source has ended. Rejects when the source fails (e.g. a reset connection). */
  read(): Promise<IteratorResult<Uint8Array | string, unknown>>;
  /**
   * Stops the source and releases its transport (cancels the body stream, returns the iterator).
   * Safe while a `read()` is pending and when called twice; never throws.
   */
  cancel(reason?: unknown): void;
}

const EMPTY: ChunkReader = Object.freeze({
  read: () => Promise.resolve({ done: true as const, value: undefined }),
  cancel: () => undefined,
});

function ignoreRejection(promise: unknown): void {
  if (promise instanceof Promise) promise.catch(() => undefined);
}

function isReadableStream(value: object): value is ReadableStream<Uint8Array> {
  return typeof (value as { getReader?: unknown }).getReader === 'function';
}

function isAsyncIterable(value: object): value is AsyncIterable<Uint8Array | string> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** A fetch `Response` from any implementation (the global one, undici's, node-fetch's …). */
function isResponseLike(value: object): value is Response {
  const candidate = value as { status?: unknown; headers?: unknown; body?: unknown };
  return typeof candidate.status === 'number' && typeof candidate.headers === 'object' && 'body' in candidate;
}

// The readers are classes, one object per stream: a read reaches the source through one field,
// where closures would take a closure and its context (two more objects per stream to fetch at
// every read, which counts with thousands of streams open).

/** Reads a `ReadableStream` through its default reader. */
class StreamReader implements ChunkReader {
  private cancelled = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  read(): Promise<IteratorResult<Uint8Array, unknown>> {
    return this.reader.read() as Promise<IteratorResult<Uint8Array, unknown>>;
  }

  cancel(reason?: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    try {
      ignoreRejection(this.reader.cancel(reason));
    } catch {
      // A reader that was already released cannot be cancelled; there is nothing left to stop.
    }
  }
}

/** Reads an async iterable through its iterator. */
class IterableReader implements ChunkReader {
  private cancelled = false;

  constructor(private readonly iterator: AsyncIterator<Uint8Array | string>) {}

  read(): Promise<IteratorResult<Uint8Array | string, unknown>> {
    return this.iterator.next();
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    try {
      ignoreRejection(this.iterator.return?.());
    } catch {
      // A throwing return() only means the iterator could not clean up; reading has stopped anyway.
    }
  }
}

function readerOfStream(stream: ReadableStream<Uint8Array>): ChunkReader {
  return new StreamReader(stream.getReader());
}

function readerOfIterable(iterable: AsyncIterable<Uint8Array | string>): ChunkReader {
  return new IterableReader(iterable[Symbol.asyncIterator]());
}

/** How to get the raw response out of the official SDKs, for error messages. */
export const RAW_RESPONSE_HINT = '`await client.chat.completions.create({ ..., stream: true }).asResponse()` or `await client.messages.create({ ..., stream: true }).asResponse()`';

/**
 * True for an official SDK's parsed stream (openai's and @anthropic-ai/sdk's `Stream`,
 * `MessageStream`, `ChatCompletionStream`): an async iterable of event objects, not of bytes, with
 * an `AbortController` and `toReadableStream()`.
 */
function isParsedSdkStream(value: object): boolean {
  const candidate = value as { controller?: unknown; toReadableStream?: unknown };
  const controller = candidate.controller;
  return (
    isAsyncIterable(value) &&
    typeof candidate.toReadableStream === 'function' &&
    typeof controller === 'object' &&
    controller !== null &&
    typeof (controller as { abort?: unknown }).abort === 'function'
  );
}

/**
 * Throws a `TypeError` unless `source` is a `StreamSource`. An SDK's parsed stream (events, not
 * bytes) and a promise are refused with a message saying what to pass instead.
 */
function assertStreamSource(source: unknown): asserts source is StreamSource {
  if (typeof source === 'object' && source !== null && !isResponseLike(source) && !isReadableStream(source) && isParsedSdkStream(source)) {
    throw new TypeError(`Expected the raw bytes of a stream, got an SDK's parsed stream (an async iterable of event objects): pass the raw response instead, e.g. ${RAW_RESPONSE_HINT}`);
  }
  if (typeof source === 'object' && source !== null && (isResponseLike(source) || isReadableStream(source) || isAsyncIterable(source))) {
    return;
  }
  const promise = (typeof source === 'object' || typeof source === 'function') && source !== null && typeof (source as { then?: unknown }).then === 'function';
  throw new TypeError(`Expected a Response, a ReadableStream<Uint8Array> or an AsyncIterable of Uint8Array or string chunks, got ${promise ? 'a promise (await it first)' : describeValue(source)}`);
}

/** The value of response header `name` when `source` is a fetch `Response`, else null (bodies carry no headers). */
export function sourceHeader(source: StreamSource, name: string): string | null {
  if (typeof source !== 'object' || source === null || !isResponseLike(source)) return null;
  const headers = source.headers as { get?: unknown };
  return typeof headers.get === 'function' ? ((headers.get as (key: string) => string | null).call(source.headers, name) ?? null) : null;
}

/**
 * Opens a reader on a `StreamSource`. A `Response` is read through its body (a null body reads as
 * empty; the status is the caller's business); a `Response` whose body was already read is refused
 * with a `TypeError`, as is anything that is not a `StreamSource`.
 */
export function openChunkReader(source: StreamSource): ChunkReader {
  assertStreamSource(source);
  if (isReadableStream(source)) return readerOfStream(source);
  if (isResponseLike(source) && !isAsyncIterable(source)) {
    if (source.bodyUsed) throw new TypeError('Expected a Response whose body has not been read, got one with bodyUsed');
    const body: unknown = source.body;
    if (body === null || body === undefined) return EMPTY;
    if (typeof body === 'object' && isReadableStream(body)) return readerOfStream(body);
    // node-fetch style bodies are Node streams: async iterables of Buffers.
    if (typeof body === 'object' && isAsyncIterable(body)) return readerOfIterable(body);
    throw new TypeError(`Expected a Response body that is a ReadableStream, got ${describeValue(body)}`);
  }
  return readerOfIterable(source as AsyncIterable<Uint8Array | string>);
}
