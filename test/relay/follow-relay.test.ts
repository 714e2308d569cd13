import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../lib/driver/stream-options';
import { followRelay } from '../../lib/relay/follow-relay';
import { memoryStore, type MemoryResponseStore } from '../../lib/relay/memory-store';
import { openRelay } from '../../lib/relay/open-relay';
import { relay } from '../../lib/relay/relay-response';
import { loggingHandler, type LoggedCallback } from './support/callback-log';
import { RICH_CHAT } from './support/producer';

/** Produces RICH_CHAT slowly (one SSE event per 2 ms) through a relay into `store`. */
async function slowProducer(store: MemoryResponseStore): Promise<{ id: string; produced: Promise<{ outcome: StreamOutcome; log: LoggedCallback[] }> }> {
  const relayed = await openRelay(store, { flushMs: 1, relayRawEvents: true });
  const pieces = new TextDecoder().decode(RICH_CHAT.bytes).split(/(?<=\n\n)/);
  async function* slow(): AsyncGenerator<string> {
    for (const piece of pieces) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      yield piece;
    }
  }
  const handler = loggingHandler();
  const produced = consumeStream(slow(), handler, { format: 'openai-chat', relay: relayed }).then((outcome) => ({ outcome, log: handler.log }));
  return { id: relayed.responseId, produced };
}

/** A relay server whose first `cuts` connections are killed after `cutAfter` bytes (mid-event), as a flaky network or a proxy would. */
async function flakyServer(store: MemoryResponseStore, id: string, options: { cuts: number; cutAfter: number; retryMs?: number }) {
  const cursors: (string | null)[] = [];
  const server: Server = createServer((req, res) => {
    const connection = cursors.length;
    const header = req.headers['last-event-id'];
    cursors.push(typeof header === 'string' ? header : null);
    const closed = new AbortController();
    res.on('close', () => closed.abort());
    void (async () => {
      const response = await relay(store, req.url === `/${id}` ? id : 'missing', { lastEventId: typeof header === 'string' ? header : null, signal: closed.signal, retryMs: options.retryMs ?? 1000 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return void res.end();
      let sent = 0;
      const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (connection < options.cuts && sent + value.length > options.cutAfter) {
          res.write(value.subarray(0, options.cutAfter - sent));
          await new Promise((resolve) => setTimeout(resolve, 5));
          res.destroy();
          await reader.cancel();
          return;
        }
        sent += value.length;
        res.write(value);
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, cursors, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

describe('followRelay', () => {
  it("reconnects after killed sockets with Last-Event-ID = the last applied sequence, one callback per event, the producer's final", async () => {
    const store = memoryStore();
    const { id, produced } = await slowProducer(store);
    const server = await flakyServer(store, id, { cuts: 4, cutAfter: 300 });
    try {
      const viewer = loggingHandler();
      const outcome = await followRelay(`${server.url}/${id}`, viewer, { reconnect: { initialMs: 5, maxMs: 20 } });
      const producer = await produced;
      expect(viewer.log).to.deep.equal(producer.log);
      expect(outcome).to.deep.equal(producer.outcome);
      expect(server.cursors.length).to.be.at.least(5);
      expect(server.cursors[0]).to.equal(null);
      for (const cursor of server.cursors.slice(1)) expect(cursor).to.match(/^\d+$/);
    } finally {
      await server.close();
    }
  });

  it("honours the server's retry: over its own initial backoff", async () => {
    const store = memoryStore();
    const { id, produced } = await slowProducer(store);
    const server = await flakyServer(store, id, { cuts: 2, cutAfter: 200, retryMs: 10 });
    try {
      const started = Date.now();
      const outcome = await followRelay(`${server.url}/${id}`, loggingHandler(), { reconnect: { initialMs: 20_000 } });
      expect(Date.now() - started).to.be.below(5000);
      expect(outcome).to.deep.equal((await produced).outcome);
    } finally {
      await server.close();
    }
  });

  it('reconnects at once when a hidden page becomes visible', async () => {
    const store = memoryStore();
    const { id, produced } = await slowProducer(store);
    const server = await flakyServer(store, id, { cuts: 1, cutAfter: 200, retryMs: 60_000 });
    const listeners = new Set<() => void>();
    const fakeDocument = { visibilityState: 'hidden', addEventListener: (_: string, l: () => void) => listeners.add(l), removeEventListener: (_: string, l: () => void) => listeners.delete(l) };
    (globalThis as { document?: unknown }).document = fakeDocument;
    try {
      const started = Date.now();
      const following = followRelay(`${server.url}/${id}`, loggingHandler(), { reconnect: { initialMs: 60_000, maxMs: 60_000 } });
      setTimeout(() => {
        fakeDocument.visibilityState = 'visible';
        for (const listener of listeners) listener();
      }, 100);
      const outcome = await following;
      expect(Date.now() - started).to.be.below(3000);
      expect(outcome).to.deep.equal((await produced).outcome);
      expect(listeners.size).to.equal(0);
    } finally {
      delete (globalThis as { document?: unknown }).document;
      await server.close();
    }
  });

  it('fails http for an unknown response (404), keeping what it had', async () => {
    const store = memoryStore();
    const server = await flakyServer(store, 'x', { cuts: 0, cutAfter: 0 });
    try {
      const viewer = loggingHandler();
      const outcome = await followRelay(`${server.url}/other`, viewer);
      expect(outcome.status).to.equal('failed');
      const error = (outcome as unknown as { error: Error & { kind: string; status: number } }).error;
      expect([error.kind, error.status]).to.deep.equal(['http', 404]);
    } finally {
      await server.close();
    }
  });

  it('takes a function that opens each connection from the last applied sequence', async () => {
    const store = memoryStore();
    const { id, produced } = await slowProducer(store);
    const asked: (string | null)[] = [];
    const viewer = loggingHandler();
    const outcome = await followRelay((lastEventId) => {
      asked.push(lastEventId);
      return relay(store, id, { lastEventId });
    }, viewer);
    expect(viewer.log).to.deep.equal((await produced).log);
    expect(outcome).to.deep.equal((await produced).outcome);
    expect(asked).to.deep.equal([null]);
  });
});
