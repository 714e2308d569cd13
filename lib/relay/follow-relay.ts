import { consumeStream } from '../driver/consume-stream';
import type { StreamOutcome } from '../driver/stream-options';
import { StreamError } from '../handler/stream-error';
import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { parseSequence } from '../providers/partstream/partstream-wire';
import { createSequencedSseDecoder } from '../wire/sse-decoder';
import type { SequencedSseFrame } from '../wire/types';
import { sleep } from '../transport/sleep';

/** How `followRelay` reconnects. */
export interface ReconnectOptions {
  /** The first wait (250 ms), unless the server's `retry:` says otherwise; doubled per failed attempt. */
  readonly initialMs?: number | undefined;
  /** The longest wait (10 000 ms). */
  readonly maxMs?: number | undefined;
  /** Fail `network` (keeping the partial) after this long without a new event (300 000 ms). */
  readonly windowMs?: number | undefined;
}

/** Options of `followRelay`. */
export interface FollowRelayOptions {
  /** Stops following (the outcome is `cancelled`). */
  readonly signal?: AbortSignal | undefined;
  /** A connection that brings no bytes for this long is dropped and made again (45 000 ms: three heartbeats). */
  readonly idleTimeoutMs?: number | undefined;
  readonly reconnect?: ReconnectOptions | undefined;
  /** Reconnect at once when a hidden page becomes visible again (browsers; true by default). */
  readonly resumeWhenVisible?: boolean | undefined;
  /** The `fetch` used for a URL (the global one by default). */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Extra request headers for a URL (e.g. authorisation). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The largest event the relay may send (64 MiB by default). */
  readonly maxFrameBytes?: number | undefined;
}

/** Opens one connection: `lastEventId` is the last sequence applied (null before any). */
export type RelayConnector = (lastEventId: string | null, signal: AbortSignal) => Promise<Response>;

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`Expected ${name} to be a positive number, got ${describeValue(value)}`);
  return value;
}

/** One event again as SSE text, in the canonical form the viewer reads. */
function eventText(frame: SequencedSseFrame): string {
  const id = frame.id === null ? '' : `id: ${frame.id}\n`;
  const event = frame.event === null ? '' : `event: ${frame.event}\n`;
  return `${id}${event}data: ${frame.data.split('\n').join('\ndata: ')}\n\n`;
}

/** The connections of one follow, joined at event boundaries into one body for the viewer. */
class RelayFollower implements AsyncIterable<string> {
  private lastApplied: number | null = null;
  private retryMs: number | null = null;
  /** Aborted to cut the current connection or wait short (a page became visible). */
  private wake = new AbortController();
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly windowMs: number;
  private readonly idleTimeoutMs: number;

  constructor(
    private readonly connect: RelayConnector,
    private readonly signal: AbortSignal | undefined,
    options: FollowRelayOptions,
  ) {
    const reconnect = options.reconnect ?? {};
    this.initialMs = positive(reconnect.initialMs, 'reconnect.initialMs', 250);
    this.maxMs = positive(reconnect.maxMs, 'reconnect.maxMs', 10_000);
    this.windowMs = positive(reconnect.windowMs, 'reconnect.windowMs', 300_000);
    this.idleTimeoutMs = positive(options.idleTimeoutMs, 'idleTimeoutMs', 45_000);
  }

  private cancelled(): boolean {
    return this.signal !== undefined && this.signal.aborted;
  }

