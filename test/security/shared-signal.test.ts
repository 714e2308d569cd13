import { expect } from 'chai';
import { getEventListeners, getMaxListeners } from 'node:events';
import type { StreamingHandle } from '../../lib/handler/types';
import { consumeStream, startStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import { openChunkReader } from '../../lib/transport/byte-source';
import { streamOpenAIChat } from '../../lib/clients/http-clients';
import { ChatStream } from '../../lib/stream/chat-stream';
import { trackedSource, type TrackedSource } from '../support/chunk-sources';
import { TEST_API_KEY } from '../support/http-clients';
import { recordingHandler } from '../support/recording-handler';

const STREAMS = 10_000;

const delta = (text: string): string => `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}}}]}\n\n`;
const finish = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** Collects the process warnings emitted while `run` goes on (they are emitted on a later tick). */
async function warningsDuring<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(`${warning.name}: ${warning.message}`);
  };
  process.on('warning', onWarning);
  try {
    const result = await run();
    await new Promise((resolve) => setImmediate(resolve));
    return { result, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

describe('Hostile input: many streams sharing one AbortSignal', () => {
  it(`runs ${STREAMS} open streams on one signal with no MaxListenersExceededWarning, one listener in all, and cancels them all when it aborts`, async () => {
    const shared = new AbortController();
    const signal = shared.signal;
    const maxListeners = getMaxListeners(signal);
    const sources: TrackedSource[] = [];
    let listenersWhileOpen = -1;
    const { result: outcomes, warnings } = await warningsDuring(async () => {
      const pending: Promise<StreamOutcome>[] = [];
      for (let i = 0; i < STREAMS; i++) {
        const source = trackedSource([delta('Hi')], { stall: true });
        sources.push(source);
        pending.push(consumeStream(source, recordingHandler(), { format: 'openai-chat', signal }));
      }
      // Let every stream read its first chunk and wait on the stalled second one.
      await new Promise((resolve) => setImmediate(resolve));
      listenersWhileOpen = abortListeners(signal);
      shared.abort(new Error('caller gave up'));
      return Promise.all(pending);
    });
    expect(warnings).to.deep.equal([]);
    expect(listenersWhileOpen, 'abort listeners on the shared signal while the streams are open').to.be.within(1, 2);
    expect(new Set(outcomes.map((outcome) => outcome.status))).to.deep.equal(new Set(['cancelled']));
    expect(
      outcomes.every((outcome) => outcome.status === 'cancelled' && outcome.partial.aiMessage.text === 'Hi'),
      'each partial kept',
    ).to.equal(true);
    expect(
      sources.every((source) => source.returned),
      'every source let go',
    ).to.equal(true);
    expect(abortListeners(signal), 'abort listeners left on the signal').to.equal(0);
    expect(getMaxListeners(signal), "the signal's own setting").to.equal(maxListeners);
  });

  it('removes every listener from a shared signal that never aborts once 500 streams on it completed', async () => {
    const signal = new AbortController().signal;
    const { result: outcomes, warnings } = await warningsDuring(() => {
      const pending: Promise<StreamOutcome>[] = [];
      for (let i = 0; i < 500; i++) pending.push(consumeStream(trackedSource([delta('Hi'), finish]), recordingHandler(), { format: 'openai-chat', signal }));
      return Promise.all(pending);
    });
    expect(warnings).to.deep.equal([]);
    expect(new Set(outcomes.map((outcome) => outcome.status))).to.deep.equal(new Set(['completed']));
    expect(abortListeners(signal)).to.equal(0);
  });

  it('cancels at once on an already-aborted signal, with no callback and no listener added', async () => {
    const signal = AbortSignal.abort(new Error('too late'));
    const pending: Promise<StreamOutcome>[] = [];
    const handlers = [];
    const sources: TrackedSource[] = [];
    for (let i = 0; i < 20; i++) {
      const handler = recordingHandler();
      const source = trackedSource([delta('Hi'), finish]);
      handlers.push(handler);
      sources.push(source);
      pending.push(consumeStream(source, handler, { format: 'openai-chat', signal }));
    }
    expect(abortListeners(signal)).to.equal(0);
    const outcomes = await Promise.all(pending);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(new Array(20).fill('cancelled'));
    expect(handlers.flatMap((handler) => handler.calls)).to.deep.equal([]);
    expect(sources.map((source) => source.pulled)).to.deep.equal(new Array(20).fill(0));
  });

  it("keeps each stream's own signals to a few listeners and removes them when it completes (the handle signal with a ChatStream on it, the transport signal)", async () => {
    const chat = new ChatStream();
    let handle: StreamingHandle | null = null;
    const bind = chat.bindStreamingHandle.bind(chat);
    chat.bindStreamingHandle = (bound) => {
      handle = bound;
      bind(bound);
    };
    let transport: AbortSignal | null = null;
    let during = { handle: -1, transport: -1 };
    // "Hi", then the end of the stream once `release` is called: the stream is open meanwhile.
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* source(): AsyncGenerator<string> {
      yield delta('Hi');
      await gate;
      yield finish;
    }
    const pending = startStream(
      (signal) => {
        transport = signal;
        return Promise.resolve(openChunkReader(source()));
      },
      chat,
      { format: 'openai-chat', signal: new AbortController().signal, idleTimeoutMs: 60_000, timeoutMs: 60_000 },
    );
    await new Promise((resolve) => setImmediate(resolve));
    const handleSignal = (handle as StreamingHandle | null)?.signal;
    const transportSignal = transport as AbortSignal | null;
    if (handleSignal === undefined || transportSignal === null) throw new Error('the stream bound no handle or opened no transport');
    during = { handle: abortListeners(handleSignal), transport: abortListeners(transportSignal) };
    release();
    expect((await pending).status).to.equal('completed');
    expect(during.handle, 'listeners on the handle signal while open').to.be.within(1, 3);
    expect(during.transport, 'listeners on the transport signal while open').to.be.at.most(1);
    expect({ handle: abortListeners(handleSignal), transport: abortListeners(transportSignal) }).to.deep.equal({ handle: 0, transport: 0 });
  });

  it("gives fetch a signal of each stream's own: 20 HTTP streams on one signal add one listener to it and no warning", async () => {
    const shared = new AbortController();
    const fetchSignals: (AbortSignal | null | undefined)[] = [];
    const stalledFetch: typeof fetch = (_url, init) => {
      fetchSignals.push(init?.signal);
      return Promise.resolve(new Response(new ReadableStream<Uint8Array>(), { headers: { 'content-type': 'text/event-stream' } }));
    };
    let during = -1;
    const { result: outcomes, warnings } = await warningsDuring(async () => {
      const pending: Promise<StreamOutcome>[] = [];
      for (let i = 0; i < 20; i++) pending.push(streamOpenAIChat({ model: 'gpt-test', messages: [] }, recordingHandler(), { fetch: stalledFetch, apiKey: TEST_API_KEY, signal: shared.signal }));
      await new Promise((resolve) => setImmediate(resolve));
      during = abortListeners(shared.signal);
      shared.abort();
      return Promise.all(pending);
    });
    expect(warnings).to.deep.equal([]);
    expect(fetchSignals).to.have.lengthOf(20);
    expect(
      fetchSignals.some((signal) => signal === shared.signal),
      'the shared signal itself went to fetch',
    ).to.equal(false);
    expect(during).to.be.within(1, 2);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(new Array(20).fill('cancelled'));
    expect(abortListeners(shared.signal)).to.equal(0);
  });
});
