import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { consumeStream } from '../../lib/driver/consume-stream';
import { streamAnthropic, streamOpenAIChat } from '../../lib/clients/http-clients';
import { DEFAULT_MAX_RETRIES, isRetryableResponse, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS, retryDelayMs } from '../../lib/clients/retry';
import { sleep } from '../../lib/transport/sleep';
import type { HttpStreamOutcome } from '../../lib/clients/stream-http';
import type { StreamError } from '../../lib/handler/stream-error';
import { trackedSource } from '../support/chunk-sources';
import { startLoopbackServer, type Reply } from '../support/loopback-server';
import { expectRejection } from '../support/rejection';
import { recordingHandler, type RecordingHandler } from '../support/recording-handler';
import { TRANSCRIPTS } from '../support/transcripts';
import { TEST_ENV_KEYS, withoutClientEnv } from './support/client-env';

const KEY = 'sk-retry-test-key-0123456789';
const CHAT = TRANSCRIPTS['openai-chat'];
const json = (status: number, message: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error: { message, type: 'test_error' } }),
});

interface Run {
  readonly handler: RecordingHandler;
  readonly outcome: HttpStreamOutcome;
  /** When each request reached the server (ms, monotonic). */
  readonly arrivals: readonly number[];
  readonly requests: number;
  readonly elapsedMs: number;
}

/** Streams an OpenAI chat from a loopback server whose n-th answer is `replies[n]` (the last one repeats). */
async function chatAgainst(replies: readonly Reply[], options: Parameters<typeof streamOpenAIChat>[2] = {}): Promise<Run> {
  const arrivals: number[] = [];
  const server = await startLoopbackServer((_request, index) => {
    arrivals.push(performance.now());
    return replies[Math.min(index, replies.length - 1)] as Reply;
  });
  try {
    const handler = recordingHandler();
    const started = performance.now();
    const outcome = await streamOpenAIChat({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] }, handler, { baseURL: `${server.url}/v1`, apiKey: KEY, ...options });
    const elapsedMs = performance.now() - started;
    await Promise.all(server.requests.map((request) => request.settled));
    return { handler, outcome, arrivals, requests: server.requests.length, elapsedMs };
  } finally {
    await server.close();
  }
}

