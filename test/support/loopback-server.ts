import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does after the bytes it sends (`sendBytes` of the body, or all of it). */
export type Fault =
  /** End the response normally (a stream cut short when `sendBytes` stops mid-frame). */
  | 'end'
  /** Reset the TCP connection (RST), as a crashed proxy or a dropped network would. */
  | 'reset'
  /** Send nothing more and keep the connection open until the client goes away or the server closes. */
  | 'stall';

/** How the server answers one request. */
export interface Reply {
  /** HTTP status (200). */
  readonly status?: number;
  /** Response headers (`content-type: text/event-stream` unless given). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body to replay. */
  readonly body?: string | Uint8Array;
  /**
   * Sizes of the chunks the body is written in: one size, a list used in turn, or a function of the
   * chunk number (e.g. seeded random sizes). The whole body at once by default.
   */
  readonly chunkSize?: number | readonly number[] | ((chunk: number) => number);
  /** Pause between chunks, in milliseconds (none by default). */
  readonly delayMs?: number;
  /** Send only this many bytes of the body, then apply `fault` (all of it by default). */
  readonly sendBytes?: number;
  /** What happens after the bytes sent ('end'). */
  readonly fault?: Fault;
}

/** A request the server received, and what became of its connection. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** True when the client closed the connection before the server had written all it meant to. */
  readonly closedByClient: boolean;
  /** Settles when the connection of this request has closed. */
  readonly closed: Promise<void>;
  /**
   * Settles when the server has written all it meant to, or when the connection closed before
   * that: after it, `closedByClient` is final (a stall waits for the connection to close).
   */
  readonly settled: Promise<void>;
}

/** A node:http server on 127.0.0.1 that replays replies; close it when done. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Closes the server and every connection still open. */
  close(): Promise<void>;
}

/** Options of `startLoopbackServer`. */
export interface LoopbackOptions {
  /** Requests beyond this many are answered 503 (10 by default), so a client loop cannot run away. */
  readonly maxRequests?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function chunkSizer(size: Reply['chunkSize']): (chunk: number) => number {
  if (size === undefined) return () => Number.MAX_SAFE_INTEGER;
  if (typeof size === 'number') return () => size;
  if (typeof size === 'function') return size;
  return (chunk) => size[chunk % size.length] as number;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function write(response: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    response.write(chunk, () => resolve());
  });
}

/**
 * Starts a loopback HTTP server (port 0) that answers each request with `reply` (or what
 * `reply(request, number)` returns): the status and headers, then the body in chunks of the given
 * sizes with the given pauses, then the fault. Records each request and whether the client closed
 * its connection early. The server does not keep the process alive; `close()` it in an `after` hook.
 */
export async function startLoopbackServer(
  reply: Reply | ((request: { method: string; url: string; headers: IncomingMessage['headers']; body: string }, index: number) => Reply),
  options: LoopbackOptions = {},
): Promise<LoopbackServer> {
  const maxRequests = options.maxRequests ?? 10;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let closing = false;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const index = requests.length;
    const body = await readBody(request);
    const seen = { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body };
    const state = { closedByClient: false, finished: false };
    const socket = request.socket;
    // A kept-alive connection serves many requests of one test, each listening for its close.
    if (socket.getMaxListeners() !== 0) socket.setMaxListeners(0);
    const closed = new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.once('close', () => resolve());
    });
    let markFinished = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      markFinished = () => {
        state.finished = true;
        resolve();
      };
    });
    const recorded: RecordedRequest = {
      ...seen,
      closed,
      settled: Promise.race([closed, finished]),
      get closedByClient() {
        return state.closedByClient;
      },
    };
    requests.push(recorded);
    socket.once('close', () => {
      if (!state.finished && !closing) state.closedByClient = true;
    });
    if (index >= maxRequests) {
      markFinished();
      response.writeHead(503, { 'content-type': 'text/plain' }).end('too many requests for this test server');
      return;
    }

    const plan = typeof reply === 'function' ? reply(seen, index) : reply;
    const bytes = typeof plan.body === 'string' ? Buffer.from(plan.body, 'utf8') : Buffer.from(plan.body ?? new Uint8Array());
    const limit = Math.min(plan.sendBytes ?? bytes.length, bytes.length);
    const sizeOf = chunkSizer(plan.chunkSize);
    response.writeHead(plan.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...plan.headers });
    response.flushHeaders();
    socket.setNoDelay(true);

    let offset = 0;
    for (let chunk = 0; offset < limit; chunk++) {
      if (socket.destroyed) return;
      const end = Math.min(limit, offset + Math.max(1, sizeOf(chunk)));
      await write(response, bytes.subarray(offset, end));
      offset = end;
      if (plan.delayMs !== undefined && plan.delayMs > 0 && offset < limit) await sleep(plan.delayMs);
    }
    if (socket.destroyed) return;
    switch (plan.fault ?? 'end') {
      case 'end':
        markFinished();
        response.end();
        return;
      case 'reset':
        markFinished();
        socket.resetAndDestroy();
        return;
      case 'stall':
        // Finished only when the server itself closes the connection (see close()).
        return;
    }
  }

  const server: Server = createServer((request, response) => {
    answer(request, response).catch(() => {
      request.socket.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
