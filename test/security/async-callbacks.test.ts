import { expect } from 'chai';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { SafeHandler } from '../../lib/driver/safe-handler';
import { StreamController } from '../../lib/driver/stream-controller';
import type { HandlerCallbackName, StreamingChatResponseHandler } from '../../lib/handler/types';
import { partialResponse } from '../../lib/handler/values';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatStreamEvent } from '../../lib/stream/chat-stream-events';
import { trackedSource } from '../support/chunk-sources';
import { TRANSCRIPTS } from '../support/transcripts';
import { ROOT, runIsolated } from './support/run-isolated';

// SPEC §1 "Async callbacks": a callback's promise is waited for before the next callback and
// before the source is read further; a rejection is reported exactly like a throw; no rejection
// ever becomes an unhandled rejection.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const CALLBACKS = ['onPartialResponse', 'onPartialThinking', 'onPartialToolCall', 'onCompleteToolCall', 'onUnmappedRawEvent', 'onCompleteResponse', 'onError'] as const;

/** One SSE frame per chunk: the source is read one frame at a time. */
function framesOf(body: string): string[] {
  return body.split(/(?<=\n\n)/);
}

/** A chat-completions body streaming `texts` as content deltas, then a stop. */
function openaiChatBody(texts: readonly string[]): string {
  const chunk = (delta: unknown, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return texts.map((text) => chunk({ content: text })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

/**
 * A handler whose every callback records itself and then fails: `throw`s, or returns a promise
 * that rejects after a timer. Errors are recorded as `[onError, callbackName, cause]`.
 */
function failingHandler(mode: 'throw' | 'reject'): { handler: StreamingChatResponseHandler; log: unknown[] } {
  const log: unknown[] = [];
  const fail = (name: HandlerCallbackName): void | Promise<void> => {
    const error = new Error(`${name} failed`);
    if (mode === 'throw') throw error;
    return sleep(1).then(() => Promise.reject(error));
  };
  const handler: StreamingChatResponseHandler = {
    onPartialResponse: (partial) => (log.push(['onPartialResponse', partial.text]), fail('onPartialResponse')),
    onPartialThinking: (partial) => (log.push(['onPartialThinking', partial.text]), fail('onPartialThinking')),
    onPartialToolCall: (partial) => (log.push(['onPartialToolCall', partial.partialArguments]), fail('onPartialToolCall')),
    onCompleteToolCall: (complete) => (log.push(['onCompleteToolCall', complete.toolExecutionRequest.arguments]), fail('onCompleteToolCall')),
    onUnmappedRawEvent: () => (log.push(['onUnmappedRawEvent']), fail('onUnmappedRawEvent')),
    onCompleteResponse: (response) => (log.push(['onCompleteResponse', response.aiMessage.text]), fail('onCompleteResponse')),
    onError: (error) => {
      log.push(HandlerCallbackError.isInstance(error) ? ['onError', error.callbackName, (error.cause as Error).message] : ['onError', error.message]);
      return fail('onError');
    },
  };
  return { handler, log };
}

/**
 * An Ollama body of two lines, each mapping to several callbacks at once: thinking, text and a
 * tool call; then text and the completion (the terminal callback comes from the same line).
 */
const OLLAMA_BODY =
  JSON.stringify({ model: 'm', message: { role: 'assistant', thinking: 'hmm', content: 'x', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] }, done: false }) +
  '\n' +
  JSON.stringify({ model: 'm', message: { role: 'assistant', content: 'y' }, done: true, done_reason: 'stop' }) +
  '\n';

/** A handler logging `start`/`end` around each callback; each waits `ms` in between (`hook` runs first). */
function slowHandler(ms: number, log: string[], hook: (what: string, cancel: () => void) => void = () => undefined): StreamingChatResponseHandler {
  const slow = async (what: string, cancel: () => void): Promise<void> => {
    log.push(`start ${what}`);
    hook(what, cancel);
    await sleep(ms);
    log.push(`end ${what}`);
  };
  return {
    onPartialThinking: (partial, context) => slow(`thinking ${partial.text}`, () => context.streamingHandle.cancel()),
    onPartialResponse: (partial, context) => slow(`text ${partial.text}`, () => context.streamingHandle.cancel()),
    onCompleteToolCall: (complete) => slow(`tool ${complete.toolExecutionRequest.name}`, () => undefined),
    onCompleteResponse: (response) => slow(`complete ${response.aiMessage.text ?? ''}`, () => undefined),
    onError: (error) => void log.push(`error ${error.message}`),
  };
}

async function play(format: WireFormat, handler: StreamingChatResponseHandler): Promise<StreamOutcome> {
  return consumeStream(trackedSource(framesOf(TRANSCRIPTS[format])), handler, { format });
}

describe('async callbacks (SPEC §1)', () => {
  describe('a rejecting callback', () => {
    for (const format of ['openai-chat', 'ollama'] as const) {
      it(`is reported exactly like a throw, for every kind of callback (${format})`, async () => {
        const throwing = failingHandler('throw');
        const rejecting = failingHandler('reject');
        const thrown = await play(format, throwing.handler);
        const rejected = await play(format, rejecting.handler);
        expect(rejected.status).to.equal('completed');
        expect(thrown.status).to.equal('completed');
        expect(rejecting.log).to.deep.equal(throwing.log);
      });
    }

    it('goes to onError as a HandlerCallbackError naming the callback, the stream goes on; onCompleteResponse once after it; a rejecting onError is swallowed', async () => {
      const { handler, log } = failingHandler('reject');
      const outcome = await play('openai-chat', handler);
      expect(outcome.status).to.equal('completed');
      expect(log).to.deep.equal([
        ['onUnmappedRawEvent'],
        ['onError', 'onUnmappedRawEvent', 'onUnmappedRawEvent failed'],
        ['onPartialResponse', 'Grüße, '],
        ['onError', 'onPartialResponse', 'onPartialResponse failed'],
        ['onPartialResponse', 'world 👋'],
        ['onError', 'onPartialResponse', 'onPartialResponse failed'],
        ['onUnmappedRawEvent'],
        ['onError', 'onUnmappedRawEvent', 'onUnmappedRawEvent failed'],
        ['onPartialToolCall', '{"city":'],
        ['onError', 'onPartialToolCall', 'onPartialToolCall failed'],
        ['onPartialToolCall', '"Zürich"}'],
        ['onError', 'onPartialToolCall', 'onPartialToolCall failed'],
        ['onCompleteToolCall', '{"city":"Zürich"}'],
        ['onError', 'onCompleteToolCall', 'onCompleteToolCall failed'],
        ['onUnmappedRawEvent'],
        ['onError', 'onUnmappedRawEvent', 'onUnmappedRawEvent failed'],
        ['onCompleteResponse', 'Grüße, world 👋'],
        ['onError', 'onCompleteResponse', 'onCompleteResponse failed'],
      ]);
    });

    it('never becomes an unhandled rejection: a process streaming through rejecting callbacks and listeners exits 0', async () => {
      const script = `
        const { consumeStream } = require(${JSON.stringify(ROOT + '/lib/driver/consume-stream')});
        const { ChatStream } = require(${JSON.stringify(ROOT + '/lib/stream/chat-stream')});
        const { TRANSCRIPTS } = require(${JSON.stringify(ROOT + '/test/support/transcripts')});
        const body = TRANSCRIPTS['openai-chat'];
        async function* source() { for (const frame of body.split(/(?<=\\n\\n)/)) yield frame; }
        const reject = async (what) => { await new Promise((r) => setTimeout(r, 1)); throw new Error(what); };
        const names = ${JSON.stringify(CALLBACKS)};
        async function main() {
          const handler = {};
          for (const name of names) handler[name] = () => reject(name);
          const first = await consumeStream(source(), handler, { format: 'openai-chat' });
          const stream = new ChatStream();
          for (const event of ['partialResponse', 'partialToolCall', 'completeToolCall', 'unmappedRawEvent', 'completeResponse', 'error']) {
            stream.on(event, () => reject(event));
          }
          const errors = [];
          stream.on('error', (e) => { errors.push(e.callbackName); });
          const second = await consumeStream(source(), stream, { format: 'openai-chat' });
          // Let any stray rejection surface before the verdict.
          await new Promise((r) => setTimeout(r, 50));
          console.log(JSON.stringify({ first: first.status, second: second.status, errors: errors.length }));
        }
        main();
      `;
      const run = await runIsolated(script, { timeoutMs: 30_000 });
      expect(run.stderr.toLowerCase()).to.not.include('unhandled');
      expect({ code: run.code, timedOut: run.timedOut }).to.deep.equal({ code: 0, timedOut: false });
      const verdict = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { first: string; second: string; errors: number };
      expect(verdict).to.deep.include({ first: 'completed', second: 'completed' });
      expect(verdict.errors).to.be.greaterThan(5);
    });
  });

  describe('ordering and backpressure', () => {
    it('finishes a 20 ms onPartialResponse before the next callback starts and before the next chunk is read', async () => {
      const log: string[] = [];
      const texts = ['a', 'b', 'c', 'd'];
      const frames = framesOf(openaiChatBody(texts));
      async function* source(): AsyncGenerator<string> {
        for (let i = 0; i < frames.length; i++) {
          log.push(`read ${i}`);
          yield frames[i] as string;
        }
      }
      const outcome = await consumeStream(
        source(),
        {
          async onPartialResponse(partial) {
            log.push(`start ${partial.text}`);
            await sleep(20);
            log.push(`end ${partial.text}`);
          },
          onCompleteResponse: () => void log.push('complete'),
          onError: (error) => void log.push(`error ${error.message}`),
        },
        { format: 'openai-chat' },
      );
      expect(outcome.status).to.equal('completed');
      expect(log).to.deep.equal(['read 0', 'start a', 'end a', 'read 1', 'start b', 'end b', 'read 2', 'start c', 'end c', 'read 3', 'start d', 'end d', 'read 4', 'read 5', 'complete']);
    });

    it('delivers the callbacks one event maps to one at a time, each after the previous promise settled', async () => {
      const log: string[] = [];
      const outcome = await consumeStream(trackedSource([OLLAMA_BODY]), slowHandler(5, log), { format: 'ollama' });
      expect(outcome.status).to.equal('completed');
      expect(log).to.deep.equal([
        'start thinking hmm',
        'end thinking hmm',
        'start text x',
        'end text x',
        'start tool f',
        'end tool f',
        'start text y',
        'end text y',
        'start complete xy',
        'end complete xy',
      ]);
    });

    it("settles consumeStream only after onCompleteResponse's promise settled", async () => {
      const log: string[] = [];
      const done = consumeStream(
        trackedSource(framesOf(TRANSCRIPTS.gemini)),
        {
          async onCompleteResponse() {
            log.push('complete start');
            await sleep(30);
            log.push('complete end');
          },
          onError: (error) => void log.push(`error ${error.message}`),
        },
        { format: 'gemini' },
      ).then((outcome) => log.push(`settled ${outcome.status}`));
      await done;
      expect(log).to.deep.equal(['complete start', 'complete end', 'settled completed']);
    });

    it("settles a failed stream only after onError's promise settled", async () => {
      const log: string[] = [];
      const outcome = await consumeStream(
        trackedSource(['data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'], { fail: new Error('reset') }),
        {
          async onError(error) {
            log.push(`error ${error.name}`);
            await sleep(20);
            log.push('error end');
          },
          onCompleteResponse: () => void log.push('complete'),
        },
        { format: 'openai-chat' },
      );
      log.push(`settled ${outcome.status}`);
      expect(log).to.deep.equal(['error StreamError', 'error end', 'settled failed']);
    });

    it('does not count the time spent in async callbacks against idleTimeoutMs', async () => {
      const outcome = await consumeStream(
        trackedSource(framesOf(openaiChatBody(['a', 'b']))),
        {
          onPartialResponse: () => sleep(200),
          onCompleteResponse() {},
          onError() {},
        },
        { format: 'openai-chat', idleTimeoutMs: 40 },
      );
      expect(outcome.status).to.equal('completed');
    });
  });

  describe('cancel from inside an async callback', () => {
    it('delivers nothing after it (the queued callbacks are dropped) and resolves cancelled', async () => {
      const log: string[] = [];
      // One chunk: every callback of the stream is produced at once and waits in the queue.
      const outcome = await consumeStream(
        trackedSource([openaiChatBody(['a', 'b', 'c', 'd'])]),
        {
          async onPartialResponse(partial, context) {
            log.push(partial.text);
            if (partial.text === 'b') context.streamingHandle.cancel();
            await sleep(10);
            log.push(`end ${partial.text}`);
          },
          onCompleteResponse: () => void log.push('complete'),
          onError: (error) => void log.push(`error ${error.message}`),
        },
        { format: 'openai-chat' },
      );
      expect(log).to.deep.equal(['a', 'end a', 'b', 'end b']);
      // The frames after the cancelling one were never mapped: the partial holds what the handler saw.
      expect(outcome.status === 'cancelled' && outcome.partial.aiMessage.text).to.equal('ab');
    });

    it('drops the callbacks queued behind it, from the same provider event', async () => {
      const log: string[] = [];
      const handler = slowHandler(10, log, (what, cancel) => {
        // Cancelled while the callback awaits: the text and tool call after it already wait in the queue.
        if (what === 'thinking hmm') setTimeout(cancel, 1);
      });
      const outcome = await consumeStream(trackedSource([OLLAMA_BODY]), handler, { format: 'ollama' });
      expect([outcome.status, log]).to.deep.equal(['cancelled', ['start thinking hmm', 'end thinking hmm']]);
    });

    it('drops a terminal callback still waiting in the queue: outcome cancelled, no onCompleteResponse', async () => {
      const log: string[] = [];
      const controller = new AbortController();
      const handler = slowHandler(10, log, (what) => {
        // The completion is queued behind this callback (same line); the cancel comes while it waits.
        if (what === 'text y') setTimeout(() => controller.abort(), 1);
      });
      const outcome = await consumeStream(trackedSource([OLLAMA_BODY]), handler, { format: 'ollama', signal: controller.signal });
      expect(outcome.status).to.equal('cancelled');
      expect(log.slice(-2)).to.deep.equal(['start text y', 'end text y']);
    });

    it('swallows the rejection of the callback that cancelled', async () => {
      const log: string[] = [];
      const outcome = await consumeStream(
        trackedSource([openaiChatBody(['a', 'b'])]),
        {
          async onPartialResponse(partial, context) {
            log.push(partial.text);
            context.streamingHandle.cancel();
            await sleep(1);
            throw new Error('after cancel');
          },
          onCompleteResponse: () => void log.push('complete'),
          onError: (error) => void log.push(`error ${error.message}`),
        },
        { format: 'openai-chat' },
      );
      expect([outcome.status, log]).to.deep.equal(['cancelled', ['a']]);
    });
  });

  describe('callback types', () => {
    it('accept a sync callback written as an expression (its value is ignored) beside async ones', async () => {
      const written: string[] = [];
      // Compiles: `push` returns a number, as `process.stdout.write` returns a boolean.
      const handler: StreamingChatResponseHandler = {
        onPartialResponse: (partial) => written.push(partial.text),
        async onCompleteResponse(response) {
          await sleep(1);
          written.push(`final ${response.aiMessage.text ?? ''}`);
        },
        onError: (error) => written.push(`error ${error.message}`),
      };
      const outcome = await consumeStream(trackedSource(framesOf(openaiChatBody(['a', 'b']))), handler, { format: 'openai-chat' });
      expect([outcome.status, written]).to.deep.equal(['completed', ['a', 'b', 'final ab']]);
    });
  });

  describe('SafeHandler with hostile results', () => {
    function setup(result: () => unknown) {
      const errors: string[] = [];
      const controller = new StreamController();
      const safe = new SafeHandler(
        {
          onPartialResponse: result as () => void,
          onCompleteResponse() {},
          onError: (error) => void errors.push(HandlerCallbackError.isInstance(error) ? `${error.callbackName}: ${String((error.cause as Error).message)}` : error.message),
        },
        controller,
      );
      return { safe, errors, context: { streamingHandle: controller } };
    }

    it('counts a `then` getter that throws as a throw of the callback', async () => {
      const { safe, errors, context } = setup(() => ({
        get then(): never {
          throw new Error('hostile then');
        },
      }));
      safe.onPartialResponse(partialResponse('a'), context);
      await safe.drained();
      expect(errors).to.deep.equal(['onPartialResponse: hostile then']);
    });

    it('settles once for a thenable that calls back twice, both ways, then throws', async () => {
      const { safe, errors, context } = setup(() => ({
        then(resolve: () => void, reject: (error: Error) => void) {
          setTimeout(() => {
            reject(new Error('first'));
            resolve();
            reject(new Error('second'));
          }, 1);
          throw new Error('after scheduling');
        },
      }));
      safe.onPartialResponse(partialResponse('a'), context);
      expect(safe.busy).to.equal(true);
      await safe.drained();
      expect(errors).to.deep.equal(['onPartialResponse: after scheduling']);
    });

    it('ignores a result that is not a thenable, and stays on the sync path for a sync handler', () => {
      const { safe, errors, context } = setup(() => ({ then: 42 }));
      safe.onPartialResponse(partialResponse('a'), context);
      expect([safe.busy, errors]).to.deep.equal([false, []]);
    });
  });

  // ChatStream takes async listeners (see its JSDoc), but EventEmitter3's listener type it reuses says `=> void`.
  /* eslint-disable @typescript-eslint/no-misused-promises */
  describe('ChatStream listeners', () => {
    it('return nothing from the handler methods when every listener is sync, and a promise when one is async', async () => {
      const stream = new ChatStream();
      const context = { streamingHandle: new StreamController() };
      stream.on('partialResponse', () => undefined);
      expect(stream.onPartialResponse(partialResponse('a'), context)).to.equal(undefined);
      stream.on('partialResponse', () => sleep(1));
      const waited = stream.onPartialResponse(partialResponse('b'), context);
      expect(waited).to.be.instanceOf(Promise);
      await waited;
    });

    it('hold the stream until every listener promise settled, before the next event and the next chunk', async () => {
      const log: string[] = [];
      const frames = framesOf(openaiChatBody(['a', 'b']));
      async function* source(): AsyncGenerator<string> {
        for (let i = 0; i < frames.length; i++) {
          log.push(`read ${i}`);
          yield frames[i] as string;
        }
      }
      const stream = new ChatStream();
      stream.on('partialResponse', async (partial) => {
        await sleep(15);
        log.push(`slow ${partial.text}`);
      });
      stream.on('partialResponse', async (partial) => {
        await sleep(1);
        log.push(`fast ${partial.text}`);
      });
      stream.on('completeResponse', () => void log.push('complete'));
      const outcome = await consumeStream(source(), stream, { format: 'openai-chat' });
      expect(outcome.status).to.equal('completed');
      expect(log).to.deep.equal(['read 0', 'fast a', 'slow a', 'read 1', 'fast b', 'slow b', 'read 2', 'read 3', 'complete']);
    });

    it('turn a rejection into one error event with a HandlerCallbackError; the stream, finalResponse() and the iterator go on', async () => {
      const stream = new ChatStream();
      const errors: unknown[] = [];
      stream.on('partialResponse', async (partial) => {
        await sleep(1);
        if (partial.text === 'b') throw new Error('listener rejected');
      });
      stream.on('error', (error) => void errors.push([error.name, (error as HandlerCallbackError).callbackName, (error.cause as Error).message]));
      const iterated: ChatStreamEvent[] = [];
      const loop = (async () => {
        for await (const event of stream) iterated.push(event);
      })();
      const outcome = await consumeStream(trackedSource(framesOf(openaiChatBody(['a', 'b', 'c']))), stream, { format: 'openai-chat' });
      await loop;
      expect(outcome.status).to.equal('completed');
      expect(errors).to.deep.equal([['HandlerCallbackError', 'onPartialResponse', 'listener rejected']]);
      expect((await stream.finalResponse()).aiMessage.text).to.equal('abc');
      expect(iterated.map((event) => event.type)).to.deep.equal(['partialResponse', 'partialResponse', 'error', 'partialResponse', 'unmappedRawEvent', 'completeResponse']);
    });

    it('report a rejecting completeResponse listener once after it, and swallow a rejecting error listener', async () => {
      const stream = new ChatStream();
      const seen: string[] = [];
      stream.on('completeResponse', async () => {
        seen.push('complete');
        await sleep(1);
        throw new Error('late');
      });
      stream.on('error', async (error) => {
        seen.push(`error ${(error as HandlerCallbackError).callbackName}`);
        await sleep(1);
        throw new Error('error listener rejected');
      });
      const outcome = await consumeStream(trackedSource(framesOf(TRANSCRIPTS.gemini)), stream, { format: 'gemini' });
      expect([outcome.status, seen]).to.deep.equal(['completed', ['complete', 'error onCompleteResponse']]);
    });

    it('end nothing after a cancel from inside an async listener: no more events, outcome cancelled', async () => {
      const stream = new ChatStream();
      const seen: string[] = [];
      stream.on('partialResponse', async (partial) => {
        seen.push(partial.text);
        stream.cancel();
        await sleep(5);
        throw new Error('after cancel');
      });
      stream.on('error', (error) => void seen.push(`error ${error.message}`));
      const outcome = await consumeStream(trackedSource([openaiChatBody(['a', 'b', 'c'])]), stream, { format: 'openai-chat' });
      expect([outcome.status, seen, stream.status]).to.deep.equal(['cancelled', ['a'], 'cancelled']);
      await stream.finalResponse().then(
        () => expect.fail('finalResponse resolved after a cancel'),
        (error: Error) => expect(error.name).to.equal('AbortError'),
      );
    });
  });
  /* eslint-enable @typescript-eslint/no-misused-promises */
});
