import { expect } from 'chai';
import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import { tokenUsage } from '../../../lib/handler/values';
import { OpenAIChatMapper } from '../../../lib/providers/openai-chat/openai-chat-mapper';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { dataFrame, runFrames, type Step } from '../shared/mapper-harness';

const ID = 'chatcmpl-1';
const MODEL = 'gpt-test';
const DONE: SseFrame = { event: null, data: '[DONE]' };

function chunk(choices: unknown[], extra: Record<string, unknown> = {}): SseFrame {
  return dataFrame({ id: ID, object: 'chat.completion.chunk', created: 1, model: MODEL, choices, ...extra });
}
function delta(value: Record<string, unknown>, finishReason: string | null = null, index = 0): SseFrame {
  return chunk([{ index, delta: value, logprobs: null, finish_reason: finishReason }]);
}
function toolDelta(call: Record<string, unknown>): SseFrame {
  return delta({ tool_calls: [call] });
}
function complete(finishReason: FinishReason | null, usage: TokenUsage | null = null, attributes: Record<string, string> = {}): Step {
  return ['complete', { id: ID, modelName: MODEL, tokenUsage: usage, finishReason }, attributes];
}
function run(frames: SseFrame[], truncatedFrame = false) {
  return runFrames(new OpenAIChatMapper(), frames, truncatedFrame);
}

