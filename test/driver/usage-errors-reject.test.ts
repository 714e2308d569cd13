import { expect } from 'chai';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from '../../lib/clients/http-clients';
import { consumeStream, startStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { ChatStream } from '../../lib/stream/chat-stream';
import { openChunkReader } from '../../lib/transport/byte-source';
import { trackedSource } from '../support/chunk-sources';
import { recordingHandler } from '../support/recording-handler';
import { rejectionOf } from '../support/rejection';
import { TRANSCRIPT_RESULTS, TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';

/** A handler without `onError`, which the driver refuses. */
const HALF_HANDLER = { onCompleteResponse() {} } as unknown as StreamingChatResponseHandler;

describe('Every exported function that returns a promise reports a usage error by rejecting it', () => {
  describe('consumeStream without options: format is auto', () => {
    for (const format of WIRE_FORMATS) {
      it(`recognises ${format} with the options left out, and with {} or { signal } alone`, async () => {
        const texts: string[] = [];
        for (const call of [
          (handler: StreamingChatResponseHandler) => consumeStream(trackedSource([TRANSCRIPTS[format]]), handler),
          (handler: StreamingChatResponseHandler) => consumeStream(trackedSource([TRANSCRIPTS[format]]), handler, {}),
          (handler: StreamingChatResponseHandler) => consumeStream(trackedSource([TRANSCRIPTS[format]]), handler, { signal: new AbortController().signal }),
        ]) {
          const outcome = await call(recordingHandler());
          expect(outcome.status).to.equal('completed');
          texts.push((outcome as Extract<StreamOutcome, { status: 'completed' }>).response.aiMessage.text ?? '');
        }
        const expected = TRANSCRIPT_RESULTS[format].text;
        expect(texts).to.deep.equal([expected, expected, expected]);
      });
    }
  });

  describe('consumeStream', () => {
    const misuses: [string, () => Promise<unknown>, string][] = [
      ['a source that is not one', () => consumeStream('data: x' as never, recordingHandler()), 'Expected a Response'],
      ['a null source', () => consumeStream(null as never, recordingHandler()), 'Expected a Response'],
      ['a null handler', () => consumeStream(trackedSource([]), null as never), 'Expected a handler with onCompleteResponse and onError methods, got null'],
      ['a handler without onError', () => consumeStream(trackedSource([]), HALF_HANDLER), 'Expected a handler with onCompleteResponse and onError methods'],
      ['null options', () => consumeStream(trackedSource([]), recordingHandler(), null as never), 'Expected options to be an object, got null'],
      [
        'an unknown format',
        () => consumeStream(trackedSource([]), recordingHandler(), { format: 'sse' as never }),
        'Expected format to be one of openai-chat, openai-responses, anthropic, gemini, ollama, bedrock-converse, partstream, auto or a ProviderDescriptor, got string "sse"',
      ],
      ['an idle timeout of 0', () => consumeStream(trackedSource([]), recordingHandler(), { idleTimeoutMs: 0 }), 'Expected idleTimeoutMs to be a positive number'],
      ['a maxFrameBytes of 1.5', () => consumeStream(trackedSource([]), recordingHandler(), { maxFrameBytes: 1.5 }), 'Expected maxFrameBytes to be a positive whole number'],
      ['a signal that is not one', () => consumeStream(trackedSource([]), recordingHandler(), { signal: {} as never }), 'Expected an AbortSignal'],
      ['an adapter of the wrong kind', () => consumeStream(trackedSource([]), recordingHandler(), { adapter: 'mapper' as never }), 'Expected adapter to be a StreamMapper'],
    ];
    for (const [what, call, message] of misuses) {
      it(`rejects (never throws) for ${what}, calling no callback`, async () => {
        const error = await rejectionOf(call);
        expect(error).to.be.instanceOf(TypeError);
        expect((error as Error).message).to.include(message);
      });
    }

    it('lets .catch() see the usage error', async () => {
      const caught = await consumeStream(trackedSource([]), recordingHandler(), { format: 'nope' as never }).catch((error: unknown) => error);
      expect(caught).to.be.instanceOf(TypeError);
    });

    it('calls no callback and reads nothing for a usage error', async () => {
      const handler = recordingHandler();
      const source = trackedSource(['data: {}\n\n']);
      await rejectionOf(() => consumeStream(source, handler, { idleTimeoutMs: -1 }));
      expect([handler.calls, source.pulled]).to.deep.equal([[], 0]);
    });
  });

  describe('startStream', () => {
    const open = (): Promise<never> => new Promise(() => undefined);
    const misuses: [string, () => Promise<unknown>, string][] = [
      ['an open that is not a function', () => startStream('x' as never, recordingHandler()), 'Expected open to be a function, got string "x"'],
      ['a handler without onError', () => startStream(open, HALF_HANDLER, { format: 'auto' }), 'Expected a handler with onCompleteResponse and onError methods'],
      ['an unknown format', () => startStream(open, recordingHandler(), { format: 'sse' as never }), 'Expected format to be one of'],
    ];
    for (const [what, call, message] of misuses) {
      it(`rejects (never throws) for ${what}`, async () => {
        const error = await rejectionOf(call);
        expect(error).to.be.instanceOf(TypeError);
        expect((error as Error).message).to.include(message);
      });
    }

    it('takes format auto when it is left out', async () => {
      const outcome = await startStream(() => Promise.resolve(openChunkReader(trackedSource([TRANSCRIPTS.gemini]))), recordingHandler());
      expect(outcome.status).to.equal('completed');
    });
  });

  describe('the HTTP clients', () => {
    const key = { apiKey: 'sk-usage-0000', fetch: (() => Promise.reject(new Error('no request should be sent'))) as typeof fetch };
    const clients: [string, (request: never, options: never) => Promise<unknown>][] = [
      ['streamOpenAIChat', (request, options) => streamOpenAIChat(request, recordingHandler(), options)],
      ['streamOpenAIResponses', (request, options) => streamOpenAIResponses(request, recordingHandler(), options)],
      ['streamAnthropic', (request, options) => streamAnthropic(request, recordingHandler(), options)],
      ['streamGemini', (request, options) => streamGemini(request, recordingHandler(), options)],
      ['streamOllama', (request, options) => streamOllama(request, recordingHandler(), options)],
    ];
    const misuses: [string, unknown, unknown, string][] = [
      ['a request without a model', {}, key, 'request with a model name, got an object'],
      ['a null request', null, key, 'request with a model name, got null'],
      ['null options', { model: 'm' }, null, 'Expected HTTP client options, got null'],
      ['a maxRetries of -1', { model: 'm' }, { ...key, maxRetries: -1 }, 'Expected maxRetries to be a whole number of at least 0'],
      ['a header with a line break', { model: 'm' }, { ...key, headers: { 'x-a': 'a\nb' } }, 'headers["x-a"] contains a character not allowed in an HTTP header (a line break)'],
      ['a base URL with credentials', { model: 'm' }, { ...key, baseUrl: 'http://u:p@127.0.0.1:1' }, 'without credentials'],
      ['a base URL that is not absolute', { model: 'm' }, { ...key, baseUrl: 'example.com' }, 'Expected baseUrl to be an absolute URL'],
      ['a fetch that is not a function', { model: 'm' }, { apiKey: 'k', fetch: 'fetch' }, 'Expected fetch to be a function'],
    ];
    for (const [name, call] of clients) {
      for (const [what, request, options, message] of misuses) {
        it(`${name} rejects (never throws) for ${what}`, async () => {
          const error = await rejectionOf(() => call(request as never, options as never));
          expect(error).to.be.instanceOf(TypeError);
          expect((error as Error).message).to.include(message);
        });
      }
    }
  });

  describe('ChatStream', () => {
    it('finalResponse() returns the same promise, and a misused stream rejects it rather than throwing', async () => {
      const stream = new ChatStream();
      expect(stream.finalResponse()).to.equal(stream.finalResponse());
      const error = await rejectionOf(() => consumeStream(trackedSource([]), stream, { format: 'nope' as never }));
      expect(error).to.be.instanceOf(TypeError);
    });
  });
});
