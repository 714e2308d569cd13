import { describeValue } from '../parts/describe-value';
import { parseSequence, PARTSTREAM_WIRE_HEADER } from '../providers/partstream/partstream-wire';
import { readLog } from './read-log';
import { RELAY_ID_PATTERN, type ResponseStore } from './response-store';

/** Options of `relay`. */
export interface RelayResponseOptions {
  /** The viewer's cursor: the last sequence it has (`Last-Event-ID`); taken from `request` when absent. */
  readonly lastEventId?: string | null | undefined;
  /** The incoming request, to read `Last-Event-ID` (header) or `?from=` from. */
  readonly request?: Request | undefined;
  /** Ends the response's body (the viewer went away): never stops the producer. */
  readonly signal?: AbortSignal | undefined;
  /** A `: ping` comment after this much silence (15 000 ms). */
  readonly heartbeatMs?: number | undefined;
  /** The reconnection delay the body's `retry:` field advises (1000 ms). */
  readonly retryMs?: number | undefined;
  /** See `ReadLogOptions.producerTimeoutMs` (5000 ms). */
  readonly producerTimeoutMs?: number | undefined;
}

/** The headers of a 200 relay response (SPEC §13). */
export const RELAY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  [PARTSTREAM_WIRE_HEADER]: '1',
});

function plain(status: number, text: string): Response {
  return new Response(status === 204 ? null : text, {
    status,
    headers: status === 204 ? { 'cache-control': 'no-store' } : { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** The cursor a request names: the explicit one, else `Last-Event-ID`, else `?from=`; undefined when none. */
function cursorText(options: RelayResponseOptions): string | null | undefined {
  if (options.lastEventId !== undefined && options.lastEventId !== null) return options.lastEventId;
  const request = options.request;
  if (request === undefined) return undefined;
  const header = request.headers.get('last-event-id');
  if (header !== null) return header;
  try {
    return new URL(request.url).searchParams.get('from') ?? undefined;
  } catch {
    return undefined;
  }
}

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`Expected ${name} to be a positive number, got ${describeValue(value)}`);
  return value;
}

/**
 * Serves one response's relay as a web `Response` (SPEC §13), for any fetch-style server:
 * **200** with events k+1 … terminal, where k is the cursor (`lastEventId`, else the request's
 * `Last-Event-ID`, else `?from=`; 0 when none), the body opening with `retry:` and `: open` and
 * a `: ping` after every `heartbeatMs` of silence; **204** when k is at or past the terminal's
 * sequence; **404** for an unknown or expired id (or one that cannot be an id); **400** for a
 * cursor that is not ASCII digits within 2⁵³−1, or that is past the log. A viewer that goes away
 * (the body cancelled, or `signal`) ends only its own read: never the producer.
 */
export async function relay(store: ResponseStore, responseId: string, options: RelayResponseOptions = {}): Promise<Response> {
  if (store === null || typeof store !== 'object' || typeof store.read !== 'function') throw new TypeError(`Expected a ResponseStore, got ${describeValue(store)}`);
  const heartbeatMs = positive(options.heartbeatMs, 'heartbeatMs', 15_000);
  const retryMs = positive(options.retryMs, 'retryMs', 1000);
  const producerTimeoutMs = positive(options.producerTimeoutMs, 'producerTimeoutMs', 5000);
  if (typeof responseId !== 'string' || !RELAY_ID_PATTERN.test(responseId)) return plain(404, 'Unknown response\n');
  const text = cursorText(options);
  const cursor = text === undefined || text === null ? 0 : parseSequence(text);
  if (cursor === null) return plain(400, 'Expected Last-Event-ID (or ?from=) to be a sequence: ASCII digits, at most 2^53-1\n');
  const info = await store.info(responseId);
  if (info === null) return plain(404, 'Unknown response\n');
  if (info.state === 'ended' && cursor >= info.last) return plain(204, '');
  if (cursor > info.last) return plain(400, `Expected a sequence of this response (at most ${info.last})\n`);

  const reading = new AbortController();
  const outer = options.signal;
  const onAbort = (): void => reading.abort();
  if (outer !== undefined) {
    if (outer.aborted) reading.abort();
    else outer.addEventListener('abort', onAbort, { once: true });
  }
  const encoder = new TextEncoder();
  const batches = readLog(store, responseId, cursor, reading.signal, { producerTimeoutMs });
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let quietSince = Date.now();
  const stop = (): void => {
    clearInterval(heartbeat);
    outer?.removeEventListener('abort', onAbort);
    reading.abort();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${retryMs}\n: open\n\n`));
      heartbeat = setInterval(
        () => {
          if (Date.now() - quietSince < heartbeatMs) return;
          quietSince = Date.now();
          try {
            controller.enqueue(encoder.encode(': ping\n\n'));
          } catch {
            stop();
          }
        },
        Math.max(1, Math.floor(heartbeatMs / 2)),
      );
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done === true) {
          stop();
          controller.close();
          return;
        }
        quietSince = Date.now();
        // A producer's batch carries its UTF-8: a copy of it (the store's stays as it is), else the text encoded.
        const bytes = next.value.bytes;
        controller.enqueue(bytes !== undefined ? bytes.slice() : encoder.encode(next.value.text));
        if (next.value.terminal) {
          stop();
          controller.close();
        }
      } catch (error) {
        stop();
        controller.error(error);
      }
    },
    cancel() {
      stop();
      void batches.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: RELAY_HEADERS });
}
