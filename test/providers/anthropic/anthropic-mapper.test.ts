import { expect } from 'chai';
import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import { tokenUsage } from '../../../lib/handler/values';
import { AnthropicMapper } from '../../../lib/providers/anthropic/anthropic-mapper';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { runFrames, typedFrame, type Step } from '../shared/mapper-harness';

const ID = 'msg_1';
const MODEL = 'claude-test';

const messageStart = typedFrame({
  type: 'message_start',
  message: { id: ID, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
});
const ping = typedFrame({ type: 'ping' });
const messageStop = typedFrame({ type: 'message_stop' });

function blockStart(index: number, block: Record<string, unknown>): SseFrame {
  return typedFrame({ type: 'content_block_start', index, content_block: block });
}
function blockDelta(index: number, delta: Record<string, unknown>): SseFrame {
  return typedFrame({ type: 'content_block_delta', index, delta });
}
function blockStop(index: number): SseFrame {
  return typedFrame({ type: 'content_block_stop', index });
}
function messageDelta(stopReason: string | null, usage: Record<string, unknown> = { output_tokens: 5 }): SseFrame {
  return typedFrame({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage });
}
function text(index: number, value: string): SseFrame {
  return blockDelta(index, { type: 'text_delta', text: value });
}
function json(index: number, value: string): SseFrame {
  return blockDelta(index, { type: 'input_json_delta', partial_json: value });
}
function complete(finishReason: FinishReason | null, usage: TokenUsage | null = tokenUsage(10, 5)): Step {
  return ['complete', { id: ID, modelName: MODEL, tokenUsage: usage, finishReason }, {}];
}
function raw(...frames: SseFrame[]): Step[] {
  return frames.map((frame) => ['raw', frame]);
}
function run(frames: SseFrame[], truncatedFrame = false) {
  return runFrames(new AnthropicMapper(), frames, truncatedFrame);
}
const signature = (data: string) => ({ provider: 'anthropic', kind: 'signature', data });

describe('AnthropicMapper', () => {
  describe('text', () => {
    it('maps text deltas to partial responses; message and block bookkeeping events surface raw', () => {
      const start = blockStart(0, { type: 'text', text: '' });
      const { steps, returns } = run([messageStart, start, ping, text(0, 'Hel'), text(0, 'lo'), blockStop(0), messageDelta('end_turn'), messageStop]);
      expect(steps).to.deep.equal([...raw(messageStart, start, ping), ['text', 'Hel'], ['text', 'lo'], ...raw(blockStop(0), messageDelta('end_turn'), messageStop), complete('STOP')]);
      expect(returns).to.deep.equal([false, false, false, false, false, false, false, true]);
    });

    it('delivers the text a content_block_start already holds', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'text', text: 'Hi' }), blockStop(0), messageDelta('end_turn'), messageStop]);
      expect(steps[1]).to.deep.equal(['text', 'Hi']);
    });

    it('surfaces an empty text delta raw', () => {
      const empty = text(0, '');
      expect(run([messageStart, empty]).steps[1]).to.deep.equal(['raw', empty]);
    });
  });

  describe('thinking', () => {
    it('maps thinking deltas to partial thinking and the signature to a signature-only partial thinking', () => {
      const emptyThinking = blockDelta(0, { type: 'thinking_delta', thinking: '' });
      const { steps } = run([
        messageStart,
        blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
        blockDelta(0, { type: 'thinking_delta', thinking: 'Let me think.' }),
        emptyThinking,
        blockDelta(0, { type: 'signature_delta', signature: 'EvQBsig' }),
        blockStop(0),
        blockStart(1, { type: 'text', text: '' }),
        text(1, '42'),
        blockStop(1),
        messageDelta('end_turn'),
        messageStop,
      ]);
      expect(steps.filter((step) => step[0] !== 'raw')).to.deep.equal([['thinking', 'Let me think.'], ['thinking', '', signature('EvQBsig')], ['text', '42'], complete('STOP')]);
      expect(steps[3]).to.deep.equal(['raw', emptyThinking]);
    });

    it('delivers the thinking and signature a content_block_start already holds, thinking first', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'thinking', thinking: 'Hm.', signature: 'sig' })]);
      expect(steps.slice(1, 3)).to.deep.equal([
        ['thinking', 'Hm.'],
        ['thinking', '', signature('sig')],
      ]);
    });

    it('keeps a redacted_thinking block as a payload-only partial thinking', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'redacted_thinking', data: 'EmwKAhgBEgy' }), blockStop(0), messageDelta('end_turn'), messageStop]);
      expect(steps[1]).to.deep.equal(['thinking', '', { provider: 'anthropic', kind: 'redacted_thinking', data: 'EmwKAhgBEgy' }]);
    });
  });

  describe('tool calls', () => {
    it('streams tool_use input deltas as partial tool calls numbered among tool blocks and completes each at its content_block_stop', () => {
      const toolStart0 = blockStart(1, { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: {} });
      const toolStart1 = blockStart(2, { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: {} });
      const emptyJson = json(1, '');
      const { steps } = run([
        messageStart,
        blockStart(0, { type: 'text', text: '' }),
        text(0, 'Checking.'),
        blockStop(0),
        toolStart0,
        emptyJson,
        json(1, '{"location":'),
        json(1, ' "Paris"}'),
        blockStop(1),
        toolStart1,
        json(2, '{"tz":"CET"}'),
        blockStop(2),
        messageDelta('tool_use'),
        messageStop,
      ]);
      expect(steps.slice(4)).to.deep.equal([
        ...raw(toolStart0, emptyJson),
        ['toolDelta', 0, 'toolu_a', 'get_weather', '{"location":'],
        ['toolDelta', 0, 'toolu_a', 'get_weather', ' "Paris"}'],
        ['tool', 0, 'toolu_a', 'get_weather', '{"location": "Paris"}'],
        ['raw', toolStart1],
        ['toolDelta', 1, 'toolu_b', 'get_time', '{"tz":"CET"}'],
        ['tool', 1, 'toolu_b', 'get_time', '{"tz":"CET"}'],
        ...raw(messageDelta('tool_use'), messageStop),
        complete('TOOL_EXECUTION'),
      ]);
    });

    it('completes a tool call without input with "{}"', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'now', input: {} }), json(0, ''), blockStop(0), messageDelta('tool_use'), messageStop]);
      expect(steps[3]).to.deep.equal(['tool', 0, 'toolu_a', 'now', '{}']);
    });

    it('completes a tool call that got no input deltas with the input its block started with', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'f', input: { a: [1, 'x'] } }), blockStop(0), messageDelta('tool_use'), messageStop]);
      expect(steps[2]).to.deep.equal(['tool', 0, 'toolu_a', 'f', '{"a":[1,"x"]}']);
    });

    it('completes a tool block still open at message_stop there', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }), json(0, '{"a":1}'), messageDelta('tool_use'), messageStop]);
      expect(steps.slice(2)).to.deep.equal([['toolDelta', 0, 'toolu_a', 'f', '{"a":1}'], ['raw', messageDelta('tool_use')], ['tool', 0, 'toolu_a', 'f', '{"a":1}'], complete('TOOL_EXECUTION')]);
    });

    it('never completes a tool block still open when the message stopped for max_tokens, and finishes LENGTH', () => {
      const { steps } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }), json(0, '{"a":'), messageDelta('max_tokens'), messageStop]);
      expect(steps.slice(2)).to.deep.equal([['toolDelta', 0, 'toolu_a', 'f', '{"a":'], ['raw', messageDelta('max_tokens')], ['raw', messageStop], complete('LENGTH')]);
    });

    it('surfaces server-side tool blocks, their input deltas and citations raw', () => {
      const frames = [
        blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
        json(0, '{"query": "news"}'),
        blockStop(0),
        blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
        blockStop(1),
        blockStart(2, { type: 'text', text: '' }),
        blockDelta(2, { type: 'citations_delta', citation: { type: 'web_search_result_location', url: 'https://example.com' } }),
      ];
      const { steps } = run([messageStart, ...frames, text(2, 'News.'), blockStop(2), messageDelta('end_turn'), messageStop]);
      expect(steps).to.deep.equal([...raw(messageStart, ...frames), ['text', 'News.'], ...raw(blockStop(2), messageDelta('end_turn'), messageStop), complete('STOP')]);
    });

    it('ignores a second tool_use start for a block index already used', () => {
      const again = blockStart(0, { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} });
      const { steps } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }), blockStop(0), again, json(0, '{}'), blockStop(0)]);
      expect(steps.slice(2)).to.deep.equal([['tool', 0, 'toolu_a', 'f', '{}'], ...raw(again, json(0, '{}'), blockStop(0)), steps.at(-1) as Step]);
    });
  });

  describe('metadata', () => {
    it('merges message_start and message_delta usage per field', () => {
      const { steps } = run([messageStart, messageDelta('end_turn', { input_tokens: 61, output_tokens: 2 }), messageStop]);
      expect(steps.at(-1)).to.deep.equal(complete('STOP', tokenUsage(61, 2)));
    });

    it('reports a refusal as CONTENT_FILTER', () => {
      const { steps } = run([messageStart, ping, messageDelta('refusal'), messageStop]);
      expect(steps.at(-1)).to.deep.equal(complete('CONTENT_FILTER'));
    });
  });

  describe('errors', () => {
    it('sends an error event to onError as a provider StreamError and maps nothing after it', () => {
      const error = { type: 'overloaded_error', message: 'Overloaded' };
      const errorFrame = typedFrame({ type: 'error', error });
      const { steps, returns, errors } = run([messageStart, text(0, 'a'), errorFrame, text(0, 'b')]);
      expect(steps.slice(1)).to.deep.equal([
        ['text', 'a'],
        ['error', 'provider', 'Overloaded'],
      ]);
      expect(returns).to.deep.equal([false, false, true]);
      const streamError = errors[0] as StreamError;
      expect([streamError.code, streamError.body, streamError.frame]).to.deep.equal(['overloaded_error', error, errorFrame.data]);
    });

    it('reads a flat error event, without an error object, as the error itself', () => {
      const { steps, errors } = run([messageStart, typedFrame({ type: 'error', message: 'Gateway overloaded' })]);
      expect(steps.at(-1)).to.deep.equal(['error', 'provider', 'Gateway overloaded']);
      expect((errors[0] as StreamError).code).to.equal(undefined);
    });

    it('sends an error frame whose data is not JSON to onError with that text', () => {
      const { steps } = run([messageStart, { event: 'error', data: 'upstream connect error' }]);
      expect(steps.at(-1)).to.deep.equal(['error', 'provider', 'upstream connect error']);
    });

    it('surfaces unknown events and frames that are not JSON objects raw, and goes on', () => {
      const unknown = typedFrame({ type: 'message_annotation', note: 'new' });
      const garbled = { event: 'content_block_delta', data: '{"type": "content_block_delta", "index": 0' };
      const { steps } = run([messageStart, unknown, garbled, text(0, 'ok'), messageDelta('end_turn'), messageStop]);
      expect(steps.slice(0, 4)).to.deep.equal([...raw(messageStart, unknown, garbled), ['text', 'ok']]);
      expect(steps.at(-1)).to.deep.equal(complete('STOP'));
    });
  });

  it('rejects a frame that is not {event, data} with a TypeError', () => {
    const target = { handler: { onCompleteResponse() {}, onError() {} }, handle: { cancel() {}, isCancelled: () => false } };
    const frame = { event: 'ping', data: { type: 'ping' } } as unknown as SseFrame;
    expect(() => new AnthropicMapper().map(frame, target)).to.throw(TypeError, 'Expected an SSE frame {event, data} with string data, got an object');
  });

  describe('end of stream', () => {
    it('fails a stream cut before message_stop and leaves its open tool call incomplete', () => {
      const { steps, errors } = run([messageStart, blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }), json(0, '{"a":')]);
      expect(steps.slice(2)).to.deep.equal([
        ['toolDelta', 0, 'toolu_a', 'f', '{"a":'],
        ['error', 'truncated', 'The stream ended before message_stop'],
      ]);
      expect(errors).to.have.length(1);
    });

    it('fails a stream that ended mid-frame', () => {
      const { steps } = run([messageStart, text(0, 'a')], true);
      expect(steps.at(-1)).to.deep.equal(['error', 'truncated', 'The stream ended in the middle of a frame, before message_stop']);
    });
  });
});