/** A server that drops the connection of its first `drops` requests without answering, then streams `body`. */
async function droppingServer(drops: number, body: string): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    count++;
    request.resume();
    if (count <= drops) {
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function failure(run: Run): StreamError {
  expect(run.outcome.status).to.equal('failed');
  return (run.outcome as unknown as { error: StreamError }).error;
}

describe('HTTP client retries (maxRetries)', function () {
  this.timeout(30_000);
  withoutClientEnv(TEST_ENV_KEYS);
  let inMemory: RecordingHandler;

  before(async () => {
    inMemory = recordingHandler();
    await consumeStream(trackedSource([CHAT]), inMemory, { format: 'openai-chat' });
  });

  describe('retryDelayMs', () => {
    const headers = (init: Record<string, string>): Headers => new Headers(init);

    it('backs off 0.5 s × 2^n up to 8 s, as the official SDKs, less up to a quarter of jitter', () => {
      expect([0, 1, 2, 3, 4, 5, 9].map((retry) => retryDelayMs(null, retry, () => 0))).to.deep.equal([500, 1000, 2000, 4000, 8000, 8000, 8000]);
      expect([0, 1, 4].map((retry) => retryDelayMs(null, retry, () => 0.999999))).to.deep.equal([0.75, 1.5, 12].map((factor) => (factor * 500 * (1 - 0.999999 * 0.25)) / 0.75));
      expect(MAX_RETRY_DELAY_MS).to.equal(8000);
    });

    it('takes retry-after-ms first, then retry-after in seconds, then retry-after as an HTTP date', () => {
      const now = Date.parse('2025-01-01T00:00:00Z');
      expect(retryDelayMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), 0, () => 0, now)).to.equal(250);
      expect(retryDelayMs(headers({ 'retry-after': '2' }), 0, () => 0, now)).to.equal(2000);
      expect(retryDelayMs(headers({ 'retry-after': '0.5' }), 3, () => 0, now)).to.equal(500);
      expect(retryDelayMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), 0, () => 0, now)).to.equal(10_000);
    });

    it('caps what a hostile server asks for at 60 s, and takes a past date or a negative wait as none', () => {
      const now = Date.parse('2025-01-01T00:00:00Z');
      for (const init of <Record<string, string>[]>[
        { 'retry-after': '999999999' },
        { 'retry-after-ms': '1e400' },
        { 'retry-after-ms': 'Infinity' },
        { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' },
      ]) {
        expect(
          retryDelayMs(headers(init), 0, () => 0, now),
          JSON.stringify(init),
        ).to.equal(MAX_RETRY_AFTER_MS);
      }
      expect(MAX_RETRY_AFTER_MS).to.equal(60_000);
      expect(retryDelayMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), 0, () => 0, now)).to.equal(0);
      expect(retryDelayMs(headers({ 'retry-after-ms': '-5' }), 0, () => 0, now)).to.equal(0);
    });

    it('falls back to the backoff when the header is not a number nor a date', () => {
      for (const init of <Record<string, string>[]>[{ 'retry-after': 'soon' }, { 'retry-after-ms': 'NaN' }, { 'retry-after': '' }]) {
        expect(
          retryDelayMs(headers(init), 1, () => 0),
          JSON.stringify(init),
        ).to.equal(1000);
      }
    });
  });

  describe('isRetryableResponse', () => {
    it('retries 408, 409, 429 and 5xx; not other statuses; x-should-retry overrides', () => {
      const none = new Headers();
      expect([408, 409, 429, 500, 502, 503, 504, 529].filter((status) => isRetryableResponse(status, none))).to.have.length(8);
      expect([400, 401, 403, 404, 413, 422].filter((status) => isRetryableResponse(status, none))).to.deep.equal([]);
      expect(isRetryableResponse(503, new Headers({ 'x-should-retry': 'false' }))).to.equal(false);
      expect(isRetryableResponse(400, new Headers({ 'x-should-retry': 'true' }))).to.equal(true);
    });
  });

  describe('sleep', () => {
    it('ends early on abort and leaves no listener on the signal', async () => {
      const controller = new AbortController();
      const started = performance.now();
      const waiting = sleep(30_000, controller.signal);
      expect(getEventListeners(controller.signal, 'abort')).to.have.length(1);
      setTimeout(() => controller.abort(), 20);
      await waiting;
      expect(performance.now() - started).to.be.below(10_000);
      expect(getEventListeners(controller.signal, 'abort')).to.have.length(0);
      await sleep(1, new AbortController().signal);
    });
  });

  describe('over a loopback server', () => {
    it(`retries ${DEFAULT_MAX_RETRIES} times by default: a 429 then a 200 streams once, after the SDKs' backoff`, async () => {
      const run = await chatAgainst([json(429, 'Rate limit reached'), { body: CHAT }]);
      expect(run.requests).to.equal(2);
      expect(run.outcome.status).to.equal('completed');
      expect(run.handler.calls).to.deep.equal(inMemory.calls);
      expect(run.outcome.http?.status).to.equal(200);
      // 0.5 s less at most a quarter of jitter.
      expect((run.arrivals[1] as number) - (run.arrivals[0] as number)).to.be.at.least(370);
    });

    it('waits what a 503’s retry-after asks for (1 s) before retrying', async () => {
      const run = await chatAgainst([json(503, 'Overloaded', { 'retry-after': '1' }), { body: CHAT }]);
      expect([run.requests, run.outcome.status]).to.deep.equal([2, 'completed']);
      expect((run.arrivals[1] as number) - (run.arrivals[0] as number)).to.be.at.least(990);
    });

    for (const status of [408, 409, 429, 500, 502, 503, 504]) {
      it(`retries a ${status}`, async () => {
        const run = await chatAgainst([json(status, 'try again', { 'retry-after-ms': '1' }), { body: CHAT }]);
        expect([run.requests, run.outcome.status]).to.deep.equal([2, 'completed']);
      });
    }

    for (const status of [400, 401, 403, 404, 422]) {
      it(`does not retry a ${status}`, async () => {
        const run = await chatAgainst([json(status, 'no', { 'retry-after-ms': '1' }), { body: CHAT }]);
        expect([run.requests, failure(run).kind, failure(run).status]).to.deep.equal([1, 'http', status]);
      });
    }

    it('follows the server’s x-should-retry either way', async () => {
      const refused = await chatAgainst([json(503, 'do not', { 'x-should-retry': 'false' }), { body: CHAT }]);
      expect([refused.requests, failure(refused).status]).to.deep.equal([1, 503]);
      const asked = await chatAgainst([json(400, 'again', { 'x-should-retry': 'true', 'retry-after-ms': '1' }), { body: CHAT }]);
      expect([asked.requests, asked.outcome.status]).to.deep.equal([2, 'completed']);
    });

    it('sends the same request again: method, path, body and headers', async () => {
      const seen: { method: string; url: string; body: string; auth: unknown; agent: unknown }[] = [];
      const server = await startLoopbackServer((request, index) => {
        seen.push({ method: request.method, url: request.url, body: request.body, auth: request.headers.authorization, agent: request.headers['user-agent'] });
        return index === 0 ? json(500, 'oops', { 'retry-after-ms': '1' }) : { body: TRANSCRIPTS.anthropic };
      });
      try {
        const outcome = await streamAnthropic({ model: 'claude-test', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }, recordingHandler(), { baseURL: server.url, apiKey: KEY });
        expect(outcome.status).to.equal('completed');
        expect(seen).to.have.length(2);
        expect(seen[1]).to.deep.equal(seen[0]);
      } finally {
        await server.close();
      }
    });

    it('never retries once the body began: a connection reset after the first bytes fails the stream once', async () => {
      const cut = Buffer.byteLength(CHAT.slice(0, CHAT.indexOf('"\\"Zürich')));
      const run = await chatAgainst([{ body: CHAT, chunkSize: 64, sendBytes: cut, fault: 'reset' }, { body: CHAT }], { maxRetries: 5 });
      expect(run.requests).to.equal(1);
      expect(failure(run).kind).to.equal('network');
      expect(run.handler.calls.filter((call) => call.on === 'error')).to.have.length(1);
      const delivered = run.handler.calls.slice(0, -1);
      expect(delivered).to.deep.equal(inMemory.calls.slice(0, delivered.length));
      expect(delivered.some((call) => call.on === 'partialResponse')).to.equal(true);
      expect(run.outcome.http?.status).to.equal(200);
    });

    it('never retries a 200 whose body ends at once (no byte): the stream is truncated, not resent', async () => {
      const run = await chatAgainst([{ body: CHAT, sendBytes: 0 }, { body: CHAT }], { maxRetries: 5 });
      expect([run.requests, failure(run).kind]).to.deep.equal([1, 'truncated']);
    });

    it('does not retry with maxRetries: 0', async () => {
      const run = await chatAgainst([json(503, 'Overloaded', { 'retry-after-ms': '1' }), { body: CHAT }], { maxRetries: 0 });
      expect([run.requests, failure(run).kind, failure(run).status]).to.deep.equal([1, 'http', 503]);
    });

    it('reports the last error once retries are exhausted, with its status, body and http', async () => {
      const replies = [json(503, 'first', { 'retry-after-ms': '1' }), json(502, 'second', { 'retry-after-ms': '1' }), json(500, 'third', { 'retry-after-ms': '1', 'x-request-id': 'req_3' })];
      const run = await chatAgainst([...replies, { body: CHAT }]);
      expect(run.requests).to.equal(3);
      const error = failure(run);
      expect([error.kind, error.status, error.message]).to.deep.equal(['http', 500, 'HTTP 500 Internal Server Error from OpenAI Chat Completions: third']);
      expect(run.handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'http', message: error.message }]);
      expect([run.outcome.http?.status, run.outcome.http?.requestId]).to.deep.equal([500, 'req_3']);
    });

    it('retries a connection dropped before the response, then streams', async () => {
      const server = await droppingServer(1, CHAT);
      try {
        const handler = recordingHandler();
        const outcome = await streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { baseURL: server.url, apiKey: KEY });
        expect([server.count(), outcome.status]).to.deep.equal([2, 'completed']);
        expect(handler.calls).to.deep.equal(inMemory.calls);
      } finally {
        await server.close();
      }
    });

    it('reports the network error once connection retries are exhausted, without the key', async () => {
      const server = await droppingServer(10, CHAT);
      try {
        const handler = recordingHandler();
        const outcome = await streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { baseURL: server.url, apiKey: KEY, maxRetries: 1 });
        expect(server.count()).to.equal(2);
        expect(outcome.status).to.equal('failed');
        const error = (outcome as unknown as { error: StreamError }).error;
        expect(error.kind).to.equal('network');
        expect(outcome.http).to.equal(undefined);
        expect(JSON.stringify([error.message, error.stack, String(error.cause), (error.cause as Error | undefined)?.stack])).to.not.include(KEY);
      } finally {
        await server.close();
      }
    });

    it('ends a retry wait at cancel: cancelled, no second request', async () => {
      const controller = new AbortController();
      const server = await startLoopbackServer((_request, index) => (index === 0 ? json(429, 'wait', { 'retry-after': '30' }) : { body: CHAT }));
      try {
        const handler = recordingHandler();
        const started = performance.now();
        const pending = streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { baseURL: server.url, signal: controller.signal });
        while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        await server.requests[0]?.settled;
        setTimeout(() => controller.abort(), 50);
        const outcome = await pending;
        expect([outcome.status, handler.calls, server.requests.length]).to.deep.equal(['cancelled', [], 1]);
        expect(performance.now() - started).to.be.below(15_000);
        expect(outcome.http?.status).to.equal(429);
      } finally {
        await server.close();
      }
    });

    for (const [what, options] of [
      ['timeoutMs', { timeoutMs: 5000 }],
      ['idleTimeoutMs', { idleTimeoutMs: 5000 }],
    ] as const) {
      it(`does not start a retry wait that would outlast ${what}: the status is reported at once`, async () => {
        const run = await chatAgainst([json(429, 'Slow down', { 'retry-after': '30' }), { body: CHAT }], options);
        expect([run.requests, failure(run).kind, failure(run).status]).to.deep.equal([1, 'http', 429]);
        expect(run.elapsedMs).to.be.below(4500);
      });
    }

    it('does not start a wait a hostile retry-after asks for past the deadline', async () => {
      const run = await chatAgainst([json(503, 'Come back next year', { 'retry-after': '31536000' }), { body: CHAT }], { timeoutMs: 5000 });
      expect([run.requests, failure(run).status]).to.deep.equal([1, 503]);
    });

    it('rejects with a TypeError for a maxRetries that is not a whole number of at least 0', async () => {
      for (const bad of [-1, 1.5, '2', Infinity]) {
        await expectRejection(
          () => streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { maxRetries: bad as never }),
          TypeError,
          'Expected maxRetries to be a whole number of at least 0',
        );
      }
    });
  });
});
