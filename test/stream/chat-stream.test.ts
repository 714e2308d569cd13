import { expect } from 'chai';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import type { ChatResponseMetadata } from '../../lib/handler/types';
import { tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatStreamEvent, ChatStreamEventName } from '../../lib/stream/chat-stream-events';
import { CHAT_STREAM_EVENT_NAMES } from '../../lib/stream/chat-stream-events';
import { buildChain } from '../bridge/build-chain';

const metadata: Partial<ChatResponseMetadata> = { id: 'resp_1', modelName: 'm', tokenUsage: tokenUsage(3, 4), finishReason: 'TOOL_EXECUTION' };

/** Plays a short stream with every kind of callback through the chain. */
function play(chain: ReturnType<typeof buildChain>): void {
  chain.thinking('Plan.');
  chain.text('Hi');
  chain.raw({ event: 'ping', data: '{}' });
  chain.toolDelta(0, 'call_1', 'f', '{"x":1}');
  chain.toolComplete(0, 'call_1', 'f', '{"x":1}');
  chain.complete(metadata);
}

/** Records every event of a stream through its listeners, as `{type, …}` objects. */
function recordListeners(stream: ChatStream): ChatStreamEvent[] {
  const seen: ChatStreamEvent[] = [];
  stream.on('partialResponse', (partial, context) => seen.push({ type: 'partialResponse', partial, context }));
  stream.on('partialThinking', (partial, context) => seen.push({ type: 'partialThinking', partial, context }));
  stream.on('partialToolCall', (partial, context) => seen.push({ type: 'partialToolCall', partial, context }));
  stream.on('completeToolCall', (complete) => seen.push({ type: 'completeToolCall', complete }));
  stream.on('unmappedRawEvent', (rawEvent) => seen.push({ type: 'unmappedRawEvent', rawEvent }));
  stream.on('completeResponse', (response) => seen.push({ type: 'completeResponse', response }));
  stream.on('error', (error) => seen.push({ type: 'error', error }));
  return seen;
}

async function collect(stream: ChatStream): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function listenerCounts(stream: ChatStream): number[] {
  return CHAT_STREAM_EVENT_NAMES.map((name: ChatStreamEventName) => stream.listenerCount(name));
}