describe('OpenAIChatMapper', () => {
  describe('text', () => {
    it('maps content deltas to partial responses and surfaces role-only, finish-only and usage-only chunks raw', () => {
      const role = delta({ role: 'assistant', content: '' });
      const finish = delta({}, 'stop');
      const usage = chunk([], { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
      const { steps } = run([role, delta({ content: 'Hel' }), delta({ content: 'lo' }), finish, usage, DONE]);
      expect(steps).to.deep.equal([['raw', role], ['text', 'Hel'], ['text', 'lo'], ['raw', finish], ['raw', usage], complete('STOP', tokenUsage(3, 2, 5))]);
    });

    it('delivers whitespace-only content', () => {
      expect(run([delta({ content: ' ' }), delta({}, 'stop'), DONE]).steps.slice(0, 1)).to.deep.equal([['text', ' ']]);
    });

    it('returns true from map at [DONE] only (a usage chunk may follow the finish chunk)', () => {
      const { returns } = run([delta({ content: 'a' }), delta({}, 'stop'), chunk([], { usage: { prompt_tokens: 1 } }), DONE]);
      expect(returns).to.deep.equal([false, false, false, true]);
    });

    it('takes the last non-blank id and model, and the last usage', () => {
      const first = dataFrame({ id: '', model: '', object: '', choices: [], prompt_filter_results: [] });
      const { steps } = run([
        first,
        delta({ content: 'a' }),
        chunk([{ index: 0, delta: {}, finish_reason: 'length' }], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
        chunk([], { usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 } }),
        DONE,
      ]);
      expect(steps.at(-1)).to.deep.equal(complete('LENGTH', tokenUsage(4, 1, 5)));
      expect(steps[0]).to.deep.equal(['raw', first]);
    });
  });

  describe('reasoning', () => {
    it('maps reasoning_content to partial thinking, delivered before the content of the same chunk', () => {
      const { steps } = run([delta({ content: null, reasoning_content: 'Think.' }), delta({ content: 'Answer', reasoning_content: ' More.' }), delta({}, 'stop'), DONE]);
      expect(steps.slice(0, 3)).to.deep.equal([
        ['thinking', 'Think.'],
        ['thinking', ' More.'],
        ['text', 'Answer'],
      ]);
    });

    it('maps the reasoning field of vLLM, OpenRouter and Ollama the same way', () => {
      const { steps } = run([delta({ reasoning: 'Hmm', content: 'Yes' }), delta({}, 'stop'), DONE]);
      expect(steps.slice(0, 2)).to.deep.equal([
        ['thinking', 'Hmm'],
        ['text', 'Yes'],
      ]);
    });

    it('surfaces a chunk whose reasoning and content are empty or null raw', () => {
      const empty = delta({ role: 'assistant', content: null, reasoning_content: '' });
      expect(run([empty, delta({}, 'stop'), DONE]).steps[0]).to.deep.equal(['raw', empty]);
    });
  });

  describe('tool calls', () => {
    it('streams each call by tool_calls[].index and completes it when the next index starts or at the finish chunk', () => {
      const finish = delta({}, 'tool_calls');
      const { steps } = run([
        delta({ role: 'assistant', content: null }),
        toolDelta({ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }),
        toolDelta({ index: 0, function: { arguments: '{"city":' } }),
        toolDelta({ index: 0, function: { arguments: '"Paris"}' } }),
        toolDelta({ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } }),
        finish,
        chunk([], { usage: { prompt_tokens: 9, completion_tokens: 8, total_tokens: 17 } }),
        DONE,
      ]);
      expect(steps.slice(1)).to.deep.equal([
        ['raw', toolDelta({ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } })],
        ['toolDelta', 0, 'call_a', 'weather', '{"city":'],
        ['toolDelta', 0, 'call_a', 'weather', '"Paris"}'],
        ['tool', 0, 'call_a', 'weather', '{"city":"Paris"}'],
        ['toolDelta', 1, 'call_b', 'time', '{}'],
        ['tool', 1, 'call_b', 'time', '{}'],
        ['raw', chunk([], { usage: { prompt_tokens: 9, completion_tokens: 8, total_tokens: 17 } })],
        complete('TOOL_EXECUTION', tokenUsage(9, 8, 17)),
      ]);
    });

    it('completes a call without arguments with "{}"', () => {
      const { steps } = run([toolDelta({ index: 0, id: 'call_a', function: { name: 'now', arguments: '' } }), delta({}, 'tool_calls'), DONE]);
      expect(steps.slice(1)).to.deep.equal([['tool', 0, 'call_a', 'now', '{}'], complete('TOOL_EXECUTION')]);
    });

    it('keeps a delta without an index on the last call, and starts a new call when a new id appears', () => {
      const { steps } = run([
        toolDelta({ id: 'call_a', function: { name: 'f', arguments: '{"a":' } }),
        toolDelta({ function: { arguments: '1}' } }),
        toolDelta({ id: 'call_a', function: { arguments: '' } }),
        toolDelta({ id: 'call_b', function: { name: 'g', arguments: '{"b":2}' } }),
        delta({}, 'tool_calls'),
        DONE,
      ]);
      expect(steps.filter((step) => step[0] !== 'raw')).to.deep.equal([
        ['toolDelta', 0, 'call_a', 'f', '{"a":'],
        ['toolDelta', 0, 'call_a', 'f', '1}'],
        ['tool', 0, 'call_a', 'f', '{"a":1}'],
        ['toolDelta', 1, 'call_b', 'g', '{"b":2}'],
        ['tool', 1, 'call_b', 'g', '{"b":2}'],
        complete('TOOL_EXECUTION'),
      ]);
    });

    it('starts a new call when a reused index brings a different id', () => {
      const { steps } = run([
        toolDelta({ index: 0, id: 'call_a', function: { name: 'f', arguments: '{}' } }),
        toolDelta({ index: 0, id: 'call_b', function: { name: 'g', arguments: '{"x":1}' } }),
        delta({}, 'tool_calls'),
        DONE,
      ]);
      expect(steps).to.deep.equal([
        ['toolDelta', 0, 'call_a', 'f', '{}'],
        ['tool', 0, 'call_a', 'f', '{}'],
        ['toolDelta', 1, 'call_b', 'g', '{"x":1}'],
        ['tool', 1, 'call_b', 'g', '{"x":1}'],
        complete('TOOL_EXECUTION'),
      ]);
    });

    it('numbers the calls 0, 1 … even when the wire indexes do not start at 0', () => {
      const { steps } = run([toolDelta({ index: 3, id: 'call_a', function: { name: 'f', arguments: '{}' } }), delta({}, 'tool_calls'), DONE]);
      expect(steps[0]).to.deep.equal(['toolDelta', 0, 'call_a', 'f', '{}']);
    });

    it('maps nothing for a delta of a call that already completed', () => {
      const late = toolDelta({ index: 0, function: { arguments: 'late' } });
      const { steps } = run([
        toolDelta({ index: 0, id: 'call_a', function: { name: 'f', arguments: '{}' } }),
        toolDelta({ index: 1, id: 'call_b', function: { name: 'g', arguments: '{}' } }),
        late,
        delta({}, 'tool_calls'),
        DONE,
      ]);
      expect(steps[3]).to.deep.equal(['raw', late]);
      expect(steps.filter((step) => step[0] === 'tool')).to.deep.equal([
        ['tool', 0, 'call_a', 'f', '{}'],
        ['tool', 1, 'call_b', 'g', '{}'],
      ]);
    });

    it('holds back the partials of a call until its name arrives, and completes it with all its arguments', () => {
      const nameless = toolDelta({ index: 0, id: 'call_a', function: { arguments: '{"q":' } });
      const { steps } = run([nameless, toolDelta({ index: 0, function: { name: 'search', arguments: '1}' } }), delta({}, 'tool_calls'), DONE]);
      expect(steps).to.deep.equal([['raw', nameless], ['toolDelta', 0, 'call_a', 'search', '1}'], ['tool', 0, 'call_a', 'search', '{"q":1}'], complete('TOOL_EXECUTION')]);
    });

    it('maps the deprecated function_call delta as a tool call without id', () => {
      const { steps } = run([delta({ function_call: { name: 'lookup', arguments: '' } }), delta({ function_call: { arguments: '{"k":1}' } }), delta({}, 'function_call'), DONE]);
      expect(steps.slice(1)).to.deep.equal([['toolDelta', 0, null, 'lookup', '{"k":1}'], ['tool', 0, null, 'lookup', '{"k":1}'], complete('TOOL_EXECUTION')]);
    });

    it('reports LENGTH for a length stop even when tool calls were made (SPEC §10)', () => {
      const { steps } = run([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{"a"' } }), delta({}, 'length'), DONE]);
      expect(steps.at(-1)).to.deep.equal(complete('LENGTH'));
    });

    it('reports TOOL_EXECUTION for a stop that completed tool calls', () => {
      const { steps } = run([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }), delta({}, 'stop'), DONE]);
      expect(steps.at(-1)).to.deep.equal(complete('TOOL_EXECUTION'));
    });

    it('never completes a call still open at finish_reason length, and finishes LENGTH', () => {
      const { steps } = run([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{"a"' } }), delta({}, 'length'), DONE]);
      expect(steps).to.deep.equal([['toolDelta', 0, 'c', 'f', '{"a"'], ['raw', delta({}, 'length')], complete('LENGTH')]);
    });

    it('completes a call still open at [DONE] when no finish chunk came', () => {
      const { steps } = run([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }), DONE]);
      expect(steps.slice(1)).to.deep.equal([['tool', 0, 'c', 'f', '{}'], complete('TOOL_EXECUTION')]);
    });
  });

  describe('choices', () => {
    it('maps only choice 0; chunks of other choices surface raw', () => {
      const other = delta({ content: 'other' }, null, 1);
      const otherFinish = delta({}, 'length', 1);
      const both = chunk([
        { index: 1, delta: { content: 'x' }, finish_reason: null },
        { index: 0, delta: { content: 'y' }, finish_reason: null },
      ]);
      const { steps } = run([delta({ content: 'mine' }), other, both, delta({}, 'stop'), otherFinish, DONE]);
      expect(steps).to.deep.equal([['text', 'mine'], ['raw', other], ['text', 'y'], ['raw', delta({}, 'stop')], ['raw', otherFinish], complete('STOP')]);
    });

    it('treats a choice without an index as choice 0', () => {
      const { steps } = run([chunk([{ delta: { content: 'hi' } }]), chunk([{ delta: {}, finish_reason: 'stop' }]), DONE]);
      expect(steps[0]).to.deep.equal(['text', 'hi']);
      expect(steps.at(-1)).to.deep.equal(complete('STOP'));
    });
  });

  describe('refusal', () => {
    it('surfaces refusal deltas raw and reports CONTENT_FILTER with the refusal text in the attributes', () => {
      const frames = [delta({ role: 'assistant', content: null, refusal: '' }), delta({ refusal: "I'm sorry" }), delta({ refusal: ', no.' }), delta({}, 'stop'), DONE];
      const { steps } = run(frames);
      expect(steps).to.deep.equal([...frames.slice(0, 4).map((frame): Step => ['raw', frame]), complete('CONTENT_FILTER', null, { refusal: "I'm sorry, no." })]);
    });
  });

  describe('errors', () => {
    it('sends an error object to onError as a provider StreamError and maps nothing after it', () => {
      const error = { message: 'The server had an error', type: 'server_error', code: null };
      const errorFrame = dataFrame({ error });
      const { steps, returns, errors } = run([delta({ content: 'a' }), errorFrame, delta({ content: 'b' })]);
      expect(steps).to.deep.equal([
        ['text', 'a'],
        ['error', 'provider', 'The server had an error'],
      ]);
      expect(returns).to.deep.equal([false, true]);
      const streamError = errors[0] as StreamError;
      expect([streamError.code, streamError.body, streamError.frame]).to.deep.equal(['server_error', error, errorFrame.data]);
    });

    it('reads the flat error body of compatible servers, with a numeric code as the status', () => {
      const body = { object: 'error', message: 'maximum context length exceeded', type: 'BadRequestError', param: null, code: 400 };
      const { errors } = run([dataFrame(body)]);
      const streamError = errors[0] as StreamError;
      expect([errors.length, streamError.kind, streamError.message, streamError.code, streamError.status, streamError.body]).to.deep.equal([
        1,
        'provider',
        'maximum context length exceeded',
        'BadRequestError',
        400,
        body,
      ]);
    });

    it('sends a plain-string error to onError with that text', () => {
      const { steps } = run([dataFrame({ error: 'rate limited' })]);
      expect(steps).to.deep.equal([['error', 'provider', 'rate limited']]);
    });

    it('sends an error frame whose data is not JSON to onError with that text', () => {
      const { steps, errors } = run([delta({ content: 'a' }), { event: 'error', data: 'upstream timed out' }]);
      expect(steps.at(-1)).to.deep.equal(['error', 'provider', 'upstream timed out']);
      expect((errors[0] as StreamError).body).to.equal('upstream timed out');
    });

    it('surfaces a frame that is not a JSON object raw and goes on', () => {
      const garbled = { event: null, data: '{"id": "chatcmpl-1", "choices": [' };
      const array = { event: null, data: '[1]' };
      const { steps } = run([garbled, array, delta({ content: 'ok' }), delta({}, 'stop'), DONE]);
      expect(steps.slice(0, 3)).to.deep.equal([
        ['raw', garbled],
        ['raw', array],
        ['text', 'ok'],
      ]);
      expect(steps.at(-1)).to.deep.equal(complete('STOP'));
    });
  });

  it('rejects a frame that is not {event, data} with a TypeError', () => {
    const target = { handler: { onCompleteResponse() {}, onError() {} }, handle: { cancel() {}, isCancelled: () => false } };
    expect(() => new OpenAIChatMapper().map(null as unknown as SseFrame, target)).to.throw(TypeError, 'Expected an SSE frame {event, data} with string data, got null');
  });

  describe('end of stream', () => {
    it('completes a stream that ended after its finish chunk without [DONE]', () => {
      const { steps } = run([delta({ content: 'a' }), delta({}, 'stop')]);
      expect(steps.at(-1)).to.deep.equal(complete('STOP'));
    });

    it('fails a stream that ended before a finish chunk or [DONE], leaving open tool calls incomplete', () => {
      const { steps, errors } = run([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{"a":' } })]);
      expect(steps).to.deep.equal([
        ['toolDelta', 0, 'c', 'f', '{"a":'],
        ['error', 'truncated', 'The stream ended before data: [DONE] or a finish chunk'],
      ]);
      expect(errors).to.have.length(1);
    });

    it('fails a stream that ended mid-frame, even after its finish chunk', () => {
      const { steps } = run([delta({ content: 'a' }), delta({}, 'stop')], true);
      expect(steps.at(-1)).to.deep.equal(['error', 'truncated', 'The stream ended in the middle of a frame, before data: [DONE] or a finish chunk']);
    });

    it('fails an empty stream', () => {
      expect(run([]).steps).to.deep.equal([['error', 'truncated', 'The stream ended before data: [DONE] or a finish chunk']]);
    });
  });
});
