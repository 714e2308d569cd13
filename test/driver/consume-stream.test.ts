import { bodyFormatNamed, PROVIDERS } from '../../lib/providers/registry';
import type { AnyProviderDescriptor } from '../../lib/providers/provider-descriptor';
import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import sinon from 'sinon';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../lib/handler/values';
import { textPart } from '../../lib/parts/factories';
import { consumeStream, startStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import { openChunkReader, type StreamSource } from '../../lib/transport/byte-source';
import { StreamError } from '../../lib/handler/stream-error';
import type { MapperTarget, StreamMapper } from '../../lib/providers/stream-mapper';
import type { SseFrame } from '../../lib/wire/types';
import type { WireFormat } from '../../lib/providers/registry';
import { trackedSource } from '../support/chunk-sources';
import { recordingHandler, type RecordingHandler } from '../support/recording-handler';
import { expectRejection } from '../support/rejection';

/**
 * A tiny mapper: `{"text"}` → partial response, `{"stop": true}` ends the stream (terminal event),
 * `{"error"}` → onError; anything else maps nothing. `end` completes after a stop, else fails.
 */
class TinyMapper implements StreamMapper<unknown> {
  readonly framing = 'ndjson' as const;
  readonly ends: boolean[] = [];
  readonly seen: unknown[] = [];
  private stopped = false;

  constructor(private readonly fromSse: boolean) {}

  map(event: unknown, target: MapperTarget): boolean {
    this.seen.push(event);
    let value: unknown = event;
    if (this.fromSse) {
      try {
        value = JSON.parse((event as SseFrame).data);
      } catch {
        return false;
      }
    }
    const object = (typeof value === 'object' && value !== null ? value : {}) as { text?: string; stop?: boolean; error?: string; throws?: string };
    if (object.throws !== undefined) throw new Error(object.throws);
    if (typeof object.text === 'string') {
      target.handler.onPartialResponse?.(partialResponse(object.text), { streamingHandle: target.handle });
      return false;
    }
    if (object.stop === true) {
      this.stopped = true;
      return true;
    }
    if (typeof object.error === 'string') {
      target.handler.onError(new StreamError('provider', object.error));
      return true;
    }
    return false;
  }

  end(target: MapperTarget, truncatedFrame: boolean): void {
    this.ends.push(truncatedFrame);
    if (this.stopped) {
      target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ id: 'resp-1', finishReason: 'STOP' })));
    } else {
      target.handler.onError(new StreamError('truncated', truncatedFrame ? 'ended mid-frame' : 'ended before stop'));
    }
  }
}

function drive(
  source: StreamSource,
  handler: RecordingHandler,
  options: { format?: WireFormat | 'auto'; mapper?: StreamMapper<unknown>; signal?: AbortSignal; idleTimeoutMs?: number } = {},
): Promise<StreamOutcome> {
  const format = options.format ?? 'openai-chat';
  const mapper = options.mapper ?? new TinyMapper(format !== 'ollama');
  // partstream's own descriptors with this test's mapper: `auto` tries them first.
  const withMapper = (descriptor: AnyProviderDescriptor): AnyProviderDescriptor => ({ ...descriptor, createMapper: () => mapper });
  const formats = format === 'auto' ? { format: 'auto' as const, providers: PROVIDERS.map(withMapper) } : { format: withMapper(bodyFormatNamed(format) as AnyProviderDescriptor) };
  return startStream(() => Promise.resolve(openChunkReader(source)), handler, {
    ...formats,
    signal: options.signal,
    idleTimeoutMs: options.idleTimeoutMs,
  });
}

function partialText(outcome: StreamOutcome): string | null {
  return outcome.status === 'completed' ? outcome.response.aiMessage.text : outcome.partial.aiMessage.text;
}

const hello = 'data: {"text":"Hel"}\n\ndata: {"text":"lo"}\n\n';

