import { relay, type RelayResponseOptions } from './relay-response';
import type { ResponseStore } from './response-store';

/** What `relayToNode` uses of a `node:http` request. */
export interface NodeRequestLike {
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** What `relayToNode` uses of a `node:http` response. */
export interface NodeResponseLike {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableNeedDrain: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders(): void;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  on(event: 'close', listener: () => void): unknown;
  once(event: 'drain' | 'close', listener: () => void): this;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * `relay` for a `node:http` server: the cursor from the request's `Last-Event-ID` header or its
 * `?from=` query (unless `options.lastEventId` gives one), the status and headers written and
 * flushed at once, the body streamed with backpressure, and the request's `close` ending only this
 * viewer's read. Resolves when the response ended.
 */
export async function relayToNode(store: ResponseStore, responseId: string, req: NodeRequestLike, res: NodeResponseLike, options: Omit<RelayResponseOptions, 'request'> = {}): Promise<void> {
  const closed = new AbortController();
  const onClose = (): void => closed.abort();
  res.on('close', onClose);
  const header = req.headers['last-event-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  let fromQuery: string | undefined;
  try {
    fromQuery = new URL(req.url ?? '/', 'http://relay.invalid').searchParams.get('from') ?? undefined;
  } catch {
    fromQuery = undefined;
  }
  const outer = options.signal;
  const signal = outer === undefined ? closed.signal : AbortSignal.any([closed.signal, outer]);
  try {
    const response = await relay(store, responseId, { ...options, lastEventId: options.lastEventId ?? fromHeader ?? fromQuery ?? null, signal });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    const body = response.body;
    if (body === null) {
      res.end();
      return;
    }
    // A Response's body is bytes; Node's typings leave its chunk type `any`.
    const reader = body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    closed.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await new Promise<void>((resolve) => (res.writableNeedDrain ? res.once('drain', resolve).once('close', resolve) : resolve()));
    }
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end();
  } finally {
    res.off('close', onClose);
  }
}