describe('ChatStream', () => {
  describe('as a handler', () => {
    it('emits each callback as its typed event, with the callback arguments', () => {
      const stream = new ChatStream();
      const seen = recordListeners(stream);
      const chain = buildChain(stream);
      play(chain);
      expect(seen.map((e) => e.type)).to.deep.equal(['partialThinking', 'partialResponse', 'unmappedRawEvent', 'partialToolCall', 'completeToolCall', 'completeResponse']);
      expect(seen[1]).to.deep.equal({ type: 'partialResponse', partial: { text: 'Hi' }, context: chain.context });
      expect(stream.status).to.equal('completed');
    });

    it('emits nothing after the terminal event', () => {
      const stream = new ChatStream();
      const seen = recordListeners(stream);
      // A handler method's promise never rejects (and no listener here is async): nothing to wait for.
      void stream.onError(new Error('stream died'));
      void stream.onPartialResponse({ text: 'late' }, { streamingHandle: { cancel() {}, isCancelled: () => false } });
      void stream.onCompleteResponse(buildChain(new ChatStream()).bridge.partialResponse());
      expect(seen.map((e) => e.type)).to.deep.equal(['error']);
      expect(stream.status).to.equal('failed');
    });
  });

  describe('listener isolation', () => {
    it('runs the other listeners when one throws, then emits one error event with a HandlerCallbackError', async () => {
      const stream = new ChatStream();
      const order: string[] = [];
      const cause = new Error('listener bug');
      stream.on('partialResponse', () => {
        order.push('first');
        throw cause;
      });
      stream.on('partialResponse', (partial) => order.push(`second:${partial.text}`));
      stream.on('error', (error) => order.push(`error:${error.name}:${(error as HandlerCallbackError).callbackName}:${(error.cause as Error).message}`));
      const chain = buildChain(stream);
      chain.text('a');
      chain.text('b');
      chain.complete(metadata);
      expect(order).to.deep.equal(['first', 'second:a', 'error:HandlerCallbackError:onPartialResponse:listener bug', 'first', 'second:b', 'error:HandlerCallbackError:onPartialResponse:listener bug']);
      expect((await stream.finalResponse()).aiMessage.text).to.equal('ab');
    });

    it('swallows a throwing error listener without another error event', () => {
      const stream = new ChatStream();
      let errorCalls = 0;
      stream.on('partialResponse', () => {
        throw new Error('bug');
      });
      stream.on('error', () => {
        errorCalls++;
        throw new Error('error listener bug');
      });
      const chain = buildChain(stream);
      chain.text('a');
      chain.complete(metadata);
      expect([errorCalls, stream.status]).to.deep.equal([1, 'completed']);
    });

    it('reports a throwing completeResponse listener as one error event after it', () => {
      const stream = new ChatStream();
      const seen: string[] = [];
      stream.on('completeResponse', () => {
        seen.push('complete');
        throw new Error('late bug');
      });
      stream.on('error', (error) => seen.push((error as HandlerCallbackError).callbackName));
      buildChain(stream).complete(metadata);
      expect(seen).to.deep.equal(['complete', 'onCompleteResponse']);
    });

    it('keeps once/off/listeners working on the listeners as added', () => {
      const stream = new ChatStream();
      const calls: string[] = [];
      const onceListener = (partial: { text: string }) => calls.push(`once:${partial.text}`);
      const removed = () => calls.push('removed');
      stream.once('partialResponse', onceListener);
      stream.on('partialResponse', removed);
      expect(stream.listeners('partialResponse')).to.deep.equal([onceListener, removed]);
      stream.off('partialResponse', removed);
      const chain = buildChain(stream);
      chain.text('a');
      chain.text('b');
      expect(calls).to.deep.equal(['once:a']);
      expect(stream.listenerCount('partialResponse')).to.equal(0);
    });
  });

  describe('for await', () => {
    it('yields the same sequence as the listeners, the terminal event included, then ends', async () => {
      const stream = new ChatStream();
      const fromListeners = recordListeners(stream);
      const iterated = collect(stream);
      play(buildChain(stream));
      expect(await iterated).to.deep.equal(fromListeners);
      expect(fromListeners.at(-1)?.type).to.equal('completeResponse');
    });

    it('ends after a stream error, yielding it; a HandlerCallbackError ends nothing', async () => {
      const stream = new ChatStream();
      const iterated = collect(stream);
      const chain = buildChain(stream);
      chain.text('a');
      void stream.onError(new HandlerCallbackError('onPartialResponse', new Error('x')));
      chain.text('b');
      chain.fail(new Error('connection reset'));
      const events = await iterated;
      expect(events.map((e) => (e.type === 'error' ? `error:${e.error.message}` : e.type))).to.deep.equal([
        'partialResponse',
        'error:Handler callback onPartialResponse threw: x',
        'partialResponse',
        'error:connection reset',
      ]);
    });

    it('cancels the stream and removes its listeners when the loop breaks', async () => {
      const stream = new ChatStream();
      const before = listenerCounts(stream);
      const chain = buildChain(stream);
      const seen: string[] = [];
      const loop = (async () => {
        for await (const event of stream) {
          if (event.type === 'partialResponse') seen.push(event.partial.text);
          if (seen.length === 2) break;
        }
      })();
      chain.text('a');
      chain.text('b');
      chain.text('c');
      await loop;
      chain.text('d');
      expect(seen).to.deep.equal(['a', 'b']);
      expect([chain.controller.isCancelled(), stream.status, chain.safe.state]).to.deep.equal([true, 'cancelled', 'cancelled']);
      expect(listenerCounts(stream)).to.deep.equal(before);
    });

    it('ends when the stream is cancelled through a context handle', async () => {
      const stream = new ChatStream();
      stream.on('partialResponse', (_partial, context) => context.streamingHandle.cancel());
      const iterated = collect(stream);
      const chain = buildChain(stream);
      chain.text('a');
      chain.text('b');
      expect((await iterated).map((e) => e.type)).to.deep.equal(['partialResponse']);
      expect(stream.status).to.equal('cancelled');
    });

    it('yields only the terminal event when started after the end', async () => {
      const stream = new ChatStream();
      play(buildChain(stream));
      const events = await collect(stream);
      expect(events).to.deep.equal([{ type: 'completeResponse', response: await stream.finalResponse() }]);
    });
  });

  describe('#finalResponse', () => {
    it("resolves to the bridge's final message", async () => {
      const stream = new ChatStream();
      const chain = buildChain(stream);
      play(chain);
      const final = await stream.finalResponse();
      expect(final).to.equal(chain.bridge.partialResponse());
      expect(final.aiMessage.parts).to.deep.equal([reasoningPart('Plan.'), textPart('Hi'), toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{"x":1}' })]);
      expect(final.metadata).to.deep.equal({ ...metadata, providerFinishReason: null, providerUsage: null, providerMetadata: null });
    });

    it('rejects with the stream error', async () => {
      const stream = new ChatStream();
      const failure = new Error('HTTP 429');
      buildChain(stream).fail(failure);
      const outcome = await stream.finalResponse().then(
        () => 'resolved',
        (error: unknown) => error,
      );
      expect(outcome).to.equal(failure);
    });

    it('never raises an unhandled rejection when nobody asked for the response', async () => {
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        buildChain(new ChatStream()).fail(new Error('nobody listens'));
        new ChatStream().cancel();
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('unhandledRejection', record);
      }
      expect(unhandled).to.deep.equal([]);
    });
  });

  describe('#cancel', () => {
    it('cancels before the first token: the driver finds the handle cancelled and nothing is emitted', async () => {
      const stream = new ChatStream();
      const seen = recordListeners(stream);
      stream.cancel();
      const chain = buildChain(stream);
      chain.text('a');
      chain.complete(metadata);
      expect([seen, chain.controller.isCancelled(), stream.status]).to.deep.equal([[], true, 'cancelled']);
      const error = await stream.finalResponse().catch((e: Error) => e);
      expect([(error as Error).name, (error as Error).message]).to.deep.equal(['AbortError', 'The stream was cancelled before it completed']);
    });

    it('is harmless when called twice, and after completion', async () => {
      const stream = new ChatStream();
      const chain = buildChain(stream);
      chain.text('a');
      stream.cancel();
      stream.cancel();
      expect(stream.status).to.equal('cancelled');

      const done = new ChatStream();
      play(buildChain(done));
      done.cancel();
      expect(done.status).to.equal('completed');
      expect((await done.finalResponse()).aiMessage.text).to.equal('Hi');
    });

    it('follows an AbortSignal that was aborted before the first token', () => {
      const stream = new ChatStream();
      const seen = recordListeners(stream);
      const chain = buildChain(stream, AbortSignal.abort());
      chain.text('a');
      expect([seen, stream.status]).to.deep.equal([[], 'cancelled']);
    });
  });
});