describe('consumeStream', () => {
  describe('one event at a time', () => {
    it('maps each event and surfaces the untouched SSE event when nothing typed fired', async () => {
      const handler = recordingHandler();
      const source = trackedSource([': keep-alive\n\n', 'event: meta\ndata:  {"id": 1} \n\n', hello, 'data:\n\n', 'data: {"stop":true}\n\n']);
      const outcome = await drive(source, handler);
      expect(handler.calls).to.deep.equal([
        { on: 'unmappedRawEvent', raw: { event: 'meta', data: ' {"id": 1} ' } },
        { on: 'partialResponse', text: 'Hel' },
        { on: 'partialResponse', text: 'lo' },
        { on: 'unmappedRawEvent', raw: { event: null, data: '{"stop":true}' } },
        { on: 'completeResponse', text: 'Hello', thinking: null },
      ]);
      expect(outcome).to.deep.equal({ status: 'completed', response: handler.responses[0] });
      expect(handler.responses[0]?.aiMessage.parts.map((part) => part.type)).to.deep.equal(['text']);
    });

    it('surfaces a parsed NDJSON line raw, and the text of a line that is not JSON', async () => {
      const handler = recordingHandler();
      const mapper = new TinyMapper(false);
      await drive(trackedSource(['{"text":"Hi"}\n{"model":"m"}\nnot json\nnull\n{"stop":true}\n']), handler, { format: 'ollama', mapper });
      expect(handler.calls).to.deep.equal([
        { on: 'partialResponse', text: 'Hi' },
        { on: 'unmappedRawEvent', raw: { model: 'm' } },
        { on: 'unmappedRawEvent', raw: 'not json' },
        { on: 'unmappedRawEvent', raw: 'null' },
        { on: 'unmappedRawEvent', raw: { stop: true } },
        { on: 'completeResponse', text: 'Hi', thinking: null },
      ]);
      expect(mapper.seen).to.deep.equal([{ text: 'Hi' }, { model: 'm' }, null, { stop: true }]);
    });

    it('hands the [DONE] sentinel to the mapper but never surfaces it, and stops there', async () => {
      const handler = recordingHandler();
      const mapper = new TinyMapper(true);
      const source = trackedSource([hello, 'data: [DONE]\n\n', 'data: {"text":"late"}\n\n']);
      await drive(source, handler, { mapper });
      expect(mapper.seen).to.deep.equal([
        { event: null, data: '{"text":"Hel"}' },
        { event: null, data: '{"text":"lo"}' },
        { event: null, data: '[DONE]' },
      ]);
      expect(handler.calls.map((call) => call.on)).to.deep.equal(['partialResponse', 'partialResponse', 'error']);
      expect(mapper.ends).to.deep.equal([false]);
    });

    it('stops reading at the terminal event and lets the source go', async () => {
      const handler = recordingHandler();
      const mapper = new TinyMapper(true);
      const source = trackedSource(['data: {"stop":true}\n\ndata: {"text":"after"}\n\n', 'data: {"text":"more"}\n\n']);
      const outcome = await drive(source, handler, { mapper });
      expect(outcome.status).to.equal('completed');
      expect(mapper.seen).to.have.length(1);
      expect([source.pulled, source.returned]).to.deep.equal([1, true]);
    });

    it('stops reading once a terminal callback happened', async () => {
      const handler = recordingHandler();
      const mapper = new TinyMapper(true);
      const outcome = await drive(trackedSource(['data: {"error":"overloaded"}\n\ndata: {"text":"after"}\n\n']), handler, { mapper });
      expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'provider', message: 'overloaded' }]);
      expect(outcome).to.deep.include({ status: 'failed', error: handler.errors[0] });
    });
  });

  describe('end of the source', () => {
    it('calls end without truncation when the source ended between frames', async () => {
      const mapper = new TinyMapper(true);
      const handler = recordingHandler();
      const outcome = await drive(trackedSource([hello]), handler, { mapper });
      expect(mapper.ends).to.deep.equal([false]);
      expect(outcome.status).to.equal('failed');
      expect(handler.calls.at(-1)).to.deep.equal({ on: 'error', name: 'StreamError', kind: 'truncated', message: 'ended before stop' });
    });

    it('tells end the source ended mid-frame and keeps what was received', async () => {
      const mapper = new TinyMapper(true);
      const handler = recordingHandler();
      const outcome = await drive(trackedSource([hello, 'data: {"te']), handler, { mapper });
      expect(mapper.ends).to.deep.equal([true]);
      expect(outcome.status).to.equal('failed');
      expect(partialText(outcome)).to.equal('Hello');
    });

    it('ends with a truncated error when the mapper reports no terminal callback', async () => {
      const silent: StreamMapper<unknown> = { framing: 'ndjson', map: () => false, end: () => undefined };
      const handler = recordingHandler();
      const outcome = await drive(trackedSource([hello]), handler, { mapper: silent });
      expect(handler.calls).to.deep.equal([
        { on: 'unmappedRawEvent', raw: { event: null, data: '{"text":"Hel"}' } },
        { on: 'unmappedRawEvent', raw: { event: null, data: '{"text":"lo"}' } },
        { on: 'error', name: 'StreamError', kind: 'truncated', message: 'The stream ended without a complete response' },
      ]);
      expect(outcome.status).to.equal('failed');
    });

    it('turns a mapper that throws into one malformed error naming the frame', async () => {
      const handler = recordingHandler();
      const outcome = await drive(trackedSource(['data: {"throws":"boom"}\n\n', hello]), handler);
      expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'malformed', message: 'A frame could not be mapped: boom' }]);
      expect((handler.errors[0] as StreamError).frame).to.equal('{"throws":"boom"}');
      expect(outcome.status).to.equal('failed');
    });
  });

  describe('source failures', () => {
    it('reports a failing source once as a network error and keeps the partial response', async () => {
      const handler = recordingHandler();
      const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      const mapper = new TinyMapper(true);
      const outcome = await drive(trackedSource([hello], { fail: reset }), handler, { mapper });
      expect(handler.calls).to.deep.equal([
        { on: 'partialResponse', text: 'Hel' },
        { on: 'partialResponse', text: 'lo' },
        { on: 'error', name: 'StreamError', kind: 'network', message: 'The connection failed while reading the stream: read ECONNRESET' },
      ]);
      expect((handler.errors[0] as StreamError).cause).to.equal(reset);
      expect(mapper.ends).to.deep.equal([]);
      expect(outcome).to.deep.include({ status: 'failed', error: handler.errors[0] });
      expect(partialText(outcome)).to.equal('Hello');
    });

    it('reports a chunk that is neither bytes nor text as a format error', async () => {
      const handler = recordingHandler();
      const outcome = await drive(trackedSource([42 as unknown as string]), handler);
      expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'format', message: 'Expected a Uint8Array or string chunk, got number 42' }]);
      expect(outcome.status).to.equal('failed');
    });

    it('fails with a timeout when no bytes arrive within idleTimeoutMs, and lets the source go', async () => {
      const clock = sinon.useFakeTimers();
      try {
        const handler = recordingHandler();
        const source = trackedSource([hello], { stall: true });
        const pending = drive(source, handler, { idleTimeoutMs: 5000 });
        await clock.tickAsync(4999);
        expect(handler.calls.map((call) => call.on)).to.deep.equal(['partialResponse', 'partialResponse']);
        await clock.tickAsync(1);
        const outcome = await pending;
        expect(handler.calls.at(-1)).to.deep.equal({ on: 'error', name: 'StreamError', kind: 'timeout', message: 'No data arrived for 5000 ms (idleTimeoutMs)' });
        expect(outcome.status).to.equal('failed');
        expect(partialText(outcome)).to.equal('Hello');
        expect(source.returned).to.equal(true);
      } finally {
        clock.restore();
      }
    });

    it('restarts the idle timeout whenever bytes arrive', async () => {
      const clock = sinon.useFakeTimers();
      try {
        async function* slow(): AsyncGenerator<string> {
          for (const chunk of ['data: {"text":"a"}\n\n', 'data: {"text":"b"}\n\n', 'data: {"stop":true}\n\n']) {
            await new Promise((resolve) => setTimeout(resolve, 3000));
            yield chunk;
          }
        }
        const pending = drive(slow(), recordingHandler(), { idleTimeoutMs: 5000 });
        await clock.tickAsync(9000);
        expect((await pending).status).to.equal('completed');
      } finally {
        clock.restore();
      }
    });
  });

  describe('cancel', () => {
    it('delivers nothing after a cancel from a callback and resolves cancelled with the partial response', async () => {
      const handler = recordingHandler({
        afterEach: (call, self) => {
          if (call.on === 'partialResponse' && call.text === 'lo') self.handle?.cancel();
        },
      });
      const source = trackedSource([hello, 'data: {"text":"!"}\n\n', 'data: {"stop":true}\n\n']);
      const mapper = new TinyMapper(true);
      const outcome = await drive(source, handler, { mapper });
      expect(handler.calls.map((call) => call.on)).to.deep.equal(['partialResponse', 'partialResponse']);
      expect(outcome.status).to.equal('cancelled');
      expect(partialText(outcome)).to.equal('Hello');
      expect(mapper.ends).to.deep.equal([]);
      expect(source.returned).to.equal(true);
    });

    it('resolves cancelled while a read is pending and lets the source go', async () => {
      const handler = recordingHandler();
      const controller = new AbortController();
      const source = trackedSource([hello], { stall: true });
      const pending = drive(source, handler, { signal: controller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      const outcome = await pending;
      expect(outcome.status).to.equal('cancelled');
      expect(partialText(outcome)).to.equal('Hello');
      expect(handler.calls.map((call) => call.on)).to.deep.equal(['partialResponse', 'partialResponse']);
      expect(source.returned).to.equal(true);
    });

    /** A source whose second read waits until the test settles it, with data or with a failure. */
    function heldSource(): { source: AsyncIterable<string>; settle(outcome: { data: string } | { error: Error }): void } {
      let settle: (outcome: { data: string } | { error: Error }) => void = () => undefined;
      let reads = 0;
      const source: AsyncIterable<string> = {
        [Symbol.asyncIterator]: () => ({
          next: (): Promise<IteratorResult<string>> => {
            reads++;
            if (reads === 1) return Promise.resolve({ done: false, value: hello });
            return new Promise((resolve, reject) => {
              settle = (outcome) => ('error' in outcome ? reject(outcome.error) : resolve({ done: false, value: outcome.data }));
            });
          },
          return: () => Promise.resolve({ done: true, value: undefined }),
        }),
      };
      return { source, settle: (outcome) => settle(outcome) };
    }

    for (const late of [{ data: 'data: {"text":"late"}\n\ndata: {"stop":true}\n\n' }, { error: new Error('connection reset after the cancel') }]) {
      it(`delivers and reports nothing when a read pending at the cancel settles afterwards (${'data' in late ? 'with data' : 'with a failure'})`, async () => {
        const handler = recordingHandler();
        const controller = new AbortController();
        const held = heldSource();
        const unhandled = sinon.spy();
        process.on('unhandledRejection', unhandled);
        try {
          const mapper = new TinyMapper(true);
          const pending = drive(held.source, handler, { signal: controller.signal, mapper });
          await new Promise((resolve) => setImmediate(resolve));
          controller.abort();
          const outcome = await pending;
          expect(outcome.status).to.equal('cancelled');
          held.settle(late);
          await new Promise((resolve) => setImmediate(resolve));
          await new Promise((resolve) => setImmediate(resolve));
          expect(handler.calls.map((call) => call.on)).to.deep.equal(['partialResponse', 'partialResponse']);
          expect(mapper.seen, 'the mapper sees nothing after the cancel').to.have.length(2);
          expect(unhandled.called, 'no unhandled rejection').to.equal(false);
        } finally {
          process.off('unhandledRejection', unhandled);
        }
      });
    }

    it('delivers nothing when a read pending at an idle timeout settles afterwards', async () => {
      const handler = recordingHandler();
      const held = heldSource();
      const mapper = new TinyMapper(true);
      const outcome = await drive(held.source, handler, { idleTimeoutMs: 20, mapper });
      expect(outcome.status).to.equal('failed');
      held.settle({ data: 'data: {"text":"late"}\n\ndata: {"stop":true}\n\n' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(mapper.seen, 'the mapper sees nothing after the timeout').to.have.length(2);
      expect(handler.calls.map((call) => (call.on === 'error' ? `error ${(call as { kind?: string }).kind ?? ''}` : call.on))).to.deep.equal(['partialResponse', 'partialResponse', 'error timeout']);
    });

    it('reads nothing when the signal is aborted before the start', async () => {
      const handler = recordingHandler();
      const source = trackedSource([hello]);
      const outcome = await consumeStream(source, handler, { format: 'openai-chat', signal: AbortSignal.abort() });
      expect(handler.calls).to.deep.equal([]);
      expect(outcome).to.deep.equal({ status: 'cancelled', partial: outcome.status === 'cancelled' ? outcome.partial : null });
      expect(partialText(outcome)).to.equal(null);
      expect([source.pulled, source.returned]).to.deep.equal([0, true]);
    });

    it('binds the handle before the first event so a handler can cancel before any token', async () => {
      const handler = recordingHandler();
      const original = handler.bindStreamingHandle!.bind(handler);
      handler.bindStreamingHandle = (handle) => {
        original(handle);
        handle.cancel();
      };
      const outcome = await consumeStream(trackedSource([hello]), handler, { format: 'openai-chat' });
      expect([outcome.status, handler.calls]).to.deep.equal(['cancelled', []]);
    });

    it('removes its listener from the external signal when the stream ends', async () => {
      const controller = new AbortController();
      await drive(trackedSource([hello, 'data: {"stop":true}\n\n']), recordingHandler(), { signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).to.deep.equal([]);
    });
  });

  describe('a throwing handler', () => {
    it('reports each throw as a HandlerCallbackError and goes on, and the promise still resolves', async () => {
      const handler = recordingHandler({
        afterEach: (call) => {
          if (call.on === 'partialResponse' || call.on === 'completeResponse') throw new Error(`bad ${call.on}`);
        },
      });
      const outcome = await drive(trackedSource([hello, 'data: {"stop":true}\n\n']), handler);
      expect(handler.calls.map((call) => (call.on === 'error' ? call.name : call.on))).to.deep.equal([
        'partialResponse',
        'HandlerCallbackError',
        'partialResponse',
        'HandlerCallbackError',
        'unmappedRawEvent',
        'completeResponse',
        'HandlerCallbackError',
      ]);
      expect(outcome.status).to.equal('completed');
    });
  });

  describe('misuse', () => {
    const handler = recordingHandler();

    it('rejects with a TypeError for a source that is not one', async () => {
      await expectRejection(() => consumeStream('data: x' as unknown as StreamSource, handler, { format: 'auto' }), TypeError, 'Expected a Response');
    });

    it('rejects with a TypeError for an unknown format', async () => {
      await expectRejection(
        () => consumeStream(trackedSource([]), handler, { format: 'sse' as WireFormat }),
        TypeError,
        'Expected format to be one of openai-chat, openai-responses, anthropic, gemini, ollama, bedrock-converse, partstream, auto or a ProviderDescriptor, got string "sse"',
      );
    });

    it('rejects with a TypeError for an idle timeout that is not a positive number', async () => {
      await expectRejection(
        () => consumeStream(trackedSource([]), handler, { format: 'auto', idleTimeoutMs: 0 }),
        TypeError,
        'Expected idleTimeoutMs to be a positive number of milliseconds, got number 0',
      );
    });

    it('rejects with a TypeError for a handler without onError', async () => {
      await expectRejection(() => consumeStream(trackedSource([]), { onCompleteResponse() {} } as never, { format: 'auto' }), TypeError);
    });
  });

  describe('bodies that are not streams', () => {
    it('reports a JSON error body as the provider error, with its code and body', async () => {
      const body = '{\n  "error": {\n    "code": 404,\n    "message": "models/x is not found",\n    "status": "NOT_FOUND"\n  }\n}\n';
      const handler = recordingHandler();
      const outcome = await consumeStream(trackedSource([body.slice(0, 7), body.slice(7)]), handler, { format: 'gemini' });
      expect(handler.calls).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'provider', message: 'models/x is not found' }]);
      const error = handler.errors[0] as StreamError;
      expect([error.code, error.status, error.body]).to.deep.equal(['NOT_FOUND', 404, JSON.parse(body)]);
      expect(outcome.status).to.equal('failed');
    });

    it('reports an HTML page as a format error naming what was expected and found', async () => {
      const handler = recordingHandler();
      await consumeStream(trackedSource(['<!DOCTYPE html><html><body>Bad gateway</body></html>']), handler, { format: 'anthropic' });
      expect(handler.calls).to.deep.equal([
        {
          on: 'error',
          name: 'StreamError',
          kind: 'format',
          message: 'Expected an Anthropic Messages stream (Server-Sent Events), got an HTML document: "<!DOCTYPE html><html><body>Bad gateway</body></html>"',
        },
      ]);
    });
  });

  describe('the same error however a body that is not a stream is split', () => {
    const bodies: [string, WireFormat | 'auto'][] = [
      ['<html><body>Please sign in</body></html>', 'openai-chat'],
      ['error\nvery bad\n', 'anthropic'],
      ['{"a":1}\nmore', 'openai-chat'],
      ['{\n  "error": {"message": "quota", "status": "RESOURCE_EXHAUSTED"}\n}\n', 'gemini'],
      ['data: {"foo":1}\n\n', 'auto'],
      ['oops\n', 'ollama'],
    ];
    for (const [body, format] of bodies) {
      it(`${JSON.stringify(body)} as ${format}`, async () => {
        const whole = recordingHandler();
        await consumeStream(trackedSource([body]), whole, { format });
        expect(whole.calls).to.have.length(1);
        for (let at = 1; at < body.length; at++) {
          const split = recordingHandler();
          await consumeStream(trackedSource([body.slice(0, at), body.slice(at)]), split, { format });
          expect(split.calls, `split at ${at}`).to.deep.equal(whole.calls);
        }
      });
    }
  });

  describe('format auto', () => {
    it('recognises the format from the first frames and replays them to its mapper', async () => {
      const handler = recordingHandler();
      const mapper = new TinyMapper(false);
      const outcome = await drive(trackedSource(['{"model":"m","created_at":"t","tex', 't":"x"}\n{"text":"Hi"}\n{"stop":true}\n']), handler, {
        format: 'auto',
        mapper,
      });
      expect(mapper.seen[0]).to.deep.equal({ model: 'm', created_at: 't', text: 'x' });
      expect(outcome.status).to.equal('completed');
      expect(partialText(outcome)).to.equal('xHi');
    });

    it('reports an empty body as truncated', async () => {
      const handler = recordingHandler();
      const outcome = await consumeStream(trackedSource([]), handler, { format: 'auto' });
      expect(handler.calls.map((call) => [call.on, call.on === 'error' ? call.kind : null])).to.deep.equal([['error', 'truncated']]);
      expect(outcome.status).to.equal('failed');
    });
  });

  it('gives the outcome the same final response the handler received', async () => {
    const handler = recordingHandler();
    const outcome = await drive(trackedSource([hello, 'data: {"stop":true}\n\n']), handler);
    expect(outcome).to.deep.equal({
      status: 'completed',
      response: chatResponse(aiMessage([textPart('Hello')]), responseMetadata({ id: 'resp-1', finishReason: 'STOP' })),
    });
  });
});
