import { expect } from 'chai';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import type { CompleteToolCall } from '../../lib/handler/types';
import type { WireFormat } from '../../lib/providers/registry';
import { partialResponse } from '../../lib/handler/values';
import { ChatStream } from '../../lib/stream/chat-stream';
import { replay, summarise } from './support/replay';
import { HOSTILE_THROWS } from './support/thrown-values';

/** A small OpenAI Chat stream: two text deltas, a finish chunk, [DONE]. */
const TWO_DELTAS = [
  'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n',
  'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":" there"}}]}\n\n',
  'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
].join('');

// Cases the fuzz suite found, shrunk, kept by name.
describe('fuzz regressions', () => {
  for (const [what, make] of HOSTILE_THROWS) {
    describe(`a handler that throws ${what} (found by "handler throws")`, () => {
      it('is wrapped in a HandlerCallbackError whose construction does not throw', () => {
        const cause = make();
        let error: HandlerCallbackError | null = null;
        expect(() => {
          error = new HandlerCallbackError('onPartialResponse', cause);
        }).to.not.throw();
        expect(error).to.include({ name: 'HandlerCallbackError', callbackName: 'onPartialResponse' });
        expect((error as HandlerCallbackError | null)?.cause).to.equal(cause);
      });

      it('is reported once as a HandlerCallbackError and the stream goes on to complete', async () => {
        const cause = make();
        const run = await replay([new TextEncoder().encode(TWO_DELTAS)], 'openai-chat', {
          hook: (ordinal) => (ordinal === 0 ? { throws: cause } : undefined),
        });
        expect(run.calls.map((call) => (call.on === 'onError' ? { on: call.on, callbackName: (call.value as { callbackName?: string }).callbackName } : { on: call.on }))).to.deep.equal([
          { on: 'onPartialResponse' },
          { on: 'onError', callbackName: 'onPartialResponse' },
          { on: 'onPartialResponse' },
          // The finish chunk carries no content: it surfaces raw.
          { on: 'onUnmappedRawEvent' },
          { on: 'onCompleteResponse' },
        ]);
        expect(run.errors.map(summarise).map((error) => error.name)).to.deep.equal(['HandlerCallbackError']);
        expect(run.outcome.status).to.equal('completed');
        expect(run.message.aiMessage.text).to.equal('Hi there');
      });

      it('from a ChatStream listener, does not stop the listeners after it and is emitted as one error event', () => {
        const stream = new ChatStream();
        const heard: string[] = [];
        stream.on('partialResponse', () => {
          throw make();
        });
        stream.on('partialResponse', (partial) => heard.push(partial.text));
        stream.on('error', (error) => heard.push(`${error.name} from ${HandlerCallbackError.isInstance(error) ? error.callbackName : '?'}`));
        expect(() => stream.onPartialResponse(partialResponse('Hi'), { streamingHandle: { cancel: () => undefined, isCancelled: () => false } })).to.not.throw();
        expect(heard).to.deep.equal(['Hi', 'HandlerCallbackError from onPartialResponse']);
      });
    });
  }

  describe('a body that is not a stream (found by "split a damaged body")', () => {
    const cases: ReadonlyArray<readonly [string, string, 'anthropic' | 'openai-chat' | 'ollama', number]> = [
      ['plain text over two lines', 'e\nv', 'anthropic', 2],
      ['an HTML page whose first chunk is one byte', '<html><body>Please sign in</body></html>', 'openai-chat', 1],
      ['a JSON line followed by text', '{"a":1}\nv', 'openai-chat', 8],
      ['plain text over two lines, as NDJSON', 'e\nv', 'ollama', 2],
    ];
    for (const [what, body, format, cut] of cases) {
      it(`fails with the same format error however it is split: ${what}`, async () => {
        const bytes = new TextEncoder().encode(body);
        const whole = await replay([bytes], format);
        const split = await replay([bytes.subarray(0, cut), bytes.subarray(cut)], format);
        expect(whole.calls).to.have.lengthOf(1);
        expect(whole.calls[0]?.value).to.include({ kind: 'format' });
        expect(split.calls).to.deep.equal(whole.calls);
      });
    }
  });

  describe('an OpenAI Responses tool call whose output_item.done names another item id (found by "damage: huge-frame")', () => {
    const event = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const body = [
      event('response.created', { response: { id: 'resp_1', status: 'in_progress' } }),
      event('response.output_item.added', { output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '' } }),
      event('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: '{"city":"Paris"}' }),
      event('response.output_item.done', { output_index: 0, item: { type: 'function_call', id: 'fc_2', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' } }),
      event('response.completed', { response: { id: 'resp_1', status: 'completed' } }),
    ].join('');

    it('completes the call once, and the final message holds every completed call', async () => {
      const run = await replay([new TextEncoder().encode(body)], 'openai-responses');
      const completed = run.calls.filter((call) => call.on === 'onCompleteToolCall').map((call) => (call.value as CompleteToolCall).toolExecutionRequest);
      expect(completed).to.deep.equal([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
      expect(run.message.aiMessage.toolExecutionRequests).to.deep.equal(completed);
    });
  });

  describe('a provider error whose message is blank (found by "damage: changed-string")', () => {
    const sse = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const created = sse('response.created', { response: { id: 'resp_1', status: 'in_progress' } });
    const cases: ReadonlyArray<readonly [string, WireFormat, string]> = [
      ['an Ollama {"error"} line', 'ollama', `{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n{"error":" "}\n`],
      ['an OpenAI Responses error event', 'openai-responses', created + sse('error', { code: 'server_error', message: '' })],
      ['an OpenAI Responses response.failed', 'openai-responses', created + sse('response.failed', { response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: ' ' } } })],
      ['a Gemini error chunk', 'gemini', `data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\n\ndata: {"error":{"code":500,"message":"","status":"INTERNAL"}}\n\n`],
    ];
    for (const [what, format, body] of cases) {
      it(`fails with a provider error whose message says something: ${what}`, async () => {
        const run = await replay([new TextEncoder().encode(body)], format);
        expect(run.outcome.status).to.equal('failed');
        const error = run.outcome.status === 'failed' ? run.outcome.error : null;
        expect(error).to.include({ name: 'StreamError', kind: 'provider' });
        expect(error?.message.trim(), 'the error message').to.not.equal('');
      });
    }
  });
});
