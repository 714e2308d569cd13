/**
 * A Node `http` service that serves streamed responses through a relay (SPEC §13):
 *
 *   POST /responses              starts a response (here: a recorded-style transcript replayed at
 *                                a model's pace) and answers `{ "id": … }` at once
 *   GET  /responses/:id/events   the response's events (`partstream` SSE), resumable with
 *                                Last-Event-ID — a browser follows it with followRelay
 *   POST /responses/:id/stop     stops it, from whichever process gets the request
 *   GET  /                       a page that follows a response live, with a stop button
 *
 * The producer (the code that streams from the model) and the viewers never meet: they share the
 * store. memoryStore() serves one process; with REDIS_URL the store is Redis, and any number of
 * processes behind a load balancer serve any response (see main.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { consumeStream } from 'partstream';
import { openRelay, relayToNode, stopResponse, type ResponseStore } from 'partstream/relay';

/** Options of `startRelayService`. */
export interface RelayServiceOptions {
  /** Where the responses' events live (a memoryStore or a redisStore). */
  readonly store: ResponseStore;
  /** The port to listen on (0: any free port). */
  readonly port?: number;
  /** The pause between two transcript events, as a model would take (30 ms). */
  readonly paceMs?: number;
  /** The page's script, bundled for the browser (see main.ts). */
  readonly pageScript: string;
}

/** A running service. */
export interface RelayService {
  readonly url: string;
  /** Cuts every open events connection, as a proxy or a flaky network would (the viewers reconnect). */
  dropViewers(): number;
  close(): Promise<void>;
}

const here = __dirname;
const transcript = readFileSync(path.join(here, 'transcript.sse'), 'utf8');
const page = readFileSync(path.join(here, 'page.html'), 'utf8');
/** The transcript's events, each one SSE event with its blank line. */
const events = transcript.split(/(?<=\n\n)/).filter((event) => event.trim() !== '');

/** The transcript, one event every `paceMs`; closing it early (a stop) ends the wait at once. */
function pacedTranscript(paceMs: number): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]() {
      let next = 0;
      let wake: (() => void) | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      return {
        async next(): Promise<IteratorResult<string>> {
          if (next >= events.length) return { done: true, value: undefined };
          if (next > 0) await new Promise<void>((resolve) => ((wake = resolve), (timer = setTimeout(resolve, paceMs))));
          if (next >= events.length) return { done: true, value: undefined };
          return { done: false, value: events[next++] as string };
        },
        async return(): Promise<IteratorResult<string>> {
          next = events.length;
          clearTimeout(timer);
          wake?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Starts streaming one response into the store and returns its id without waiting for it. */
async function startResponse(store: ResponseStore, paceMs: number): Promise<string> {
  const relay = await openRelay(store);
  // A real service would call e.g. streamOpenAIChat(request, handler, { relay }) here.
  void consumeStream(pacedTranscript(paceMs), { onCompleteResponse() {}, onError() {} }, { format: 'openai-chat', relay });
  return relay.responseId;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Starts the service on 127.0.0.1. */
export async function startRelayService(options: RelayServiceOptions): Promise<RelayService> {
  const { store, pageScript } = options;
  const paceMs = options.paceMs ?? 30;
  const viewers = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = /^\/responses\/([A-Za-z0-9_.:-]{1,128})\/(events|stop)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    } else if (req.method === 'GET' && url.pathname === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(pageScript);
    } else if (req.method === 'POST' && url.pathname === '/responses') {
      json(res, 201, { id: await startResponse(store, paceMs) });
    } else if (req.method === 'GET' && route?.[2] === 'events') {
      const socket = req.socket;
      viewers.add(socket);
      socket.once('close', () => viewers.delete(socket));
      // Authorising who may see a response is the application's job; this example lets anyone.
      await relayToNode(store, route[1] as string, req, res, { heartbeatMs: 5000 });
    } else if (req.method === 'POST' && route?.[2] === 'stop') {
      json(res, 200, await stopResponse(store, route[1] as string, { by: 'user', reason: 'the stop button' }));
    } else {
      json(res, 404, { error: 'not found' });
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: error instanceof Error ? error.message : 'failed' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropViewers() {
      const count = viewers.size;
      for (const socket of viewers) socket.destroy();
      return count;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
