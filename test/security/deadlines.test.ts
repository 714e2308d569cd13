import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sinon from 'sinon';
import { consumeStream, startStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { ChunkReader } from '../../lib/transport/byte-source';
import { streamOpenAIChat } from '../../lib/clients/http-clients';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../lib/clients/stream-http';
import { StreamError } from '../../lib/handler/stream-error';
import { TEST_API_KEY, within } from '../support/http-clients';
import { startLoopbackServer } from '../support/loopback-server';
import { recordingHandler, type RecordingHandler } from '../support/recording-handler';

/** One OpenAI Chat Completions chunk carrying `text`. */
const delta = (text: string): string => `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}}}]}\n\n`;
const finish = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

const DEADLINE_MESSAGE = (ms: number): string => `The stream did not complete within its ${ms} ms deadline (timeoutMs)`;
const IDLE_MESSAGE = (ms: number): string => `No data arrived for ${ms} ms (idleTimeoutMs)`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function partialText(outcome: StreamOutcome): string | null {
  return outcome.status === 'completed' ? outcome.response.aiMessage.text : outcome.partial.aiMessage.text;
}

function errorsOf(handler: RecordingHandler): unknown[] {
  return handler.calls.filter((call) => call.on === 'error');
}

/** A source whose n-th read is `read(n)`; records whether the consumer let it go (called `return()`). */
function scripted(read: (n: number) => Promise<string>): AsyncIterable<string> & { readonly returned: boolean; readonly reads: number } {
  const state = { returned: false, reads: 0 };
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => ({ done: false as const, value: await read(state.reads++) }),
      return: () => {
        state.returned = true;
        return Promise.resolve({ done: true as const, value: undefined });
      },
    }),
    get returned() {
      return state.returned;
    },
    get reads() {
      return state.reads;
    },
  };
}

/** "Hello" at once, then `delta('.')` frames, one byte every `everyMs`, for as long as it is read. */
function trickle(everyMs: number): ReturnType<typeof scripted> {
  const dot = delta('.');
  return scripted(async (n) => {
    if (n === 0) return delta('Hello');
    await sleep(everyMs);
    return dot.charAt((n - 1) % dot.length);
  });
}

