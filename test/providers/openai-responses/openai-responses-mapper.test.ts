import { expect } from 'chai';
import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import { tokenUsage } from '../../../lib/handler/values';
import { OpenAIResponsesMapper } from '../../../lib/providers/openai-responses/openai-responses-mapper';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { runFrames, typedFrame, type Step } from '../shared/mapper-harness';

const ID = 'resp_1';
const MODEL = 'gpt-test';
const USAGE = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, total_tokens: 19 };

function snapshot(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: ID, object: 'response', model: MODEL, status, output: [], usage: null, ...extra };
}
const created = typedFrame({ type: 'response.created', response: snapshot('in_progress') });
const inProgress = typedFrame({ type: 'response.in_progress', response: snapshot('in_progress') });
const completed = typedFrame({ type: 'response.completed', response: snapshot('completed', { usage: USAGE }) });

function itemAdded(item: Record<string, unknown>): SseFrame {
  return typedFrame({ type: 'response.output_item.added', output_index: 0, item });
}
function itemDone(item: Record<string, unknown>): SseFrame {
  return typedFrame({ type: 'response.output_item.done', output_index: 0, item });
}
function textDelta(delta: string, itemId = 'msg_1', contentIndex = 0): SseFrame {
  return typedFrame({ type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: contentIndex, delta });
}
function textDone(text: string, itemId = 'msg_1', contentIndex = 0): SseFrame {
  return typedFrame({ type: 'response.output_text.done', item_id: itemId, output_index: 0, content_index: contentIndex, text });
}
function argsDelta(itemId: string, delta: string): SseFrame {
  return typedFrame({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: 0, delta });
}
function argsDone(itemId: string, args: string): SseFrame {
  return typedFrame({ type: 'response.function_call_arguments.done', item_id: itemId, output_index: 0, arguments: args });
}
function functionCall(id: string, callId: string, name: string, args = ''): Record<string, unknown> {
  return { id, type: 'function_call', status: args === '' ? 'in_progress' : 'completed', arguments: args, call_id: callId, name };
}
function complete(finishReason: FinishReason | null, usage: TokenUsage | null = tokenUsage(12, 7, 19, { cacheReadInputTokenCount: 0 })): Step {
  return ['complete', { id: ID, modelName: MODEL, tokenUsage: usage, finishReason }, {}];
}
function raw(...frames: SseFrame[]): Step[] {
  return frames.map((frame) => ['raw', frame]);
}
function run(frames: SseFrame[], truncatedFrame = false) {
  return runFrames(new OpenAIResponsesMapper(), frames, truncatedFrame);
}
const encrypted = (data: string) => ({ provider: 'openai', kind: 'encrypted_content', data });