  /** Cuts the connection (or the wait) now, to reconnect at once. */
  resume(): void {
    this.wake.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    let attempt = 0;
    let progressAt = Date.now();
    for (;;) {
      if (this.signal?.aborted === true) return;
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const connection = new AbortController();
      const cut = (): void => connection.abort();
      this.wake.signal.addEventListener('abort', cut, { once: true });
      this.signal?.addEventListener('abort', cut, { once: true });
      let progressed = false;
      try {
        const last = this.lastApplied === null ? null : String(this.lastApplied);
        const response = await this.connect(last, connection.signal);
        if (response.status === 204) return;
        if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
          await response.body?.cancel().catch(() => undefined);
          throw new StreamError('http', `The relay answered ${response.status}`, { status: response.status });
        }
        if (response.status === 200 && response.body !== null) {
          for await (const text of this.read(response.body, connection)) {
            progressed = true;
            attempt = 0;
            progressAt = Date.now();
            yield text;
          }
        } else {
          await response.body?.cancel().catch(() => undefined);
        }
      } catch (error) {
        if (StreamError.isInstance(error)) throw error;
        // A failed or cut connection: reconnect below.
      } finally {
        this.wake.signal.removeEventListener('abort', cut);
        this.signal?.removeEventListener('abort', cut);
        connection.abort();
      }
      if (this.cancelled()) return;
      if (Date.now() - progressAt > this.windowMs) {
        throw new StreamError('network', `The relay brought no new event for ${this.windowMs} ms (reconnect.windowMs)`);
      }
      if (this.wake.signal.aborted) continue;
      const base = this.retryMs ?? this.initialMs;
      const backoff = Math.min(this.maxMs, base * 2 ** (progressed ? 0 : attempt++));
      await sleep(backoff / 2 + Math.random() * (backoff / 2), this.wake.signal);
    }
  }

  /** One connection's events, the ones already applied dropped, each chunk's complete events as one text. */
  private async *read(body: ReadableStream<Uint8Array>, connection: AbortController): AsyncGenerator<string> {
    const reader = body.getReader();
    const text = new TextDecoder();
    const decoder = createSequencedSseDecoder(Infinity);
    const onAbort = (): void => void reader.cancel().catch(() => undefined);
    connection.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        let idle: ReturnType<typeof setTimeout> | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => {
            idle = setTimeout(() => resolve(null), this.idleTimeoutMs);
          }),
        ]).finally(() => clearTimeout(idle));
        if (chunk === null || chunk.done) return;
        const frames = decoder.feed(text.decode(chunk.value, { stream: true }));
        if (decoder.retryMs !== null) this.retryMs = decoder.retryMs;
        let out = '';
        for (const frame of frames) {
          const sequence = parseSequence(frame.id);
          // Sent again by a server that ignored the cursor: applied once already.
          if (sequence !== null && this.lastApplied !== null && sequence <= this.lastApplied) continue;
          out += eventText(frame);
          if (sequence !== null) this.lastApplied = sequence;
        }
        if (out !== '') yield out;
      }
    } finally {
      connection.signal.removeEventListener('abort', onAbort);
      reader.cancel().catch(() => undefined);
    }
  }
}

/**
 * Follows one response's relay (SPEC §13) in a browser or in Node, driving `handler` through the
 * same viewer as `consumeStream(body, handler, { format: 'partstream' })` with one handler for
 * the whole response: a dropped connection (an error, the end of a body without its terminal, no
 * bytes for `idleTimeoutMs`) is made again with `Last-Event-ID` = the last sequence applied, after
 * an exponential backoff with jitter that starts from the server's `retry:`, or at once when a
 * hidden page becomes visible. Each event reaches the handler exactly once across reconnects. A
 * 4xx answer (404 unknown, 400) fails `http`; no new event for `reconnect.windowMs` fails
 * `network`; both keep the partial. `source` is the relay's URL, or a function that opens a
 * connection given the last sequence applied.
 */
export function followRelay(
  source: string | URL | ((lastEventId: string | null) => Promise<Response>),
  handler: StreamingChatResponseHandler,
  options: FollowRelayOptions = {},
): Promise<StreamOutcome> {
  if (options === null || typeof options !== 'object') throw new TypeError(`Expected followRelay options to be an object, got ${describeValue(options)}`);
  let connect: RelayConnector;
  if (typeof source === 'function') {
    connect = (lastEventId) => source(lastEventId);
  } else if (typeof source === 'string' || source instanceof URL) {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const url = String(source);
    connect = (lastEventId, signal) => {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...(options.headers ?? {}) };
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      return fetchImpl(url, { headers, signal });
    };
  } else {
    throw new TypeError(`Expected a relay URL or a function that opens a connection, got ${describeValue(source)}`);
  }
  const follower = new RelayFollower(connect, options.signal, options);
  const doc = (globalThis as { document?: { visibilityState?: string; addEventListener(type: string, listener: () => void): void; removeEventListener(type: string, listener: () => void): void } })
    .document;
  const onVisibility = (): void => {
    if (doc?.visibilityState === 'visible') follower.resume();
  };
  const watchVisibility = options.resumeWhenVisible !== false && doc !== undefined && typeof doc.addEventListener === 'function';
  if (watchVisibility) doc.addEventListener('visibilitychange', onVisibility);
  const outcome = consumeStream(follower, handler, { format: 'partstream', signal: options.signal, maxFrameBytes: options.maxFrameBytes });
  return outcome.finally(() => {
    if (watchVisibility) doc.removeEventListener('visibilitychange', onVisibility);
  });
}