/** A server that accepts requests and never answers them (no status line, no headers). */
async function muteServer(): Promise<{ url: string; sockets: Socket[]; closed: Promise<void>[]; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const closed: Promise<void>[] = [];
  const server: Server = createServer(() => undefined);
  server.on('connection', (socket) => {
    sockets.push(socket);
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sockets,
    closed,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler whose every partial response keeps the thread busy (a slow synchronous callback). */
function busyHandler(busyMs: number): RecordingHandler {
  const handler = recordingHandler();
  const record = handler.onPartialResponse?.bind(handler);
  handler.onPartialResponse = (partial, context) => {
    record?.(partial, context);
    const until = Date.now() + busyMs;
    while (Date.now() < until) {
      // Busy on purpose: the event loop does not run meanwhile.
    }
  };
  return handler;
}

describe('Hostile input: deadlines', () => {
  describe('timeoutMs, a deadline for the whole stream', () => {
    it('ends a stream trickled one byte every 20 ms at its 300 ms deadline, keeping the partial response', async () => {
      const source = trickle(20);
      const handler = recordingHandler();
      const abort = new AbortController();
      const started = Date.now();
      const pending = consumeStream(source, handler, { format: 'openai-chat', timeoutMs: 300, idleTimeoutMs: 5000, signal: abort.signal });
      try {
        expect(await within(pending, 5000), 'the stream ended within 5 s').to.equal(true);
      } finally {
        abort.abort();
      }
      const outcome = await pending;
      const elapsed = Date.now() - started;
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: DEADLINE_MESSAGE(300) }]);
      expect(outcome.status).to.equal('failed');
      expect(outcome.status === 'failed' && StreamError.isInstance(outcome.error) && outcome.error.kind).to.equal('timeout');
      expect(partialText(outcome)).to.match(/^Hello\.*$/);
      expect(elapsed, 'not before the deadline').to.be.at.least(250);
      expect(source.reads, 'bytes kept trickling until the deadline').to.be.at.least(4);
      expect(source.returned, 'the source was let go').to.equal(true);
    });

    it('ends a slowloris HTTP response (one byte every 100 ms) at its deadline through streamOpenAIChat, and closes the connection', async () => {
      const head = delta('Hello');
      const body = head + delta('.').repeat(100) + finish;
      const server = await startLoopbackServer({ body, chunkSize: (chunk) => (chunk === 0 ? head.length : 1), delayMs: 100 });
      try {
        const handler = recordingHandler();
        const started = Date.now();
        const pending = streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { baseUrl: server.url, apiKey: TEST_API_KEY, timeoutMs: 500 });
        expect(await within(pending, 5000), 'the stream ended within 5 s').to.equal(true);
        const outcome = await pending;
        expect(Date.now() - started, 'not before the deadline').to.be.at.least(450);
        expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: DEADLINE_MESSAGE(500) }]);
        expect(outcome.status).to.equal('failed');
        expect(partialText(outcome)).to.match(/^Hello\.*$/);
        const request = server.requests[0];
        expect(request, 'one request').to.not.equal(undefined);
        expect(await within(request?.closed ?? Promise.resolve(), 5000), 'the server saw the connection close').to.equal(true);
        expect(request?.closedByClient, 'closed by the client, mid-body').to.equal(true);
      } finally {
        await server.close();
      }
    });

    it('aborts an HTTP request still waiting for its response headers at the deadline', async () => {
      const server = await muteServer();
      try {
        const handler = recordingHandler();
        const pending = streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { baseUrl: server.url, apiKey: TEST_API_KEY, timeoutMs: 300 });
        expect(await within(pending, 5000), 'the stream ended within 5 s').to.equal(true);
        const outcome = await pending;
        expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: DEADLINE_MESSAGE(300) }]);
        expect(outcome.status).to.equal('failed');
        expect(partialText(outcome)).to.equal(null);
        expect(server.closed, 'one connection').to.have.lengthOf(1);
        expect(await within(Promise.all(server.closed), 5000), 'the request was aborted').to.equal(true);
      } finally {
        await server.close();
      }
    });

    describe('on a fake clock', () => {
      let clock: sinon.SinonFakeTimers | null = null;
      afterEach(() => {
        clock?.restore();
        clock = null;
      });

      it('counts from the call: an open that never resolves ends at the deadline to the millisecond, and its signal is aborted', async () => {
        clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
        let openSignal: AbortSignal | null = null;
        const handler = recordingHandler();
        const pending = startStream(
          (signal) => {
            openSignal = signal;
            return new Promise<ChunkReader>(() => undefined);
          },
          handler,
          { format: 'openai-chat', timeoutMs: 5000 },
        );
        await clock.tickAsync(4999);
        expect(handler.calls, 'nothing before the deadline').to.deep.equal([]);
        await clock.tickAsync(1);
        const outcome = await pending;
        expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: DEADLINE_MESSAGE(5000) }]);
        expect(outcome.status).to.equal('failed');
        expect((openSignal as AbortSignal | null)?.aborted).to.equal(true);
        expect(clock.countTimers(), 'no timer left behind').to.equal(0);
      });
    });

    it('ends a stream whose reads never yield to the event loop, at the first read past the deadline', async () => {
      // The clock moves on by 100 ms per chunk while no timer can run (every read resolves in a
      // microtask): only the check made at each read can see the deadline pass.
      let time = 0;
      const now = sinon.stub(performance, 'now').callsFake(() => time);
      async function* instant(): AsyncGenerator<string> {
        for (let i = 0; i < 50; i++) {
          yield delta('x');
          time += 100;
        }
        yield finish;
      }
      const handler = recordingHandler();
      let outcome: StreamOutcome;
      try {
        outcome = await consumeStream(instant(), handler, { format: 'openai-chat', timeoutMs: 1000 });
      } finally {
        now.restore();
      }
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: DEADLINE_MESSAGE(1000) }]);
      expect(partialText(outcome)).to.equal('x'.repeat(10));
    });
  });

  describe('idleTimeoutMs', () => {
    it('does not count a slow synchronous callback as idle time (50 ms idle, 200 ms callbacks, prompt chunks)', async () => {
      async function* prompt(): AsyncGenerator<string> {
        for (const chunk of [delta('a'), delta('b'), delta('c'), finish]) {
          // Each chunk arrives on the next turn of the event loop, as network bytes would.
          await new Promise((resolve) => setImmediate(resolve));
          yield chunk;
        }
      }
      const handler = busyHandler(200);
      const outcome = await consumeStream(prompt(), handler, { format: 'openai-chat', idleTimeoutMs: 50 });
      expect(errorsOf(handler)).to.deep.equal([]);
      expect(outcome.status).to.equal('completed');
      expect(partialText(outcome)).to.equal('abc');
    });

    it('fails a transport whose open never resolves (before the headers) within idleTimeoutMs, and aborts it', async () => {
      let openSignal: AbortSignal | null = null;
      const handler = recordingHandler();
      const pending = startStream(
        (signal) => {
          openSignal = signal;
          return new Promise<ChunkReader>(() => undefined);
        },
        handler,
        { format: 'openai-chat', idleTimeoutMs: 100 },
      );
      expect(await within(pending, 5000), 'the stream ended within 5 s').to.equal(true);
      expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: IDLE_MESSAGE(100) }]);
      expect((await pending).status).to.equal('failed');
      expect((openSignal as AbortSignal | null)?.aborted).to.equal(true);
    });

    it('fails a reader that stops producing (after the headers) within idleTimeoutMs, even when the timer first fires between reads', async () => {
      // Chunks at 0 and 60 ms, then silence: the idle timer armed at the first read fires while
      // the second silent read has lasted only ~40 ms, and must still end that read on time.
      const source = scripted(async (n) => {
        if (n === 0) return delta('Hel');
        if (n === 1) {
          await sleep(60);
          return delta('lo');
        }
        return new Promise<string>(() => undefined);
      });
      const handler = recordingHandler();
      const pending = consumeStream(source, handler, { format: 'openai-chat', idleTimeoutMs: 100 });
      expect(await within(pending, 5000), 'the stream ended within 5 s').to.equal(true);
      const outcome = await pending;
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: IDLE_MESSAGE(100) }]);
      expect(partialText(outcome)).to.equal('Hello');
      expect(source.returned, 'the source was let go').to.equal(true);
    });

    it('arms a handful of timers, not one per read, for a stream of 2000 prompt chunks', async () => {
      async function* many(): AsyncGenerator<string> {
        for (let i = 0; i < 2000; i++) yield delta('x');
        yield finish;
      }
      const spy = sinon.spy(globalThis, 'setTimeout');
      let outcome: StreamOutcome;
      try {
        outcome = await consumeStream(many(), recordingHandler(), { format: 'openai-chat', idleTimeoutMs: 60_000, timeoutMs: 600_000 });
      } finally {
        spy.restore();
      }
      expect(outcome.status).to.equal('completed');
      expect(spy.callCount, 'setTimeout calls during the stream').to.be.at.most(4);
    });

    describe("the HTTP clients' default", () => {
      let clock: sinon.SinonFakeTimers | null = null;
      afterEach(() => {
        clock?.restore();
        clock = null;
      });

      it('is 300 000 ms (5 minutes): a request without response headers fails then, not before', async () => {
        expect(DEFAULT_IDLE_TIMEOUT_MS).to.equal(300_000);
        clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
        let fetchSignal: AbortSignal | null | undefined = null;
        const silentFetch: typeof fetch = (_url, init) => {
          fetchSignal = init?.signal;
          return new Promise<Response>(() => undefined);
        };
        const handler = recordingHandler();
        const pending = streamOpenAIChat({ model: 'gpt-test', messages: [] }, handler, { fetch: silentFetch, apiKey: TEST_API_KEY });
        await clock.tickAsync(299_999);
        expect(handler.calls, 'nothing before 5 minutes').to.deep.equal([]);
        await clock.tickAsync(1);
        const outcome = await pending;
        expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: IDLE_MESSAGE(300_000) }]);
        expect(outcome.status).to.equal('failed');
        expect((fetchSignal as AbortSignal | null | undefined)?.aborted).to.equal(true);
      });
    });
  });
});