describe('OpenAIResponsesMapper', () => {
  describe('text', () => {
    it('maps output_text deltas to partial responses; lifecycle events surface raw', () => {
      const added = itemAdded({ id: 'msg_1', type: 'message', status: 'in_progress', content: [], role: 'assistant' });
      const partAdded = typedFrame({ type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } });
      const done = textDone('Hello');
      const partDone = typedFrame({ type: 'response.content_part.done', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: 'Hello' } });
      const message = itemDone({ id: 'msg_1', type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }], role: 'assistant' });
      const { steps, returns } = run([created, inProgress, added, partAdded, textDelta('Hel'), textDelta('lo'), done, partDone, message, completed]);
      expect(steps).to.deep.equal([...raw(created, inProgress, added, partAdded), ['text', 'Hel'], ['text', 'lo'], ...raw(done, partDone, message), complete('STOP')]);
      expect(returns).to.deep.equal([false, false, false, false, false, false, false, false, false, true]);
    });

    it('delivers the tail an output_text.done holds beyond the streamed deltas', () => {
      const { steps } = run([created, textDelta('Got'), textDelta(' it'), textDone('Got it, thanks.'), completed]);
      expect(steps.slice(1)).to.deep.equal([['text', 'Got'], ['text', ' it'], ['text', ', thanks.'], complete('STOP')]);
    });

    it('delivers the whole text of an output_text.done that no delta preceded', () => {
      const { steps } = run([created, textDone('All at once.'), completed]);
      expect(steps.slice(1)).to.deep.equal([['text', 'All at once.'], complete('STOP')]);
    });

    it('adds nothing when output_text.done disagrees with the streamed deltas, and surfaces it raw', () => {
      const done = textDone('Something else');
      const { steps } = run([created, textDelta('Got'), done, completed]);
      expect(steps.slice(1)).to.deep.equal([['text', 'Got'], ['raw', done], complete('STOP')]);
    });

    it('keeps the text runs of different content parts apart', () => {
      const { steps } = run([created, textDelta('A', 'msg_1', 0), textDelta('B', 'msg_2', 0), textDone('A', 'msg_1', 0), textDone('BC', 'msg_2', 0), completed]);
      expect(steps.slice(1).filter((step) => step[0] !== 'raw')).to.deep.equal([['text', 'A'], ['text', 'B'], ['text', 'C'], complete('STOP')]);
    });

    it('surfaces an empty text delta raw', () => {
      const empty = textDelta('');
      expect(run([created, empty, completed]).steps[1]).to.deep.equal(['raw', empty]);
    });
  });

  describe('reasoning', () => {
    it('maps summary and reasoning-text deltas to partial thinking and the encrypted content at output_item.done to a signature-only partial thinking', () => {
      const reasoningAdded = itemAdded({ id: 'rs_1', type: 'reasoning', encrypted_content: 'first-encryption', summary: [] });
      const frames = [
        created,
        reasoningAdded,
        typedFrame({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: '**Plan**' }),
        typedFrame({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: ' add.' }),
        typedFrame({ type: 'response.reasoning_summary_text.done', item_id: 'rs_1', output_index: 0, summary_index: 0, text: '**Plan** add.' }),
        typedFrame({ type: 'response.reasoning_text.delta', item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'Step 1.' }),
        typedFrame({ type: 'response.reasoning_text.done', item_id: 'rs_1', output_index: 0, content_index: 0, text: 'Step 1. Step 2.' }),
        itemDone({ id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAAA-final', summary: [{ type: 'summary_text', text: '**Plan** add.' }] }),
        completed,
      ];
      const { steps } = run(frames);
      expect(steps).to.deep.equal([
        ...raw(created, reasoningAdded),
        ['thinking', '**Plan**'],
        ['thinking', ' add.'],
        ['raw', frames[4]],
        ['thinking', 'Step 1.'],
        ['thinking', ' Step 2.'],
        ['thinking', '', encrypted('gAAAA-final')],
        complete('STOP'),
      ]);
    });

    it('surfaces a reasoning item without encrypted content raw', () => {
      const done = itemDone({ id: 'rs_1', type: 'reasoning', summary: [] });
      expect(run([created, done, completed]).steps[1]).to.deep.equal(['raw', done]);
    });
  });

  describe('tool calls', () => {
    it('streams argument deltas by item id with the call_id as id and completes the call once, at function_call_arguments.done', () => {
      const added = itemAdded(functionCall('fc_1', 'call_a', 'calculator'));
      const done = itemDone(functionCall('fc_1', 'call_a', 'calculator', '{"a":1}'));
      const { steps } = run([created, added, argsDelta('fc_1', '{"a":'), argsDelta('fc_1', '1}'), argsDone('fc_1', '{"a":1}'), done, completed]);
      expect(steps).to.deep.equal([
        ...raw(created, added),
        ['toolDelta', 0, 'call_a', 'calculator', '{"a":'],
        ['toolDelta', 0, 'call_a', 'calculator', '1}'],
        ['tool', 0, 'call_a', 'calculator', '{"a":1}'],
        ['raw', done],
        complete('TOOL_EXECUTION'),
      ]);
    });

    it('numbers calls 0, 1 … in the order they start, whatever their output index', () => {
      const frames = [
        created,
        itemAdded(functionCall('fc_1', 'call_a', 'f')),
        itemAdded(functionCall('fc_2', 'call_b', 'g')),
        argsDelta('fc_2', '{}'),
        argsDelta('fc_1', '{"x":2}'),
        argsDone('fc_2', '{}'),
        argsDone('fc_1', '{"x":2}'),
        completed,
      ];
      expect(run(frames).steps.filter((step) => step[0] !== 'raw')).to.deep.equal([
        ['toolDelta', 1, 'call_b', 'g', '{}'],
        ['toolDelta', 0, 'call_a', 'f', '{"x":2}'],
        ['tool', 1, 'call_b', 'g', '{}'],
        ['tool', 0, 'call_a', 'f', '{"x":2}'],
        complete('TOOL_EXECUTION'),
      ]);
    });

    it("completes a call at its output_item.done when no arguments.done came, with the item's arguments", () => {
      const { steps } = run([created, itemAdded(functionCall('fc_1', 'call_a', 'f')), argsDelta('fc_1', '{"a"'), itemDone(functionCall('fc_1', 'call_a', 'f', '{"a":3}')), completed]);
      expect(steps.slice(2)).to.deep.equal([['toolDelta', 0, 'call_a', 'f', '{"a"'], ['tool', 0, 'call_a', 'f', '{"a":3}'], complete('TOOL_EXECUTION')]);
    });

    it('completes a call that only shows up at its output_item.done', () => {
      const { steps } = run([created, itemDone(functionCall('fc_1', 'call_a', 'f', '{"b":true}')), completed]);
      expect(steps.slice(1)).to.deep.equal([['tool', 0, 'call_a', 'f', '{"b":true}'], complete('TOOL_EXECUTION')]);
    });

    it('keeps the deltas of a call never announced until its output_item.done names it', () => {
      const early = argsDelta('fc_1', '{"c":');
      const done = argsDone('fc_1', '{"c":4}');
      const { steps } = run([created, early, done, itemDone(functionCall('fc_1', 'call_a', 'f', '{"c":4}')), completed]);
      expect(steps.slice(1)).to.deep.equal([...raw(early, done), ['tool', 0, 'call_a', 'f', '{"c":4}'], complete('TOOL_EXECUTION')]);
    });

    it('completes a call still open at response.completed with its streamed arguments', () => {
      const { steps } = run([created, itemAdded(functionCall('fc_1', 'call_a', 'f')), argsDelta('fc_1', '{"d":5}'), completed]);
      expect(steps.slice(3)).to.deep.equal([['tool', 0, 'call_a', 'f', '{"d":5}'], complete('TOOL_EXECUTION')]);
    });

    it('maps a custom tool call: input deltas stream, the free-text input is the arguments', () => {
      const custom = { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_sql', name: 'write_sql', input: '' };
      const inputDelta = (delta: string) => typedFrame({ type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta });
      const { steps } = run([created, itemAdded(custom), inputDelta('SELECT 1 '), inputDelta('FROM t'), itemDone({ ...custom, input: 'SELECT 1 FROM t', status: 'completed' }), completed]);
      expect(steps.slice(2)).to.deep.equal([
        ['toolDelta', 0, 'call_sql', 'write_sql', 'SELECT 1 '],
        ['toolDelta', 0, 'call_sql', 'write_sql', 'FROM t'],
        ['tool', 0, 'call_sql', 'write_sql', 'SELECT 1 FROM t'],
        complete('TOOL_EXECUTION'),
      ]);
    });

    it('completes a custom tool call at custom_tool_call_input.done', () => {
      const custom = { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_sql', name: 'write_sql', input: '' };
      const inputDone = typedFrame({ type: 'response.custom_tool_call_input.done', item_id: 'ctc_1', output_index: 0, input: 'SELECT 2' });
      const late = itemDone({ ...custom, input: 'SELECT 2' });
      const { steps } = run([created, itemAdded(custom), inputDone, late, completed]);
      expect(steps.slice(2)).to.deep.equal([['tool', 0, 'call_sql', 'write_sql', 'SELECT 2'], ['raw', late], complete('TOOL_EXECUTION')]);
    });

    it('surfaces server-side tool items and their events raw', () => {
      const frames = [
        itemAdded({ id: 'ws_1', type: 'web_search_call', status: 'in_progress' }),
        typedFrame({ type: 'response.web_search_call.in_progress', item_id: 'ws_1', output_index: 0 }),
        typedFrame({ type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 0 }),
        typedFrame({ type: 'response.web_search_call.completed', item_id: 'ws_1', output_index: 0 }),
        itemDone({ id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'news' } }),
        typedFrame({ type: 'response.output_text.annotation.added', item_id: 'msg_1', annotation: { type: 'url_citation', url: 'https://example.com' } }),
      ];
      expect(run([created, ...frames, completed]).steps).to.deep.equal([...raw(created, ...frames), complete('STOP')]);
    });
  });

  describe('the end of a response', () => {
    it('maps response.incomplete for max_output_tokens to LENGTH', () => {
      const incomplete = typedFrame({ type: 'response.incomplete', response: snapshot('incomplete', { usage: USAGE, incomplete_details: { reason: 'max_output_tokens' } }) });
      const { steps, returns } = run([created, textDelta('Cut'), incomplete]);
      expect(steps.slice(1)).to.deep.equal([['text', 'Cut'], complete('LENGTH')]);
      expect(returns.at(-1)).to.equal(true);
    });

    it('maps response.incomplete for content_filter to CONTENT_FILTER', () => {
      const incomplete = typedFrame({ type: 'response.incomplete', response: snapshot('incomplete', { incomplete_details: { reason: 'content_filter' } }) });
      expect(run([created, incomplete]).steps.at(-1)).to.deep.equal(complete('CONTENT_FILTER', null));
    });

    it('stops at the first terminal event of a body holding several responses', () => {
      const second = typedFrame({ type: 'response.created', response: { ...snapshot('in_progress'), id: 'resp_2' } });
      const { steps, returns } = run([created, textDelta('one'), completed, second, textDelta('two'), completed]);
      expect(steps.slice(1)).to.deep.equal([['text', 'one'], complete('STOP')]);
      expect(returns).to.deep.equal([false, false, true]);
    });

    it('surfaces a frame that is not JSON raw, and an unknown event raw', () => {
      const broken: SseFrame = { event: 'response.output_text.delta', data: '{"type": "response.output' };
      const unknown = typedFrame({ type: 'response.something_new', item_id: 'x' });
      expect(run([created, broken, unknown, completed]).steps.slice(1)).to.deep.equal([...raw(broken, unknown), complete('STOP')]);
    });
  });

  describe('errors', () => {
    const quota = { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null };
    const errorEvent = typedFrame({ type: 'error', sequence_number: 2, error: quota });
    const failed = typedFrame({ type: 'response.failed', response: snapshot('failed', { error: { code: 'insufficient_quota', message: 'You exceeded your current quota.' } }) });

    it('reports an error event followed by response.failed as exactly one provider StreamError with code and message', () => {
      const { steps, returns, errors } = run([created, inProgress, errorEvent, failed]);
      expect(steps).to.deep.equal([...raw(created, inProgress), ['error', 'provider', 'You exceeded your current quota.']]);
      expect(returns).to.deep.equal([false, false, true]);
      expect(errors).to.have.length(1);
      const error = errors[0] as StreamError;
      expect([error.code, error.body, error.frame]).to.deep.equal(['insufficient_quota', quota, errorEvent.data]);
    });

    it('reports response.failed on its own as one provider StreamError', () => {
      const { steps, errors } = run([created, failed]);
      expect(steps.slice(1)).to.deep.equal([['error', 'provider', 'You exceeded your current quota.']]);
      expect((errors[0] as StreamError).code).to.equal('insufficient_quota');
    });

    it('reads an error event that carries code and message at the top level', () => {
      const flat = typedFrame({ type: 'error', code: 'server_error', message: 'Something broke', param: null });
      const { errors } = run([created, flat]);
      expect([(errors[0] as StreamError).kind, (errors[0] as StreamError).code, errors[0].message]).to.deep.equal(['provider', 'server_error', 'Something broke']);
    });

    it('reports a stream that ends before response.completed as truncated', () => {
      expect(run([created, textDelta('Hal')]).steps.at(-1)).to.deep.equal(['error', 'truncated', 'The stream ended before response.completed']);
    });

    it('reports a stream cut in the middle of a frame as truncated', () => {
      expect(run([created], true).steps.at(-1)?.slice(0, 2)).to.deep.equal(['error', 'truncated']);
    });
  });
});
