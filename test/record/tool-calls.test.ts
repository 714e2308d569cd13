import { expect } from 'chai';
import fc from 'fast-check';
import type { ChatResponse } from '../../lib/handler/types';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import type { MessagePart } from '../../lib/parts/types';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { trackedSource } from '../support/chunk-sources';
import { recordingHandler, type Recorded } from '../support/recording-handler';

// The final message is the complete record of the tool calls: a call cut off by a length stop
// stays in it marked incomplete (and is never reported complete), calls that share an id keep a
// part each, a call that never got a name is no tool call, and OpenRouter's reasoning_details
// reach the thinking once, with what must be replayed.

type Frame = readonly [event: string | null, data: unknown];

function sse(frames: readonly Frame[]): string {
  return frames.map(([event, data]) => `${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');
}

function ndjson(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

interface Run {
  /** The callbacks, raw events reduced to a marker (their exact frames are other tests' business). */
  readonly calls: unknown[];
  readonly response: ChatResponse;
}

async function run(body: string, format: WireFormat): Promise<Run> {
  const handler = recordingHandler();
  const outcome = await consumeStream(trackedSource([body]), handler, { format });
  if (outcome.status !== 'completed') throw new Error(`Expected a completed stream, got ${outcome.status}: ${JSON.stringify(handler.calls)}`);
  const calls = handler.calls.map((call: Recorded) => {
    switch (call.on) {
      case 'unmappedRawEvent':
        return 'raw';
      case 'completeResponse':
        return 'completeResponse';
      case 'partialResponse':
      case 'partialThinking':
        return [call.on, call.text];
      case 'partialToolCall':
        return [call.on, call.index, call.id, call.name, call.partialArguments];
      case 'completeToolCall':
        return [call.on, call.index, call.id, call.name, call.arguments];
      case 'error':
        return [call.on, call.name, call.message];
    }
  });
  // The requests to execute are exactly the calls reported complete, in order (SPEC §1).
  const reported = handler.calls.flatMap((call: Recorded) => (call.on === 'completeToolCall' ? [{ id: call.id, name: call.name, arguments: call.arguments }] : []));
  expect(outcome.response.aiMessage.toolExecutionRequests, 'toolExecutionRequests').to.deep.equal(reported);
  return { calls, response: outcome.response };
}

function call(id: string | null, name: string | null, args: string): MessagePart {
  return toolCallPart({ id, type: 'function', name, arguments: args });
}

function incomplete(id: string | null, name: string | null, args: string): MessagePart {
  return toolCallPart({ id, type: 'function', name, arguments: args }, { attributes: { incomplete: 'true' } });
}

/** An OpenAI Responses tool call's part: it keeps its output item's id. */
function itemCall(itemId: string, id: string | null, name: string | null, args: string, cut = false): MessagePart {
  return toolCallPart({ id, type: 'function', name, arguments: args }, { attributes: cut ? { incomplete: 'true', itemId } : { itemId } });
}

// ---- transcript pieces, per format ----

const chat = (delta: unknown, finish: string | null = null): Frame => [
  null,
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }] },
];
const DONE: Frame = [null, '[DONE]'];

const messageStart: Frame = [
  'message_start',
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
];
const blockStart = (index: number, block: unknown): Frame => ['content_block_start', { type: 'content_block_start', index, content_block: block }];
const textDelta = (index: number, text: string): Frame => ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }];
const jsonDelta = (index: number, json: string): Frame => ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } }];
const blockStop = (index: number): Frame => ['content_block_stop', { type: 'content_block_stop', index }];
const messageDelta = (stopReason: string): Frame => ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 9 } }];
const messageStop: Frame = ['message_stop', { type: 'message_stop' }];

const responses = (type: string, fields: Record<string, unknown>): Frame => [type, { type, ...fields }];
const created = responses('response.created', { response: { id: 'resp_1', status: 'in_progress', model: 'gpt-test', output: [] } });
const callAdded = (outputIndex: number, itemId: string, callId: string | null, name: string): Frame =>
  responses('response.output_item.added', {
    output_index: outputIndex,
    item: { id: itemId, type: 'function_call', status: 'in_progress', ...(callId === null ? {} : { call_id: callId }), name, arguments: '' },
  });
const argsDelta = (outputIndex: number, itemId: string, delta: string): Frame => responses('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
const argsDone = (outputIndex: number, itemId: string, args: string): Frame => responses('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, arguments: args });
const completed = responses('response.completed', { response: { id: 'resp_1', status: 'completed', model: 'gpt-test', output: [] } });
const incompleteForLength = responses('response.incomplete', {
  response: { id: 'resp_1', status: 'incomplete', model: 'gpt-test', output: [], incomplete_details: { reason: 'max_output_tokens' } },
});

const gemini = (parts: unknown[], finishReason?: string): Frame => [
  null,
  { candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }], modelVersion: 'gemini-test', responseId: 'g1' },
];

const ollama = (message: Record<string, unknown>, done?: string): unknown => ({
  model: 'llama-test',
  message: { role: 'assistant', content: '', ...message },
  done: done !== undefined,
  ...(done === undefined ? {} : { done_reason: done }),
});

describe('The final message keeps every tool call', () => {
  describe('a call cut by a length stop stays incomplete and is never reported complete', () => {
    it('Anthropic: a tool_use block without content_block_stop before stop_reason max_tokens', async () => {
      const { calls, response } = await run(
        sse([
          messageStart,
          blockStart(0, { type: 'text', text: '' }),
          textDelta(0, 'Writing.'),
          blockStop(0),
          blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'make_file', input: {} }),
          jsonDelta(1, '{"name": "a.txt", "text": "Hel'),
          messageDelta('max_tokens'),
          messageStop,
        ]),
        'anthropic',
      );
      expect(calls).to.deep.equal([
        'raw',
        'raw',
        ['partialResponse', 'Writing.'],
        'raw',
        'raw',
        ['partialToolCall', 0, 'toolu_1', 'make_file', '{"name": "a.txt", "text": "Hel'],
        'raw',
        'raw',
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([textPart('Writing.'), incomplete('toolu_1', 'make_file', '{"name": "a.txt", "text": "Hel')]);
      expect(response.aiMessage.toolExecutionRequests).to.deep.equal([]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('Anthropic: a call that stopped before the cut completes, and the response still finishes LENGTH', async () => {
      const { calls, response } = await run(
        sse([
          messageStart,
          blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
          jsonDelta(0, '{"a":1}'),
          blockStop(0),
          blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'g', input: {} }),
          jsonDelta(1, '{"b":'),
          messageDelta('max_tokens'),
          messageStop,
        ]),
        'anthropic',
      );
      expect(calls.filter((c) => c !== 'raw')).to.deep.equal([
        ['partialToolCall', 0, 'toolu_1', 'f', '{"a":1}'],
        ['completeToolCall', 0, 'toolu_1', 'f', '{"a":1}'],
        ['partialToolCall', 1, 'toolu_2', 'g', '{"b":'],
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([call('toolu_1', 'f', '{"a":1}'), incomplete('toolu_2', 'g', '{"b":')]);
      expect(response.aiMessage.toolExecutionRequests).to.deep.equal([{ id: 'toolu_1', name: 'f', arguments: '{"a":1}' }]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('OpenAI Chat: tool_calls deltas, then finish_reason "length"', async () => {
      const { calls, response } = await run(
        sse([
          chat({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
          chat({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
          chat({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{"q":"ab' } }] }),
          chat({}, 'length'),
          DONE,
        ]),
        'openai-chat',
      );
      expect(calls).to.deep.equal([
        'raw',
        ['partialToolCall', 0, 'call_1', 'f', '{"a":1}'],
        ['completeToolCall', 0, 'call_1', 'f', '{"a":1}'],
        ['partialToolCall', 1, 'call_2', 'g', '{"q":"ab'],
        'raw',
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([call('call_1', 'f', '{"a":1}'), incomplete('call_2', 'g', '{"q":"ab')]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('OpenAI Responses: a function_call item never done, then response.incomplete for max_output_tokens', async () => {
      const { calls, response } = await run(sse([created, callAdded(0, 'fc_1', 'call_1', 'lookup'), argsDelta(0, 'fc_1', '{"q":"par'), incompleteForLength]), 'openai-responses');
      expect(calls).to.deep.equal(['raw', 'raw', ['partialToolCall', 0, 'call_1', 'lookup', '{"q":"par'], 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([itemCall('fc_1', 'call_1', 'lookup', '{"q":"par', true)]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('OpenAI Responses: a function_call item done with status "incomplete"', async () => {
      const doneIncomplete = responses('response.output_item.done', {
        output_index: 0,
        item: { id: 'fc_1', type: 'function_call', status: 'incomplete', call_id: 'call_1', name: 'lookup', arguments: '{"q":"par' },
      });
      const { calls, response } = await run(sse([created, callAdded(0, 'fc_1', 'call_1', 'lookup'), argsDelta(0, 'fc_1', '{"q":"par'), doneIncomplete, incompleteForLength]), 'openai-responses');
      expect(calls.filter((c) => c !== 'raw')).to.deep.equal([['partialToolCall', 0, 'call_1', 'lookup', '{"q":"par'], 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([itemCall('fc_1', 'call_1', 'lookup', '{"q":"par', true)]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('Gemini: partialArgs with willContinue, then finishReason MAX_TOKENS', async () => {
      const { calls, response } = await run(
        sse([
          gemini([{ functionCall: { name: 'search', partialArgs: [{ jsonPath: '$.query', stringValue: 'weather in', willContinue: true }], willContinue: true } }]),
          gemini([{ functionCall: { partialArgs: [{ jsonPath: '$.query', stringValue: ' Par', willContinue: true }], willContinue: true } }]),
          gemini([], 'MAX_TOKENS'),
        ]),
        'gemini',
      );
      expect(calls).to.deep.equal([['partialToolCall', 0, null, 'search', '{"query":"weather in'], ['partialToolCall', 0, null, 'search', ' Par'], 'raw', 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([incomplete(null, 'search', '{"query":"weather in Par')]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });

    it('Ollama: calls come whole, so done_reason "length" keeps them complete and finishes LENGTH', async () => {
      const { calls, response } = await run(ndjson([ollama({ tool_calls: [{ function: { name: 'add', arguments: { a: 1 } } }] }), ollama({}, 'length')]), 'ollama');
      expect(calls).to.deep.equal([['completeToolCall', 0, null, 'add', '{"a":1}'], 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([call(null, 'add', '{"a":1}')]);
      expect(response.metadata.finishReason).to.equal('LENGTH');
    });
  });

  describe('calls that share an id, or use an id like an internal key, keep a part each', () => {
    it('OpenAI Chat: two calls with the same id', async () => {
      const { calls, response } = await run(
        sse([
          chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }),
          chat({ tool_calls: [{ index: 1, id: 'call_1', type: 'function', function: { name: 'g', arguments: '{"b":2}' } }] }),
          chat({}, 'tool_calls'),
          DONE,
        ]),
        'openai-chat',
      );
      expect(calls).to.deep.equal([
        ['partialToolCall', 0, 'call_1', 'f', '{"a":1}'],
        ['completeToolCall', 0, 'call_1', 'f', '{"a":1}'],
        ['partialToolCall', 1, 'call_1', 'g', '{"b":2}'],
        ['completeToolCall', 1, 'call_1', 'g', '{"b":2}'],
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([call('call_1', 'f', '{"a":1}'), call('call_1', 'g', '{"b":2}')]);
      expect(response.metadata.finishReason).to.equal('TOOL_EXECUTION');
    });

    it('Anthropic: two tool_use blocks with the same id, text between them', async () => {
      const { calls, response } = await run(
        sse([
          messageStart,
          blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
          jsonDelta(0, '{"a":1}'),
          blockStop(0),
          blockStart(1, { type: 'text', text: '' }),
          textDelta(1, 'and'),
          blockStop(1),
          blockStart(2, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
          jsonDelta(2, '{"a":2}'),
          blockStop(2),
          messageDelta('tool_use'),
          messageStop,
        ]),
        'anthropic',
      );
      expect(calls.filter((c) => c !== 'raw')).to.deep.equal([
        ['partialToolCall', 0, 'toolu_1', 'f', '{"a":1}'],
        ['completeToolCall', 0, 'toolu_1', 'f', '{"a":1}'],
        ['partialResponse', 'and'],
        ['partialToolCall', 1, 'toolu_1', 'f', '{"a":2}'],
        ['completeToolCall', 1, 'toolu_1', 'f', '{"a":2}'],
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([call('toolu_1', 'f', '{"a":1}'), textPart('and'), call('toolu_1', 'f', '{"a":2}')]);
    });

    it('OpenAI Responses: two items with the same call_id', async () => {
      const { response } = await run(
        sse([
          created,
          callAdded(0, 'fc_1', 'call_1', 'f'),
          argsDelta(0, 'fc_1', '{"a":1}'),
          argsDone(0, 'fc_1', '{"a":1}'),
          callAdded(1, 'fc_2', 'call_1', 'f'),
          argsDelta(1, 'fc_2', '{"a":2}'),
          argsDone(1, 'fc_2', '{"a":2}'),
          completed,
        ]),
        'openai-responses',
      );
      expect(response.aiMessage.parts).to.deep.equal([itemCall('fc_1', 'call_1', 'f', '{"a":1}'), itemCall('fc_2', 'call_1', 'f', '{"a":2}')]);
    });

    it('Gemini: a call without id, then a call whose id is the key once derived for it', async () => {
      const { calls, response } = await run(
        sse([
          gemini([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: '$.a', stringValue: 'x', willContinue: false }], willContinue: true } }]),
          gemini([{ functionCall: {} }]),
          gemini([{ functionCall: { name: 'g', id: 'partstream:tool-call#0', partialArgs: [{ jsonPath: '$.b', stringValue: 'y', willContinue: false }], willContinue: true } }]),
          gemini([{ functionCall: {} }], 'STOP'),
        ]),
        'gemini',
      );
      expect(calls.filter((c) => c !== 'raw')).to.deep.equal([
        ['partialToolCall', 0, null, 'f', '{"a":"x"'],
        ['partialToolCall', 0, null, 'f', '}'],
        ['completeToolCall', 0, null, 'f', '{"a":"x"}'],
        ['partialToolCall', 1, 'partstream:tool-call#0', 'g', '{"b":"y"'],
        ['partialToolCall', 1, 'partstream:tool-call#0', 'g', '}'],
        ['completeToolCall', 1, 'partstream:tool-call#0', 'g', '{"b":"y"}'],
        'completeResponse',
      ]);
      expect(response.aiMessage.parts).to.deep.equal([call(null, 'f', '{"a":"x"}'), call('partstream:tool-call#0', 'g', '{"b":"y"}')]);
    });

    it('OpenAI Chat: a call without id, then one whose id is the key once derived for it', async () => {
      const { response } = await run(
        sse([
          chat({ tool_calls: [{ index: 0, type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }),
          chat({ tool_calls: [{ index: 1, id: 'partstream:tool-call#0', type: 'function', function: { name: 'g', arguments: '{"b":2}' } }] }),
          chat({}, 'tool_calls'),
          DONE,
        ]),
        'openai-chat',
      );
      expect(response.aiMessage.parts).to.deep.equal([call(null, 'f', '{"a":1}'), call('partstream:tool-call#0', 'g', '{"b":2}')]);
    });

    it('Ollama: two whole calls with the same id', async () => {
      const { response } = await run(
        ndjson([
          ollama({
            tool_calls: [
              { id: 'c', function: { name: 'f', arguments: {} } },
              { id: 'c', function: { name: 'f', arguments: { n: 2 } } },
            ],
          }),
          ollama({}, 'stop'),
        ]),
        'ollama',
      );
      expect(response.aiMessage.parts).to.deep.equal([call('c', 'f', '{}'), call('c', 'f', '{"n":2}')]);
    });
  });

  describe('only completed calls count as tool calls', () => {
    it('OpenAI Chat: a call that never got a name is kept incomplete, and finish_reason tool_calls is not TOOL_EXECUTION', async () => {
      const { calls, response } = await run(
        sse([
          chat({ content: 'Let me check.' }),
          chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { arguments: '{"a":' } }] }),
          chat({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
          chat({}, 'tool_calls'),
          DONE,
        ]),
        'openai-chat',
      );
      // The nameless call's deltas map to no callback: they surface raw.
      expect(calls).to.deep.equal([['partialResponse', 'Let me check.'], 'raw', 'raw', 'raw', 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([textPart('Let me check.'), incomplete('call_1', null, '{"a":1}')]);
      expect(response.aiMessage.toolExecutionRequests).to.deep.equal([]);
      expect(response.metadata.finishReason).to.equal('OTHER');
    });

    it('OpenAI Chat: a nameless call beside a complete one does not stop TOOL_EXECUTION', async () => {
      const { response } = await run(
        sse([
          chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { arguments: '{}' } }] }),
          chat({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
          chat({}, 'tool_calls'),
          DONE,
        ]),
        'openai-chat',
      );
      expect(response.aiMessage.parts).to.deep.equal([incomplete('call_1', null, '{}'), call('call_2', 'g', '{}')]);
      expect(response.aiMessage.toolExecutionRequests).to.deep.equal([{ id: 'call_2', name: 'g', arguments: '{}' }]);
      expect(response.metadata.finishReason).to.equal('TOOL_EXECUTION');
    });

    it('OpenAI Responses: an arguments stream for an item never announced, and never named, is kept incomplete', async () => {
      const { response } = await run(sse([created, argsDelta(0, 'fc_9', '{"x":1}'), completed]), 'openai-responses');
      expect(response.aiMessage.parts).to.deep.equal([itemCall('fc_9', null, null, '{"x":1}', true)]);
      expect(response.metadata.finishReason).to.equal('STOP');
    });

    it('Ollama: a call without a name is kept incomplete', async () => {
      const { response } = await run(ndjson([ollama({ tool_calls: [{ function: { arguments: { a: 1 } } }] }), ollama({}, 'stop')]), 'ollama');
      expect(response.aiMessage.parts).to.deep.equal([incomplete(null, null, '{"a":1}')]);
      expect(response.metadata.finishReason).to.equal('STOP');
    });
  });

  describe('OpenRouter reasoning_details (Chat Completions)', () => {
    const payload = (entry: unknown) => ({ provider: 'openrouter', kind: 'reasoning_details', data: JSON.stringify(entry) });

    it('delivers the thinking once when a chunk carries it both as reasoning and as reasoning_details', async () => {
      const signed = { type: 'reasoning.text', text: ' more.', signature: 'sig_1', format: 'anthropic-claude-v1', index: 0 };
      const { calls, response } = await run(
        sse([
          chat({ role: 'assistant', content: '', reasoning: 'Think', reasoning_details: [{ type: 'reasoning.text', text: 'Think', format: 'anthropic-claude-v1', index: 0 }] }),
          chat({ content: '', reasoning: ' more.', reasoning_details: [signed] }),
          chat({ content: 'Answer.' }),
          chat({}, 'stop'),
          DONE,
        ]),
        'openai-chat',
      );
      expect(calls).to.deep.equal([['partialThinking', 'Think'], ['partialThinking', ' more.'], ['partialResponse', 'Answer.'], 'raw', 'completeResponse']);
      expect(response.aiMessage.parts).to.deep.equal([reasoningPart('Think more.', { payload: payload(signed) }), textPart('Answer.')]);
    });

    it('keeps an encrypted entry as a text-less thinking payload, and reads summaries as thinking', async () => {
      const encrypted = { type: 'reasoning.encrypted', data: 'gAAAA…', id: 'rs_1', format: 'openai-responses-v1', index: 1 };
      const handler = recordingHandler();
      const thinking: unknown[] = [];
      handler.onPartialThinking = (partial) => void thinking.push([partial.text, partial.payload ?? null]);
      const outcome = await consumeStream(
        trackedSource([sse([chat({ reasoning_details: [{ type: 'reasoning.summary', summary: 'Plan: add.', index: 0 }, encrypted] }), chat({ content: '3' }, 'stop'), DONE])]),
        handler,
        { format: 'openai-chat' },
      );
      expect(thinking).to.deep.equal([
        ['Plan: add.', null],
        ['', payload(encrypted)],
      ]);
      expect(outcome.status).to.equal('completed');
      if (outcome.status === 'completed') {
        expect(outcome.response.aiMessage.thinking).to.equal('Plan: add.');
        expect(outcome.response.aiMessage.parts.map((part) => part.payload)).to.deep.equal([payload(encrypted), null]);
      }
    });

    it('falls back to plain reasoning when the reasoning_details of a chunk carry no text', async () => {
      const { calls } = await run(sse([chat({ reasoning: 'Hmm', reasoning_details: [{ type: 'reasoning.encrypted', data: 'x' }] }), chat({}, 'stop'), DONE]), 'openai-chat');
      expect(calls).to.deep.equal([['partialThinking', ''], ['partialThinking', 'Hmm'], 'raw', 'completeResponse']);
    });
  });
});

// ---- property: every completed call has its part, in order; only cut calls are incomplete ----

interface ModelCall {
  readonly kind: 'call';
  readonly id: string | null;
  readonly name: string;
  /** The pieces of the string value of the call's one argument, `q`. */
  readonly pieces: readonly string[];
}
type ModelItem = { readonly kind: 'text'; readonly text: string } | ModelCall;
interface Model {
  readonly items: readonly ModelItem[];
  /** The stream stops for length while the last call's arguments still stream. */
  readonly cut: boolean;
}

const piece = fc.constantFrom('a', 'b c', 'é', '"', '\\', '1');
const modelCall: fc.Arbitrary<ModelCall> = fc.record({
  kind: fc.constant('call' as const),
  id: fc.constantFrom<string | null>('call_1', 'call_1', 'call_2', 'partstream:tool-call#0', 'partstream:tool-call#1', null),
  name: fc.constantFrom('f', 'g'),
  pieces: fc.array(piece, { minLength: 1, maxLength: 3 }),
});
const modelItem: fc.Arbitrary<ModelItem> = fc.oneof(fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom('Hi', ' there', 'ok') }), modelCall);
const model: fc.Arbitrary<Model> = fc
  .tuple(fc.array(modelItem, { maxLength: 5 }), modelCall, fc.boolean(), fc.boolean())
  .map(([items, last, withLast, cut]) => ({ items: withLast || cut ? [...items, last] : items, cut }));

/** The argument JSON text of a call, split where its pieces end (the first fragment opens the object). */
function fragments(call: ModelCall, closed: boolean): string[] {
  const parts = call.pieces.map((p, i) => (i === 0 ? `{"q":"` : '') + JSON.stringify(p).slice(1, -1));
  if (closed) parts[parts.length - 1] += '"}';
  return parts;
}

function anthropicBody(m: Model): string {
  const frames: Frame[] = [messageStart];
  m.items.forEach((item, index) => {
    const cutHere = m.cut && index === m.items.length - 1;
    if (item.kind === 'text') frames.push(blockStart(index, { type: 'text', text: '' }), textDelta(index, item.text), blockStop(index));
    else {
      frames.push(blockStart(index, { type: 'tool_use', ...(item.id === null ? {} : { id: item.id }), name: item.name, input: {} }));
      for (const f of fragments(item, !cutHere)) frames.push(jsonDelta(index, f));
      if (!cutHere) frames.push(blockStop(index));
    }
  });
  frames.push(messageDelta(m.cut ? 'max_tokens' : 'end_turn'), messageStop);
  return sse(frames);
}

function chatBody(m: Model): string {
  const frames: Frame[] = [];
  let ordinal = 0;
  m.items.forEach((item, index) => {
    const cutHere = m.cut && index === m.items.length - 1;
    if (item.kind === 'text') frames.push(chat({ content: item.text }));
    else {
      const wireIndex = ordinal++;
      const [first, ...rest] = fragments(item, !cutHere);
      frames.push(chat({ tool_calls: [{ index: wireIndex, ...(item.id === null ? {} : { id: item.id }), type: 'function', function: { name: item.name, arguments: first } }] }));
      for (const f of rest) frames.push(chat({ tool_calls: [{ index: wireIndex, function: { arguments: f } }] }));
    }
  });
  frames.push(chat({}, m.cut ? 'length' : ordinal > 0 ? 'tool_calls' : 'stop'), DONE);
  return sse(frames);
}

function responsesBody(m: Model): string {
  const frames: Frame[] = [created];
  m.items.forEach((item, index) => {
    const cutHere = m.cut && index === m.items.length - 1;
    if (item.kind === 'text') {
      frames.push(responses('response.output_text.delta', { item_id: `msg_${index}`, output_index: index, content_index: 0, delta: item.text }));
    } else {
      const itemId = `fc_${index}`;
      frames.push(callAdded(index, itemId, item.id, item.name));
      const parts = fragments(item, !cutHere);
      for (const f of parts) frames.push(argsDelta(index, itemId, f));
      if (!cutHere) frames.push(argsDone(index, itemId, parts.join('')));
    }
  });
  frames.push(m.cut ? incompleteForLength : completed);
  return sse(frames);
}

function geminiBody(m: Model): string {
  const frames: Frame[] = [];
  m.items.forEach((item, index) => {
    const cutHere = m.cut && index === m.items.length - 1;
    if (item.kind === 'text') {
      frames.push(gemini([{ text: item.text }]));
      return;
    }
    item.pieces.forEach((p, i) => {
      const arg = { jsonPath: '$.q', stringValue: p, willContinue: i < item.pieces.length - 1 || cutHere };
      const head = i === 0 ? { name: item.name, ...(item.id === null ? {} : { id: item.id }) } : {};
      frames.push(gemini([{ functionCall: { ...head, partialArgs: [arg], willContinue: true } }]));
    });
    if (!cutHere) frames.push(gemini([{ functionCall: {} }]));
  });
  frames.push(gemini([], m.cut ? 'MAX_TOKENS' : 'STOP'));
  return sse(frames);
}

function ollamaBody(m: Model): string {
  const lines = m.items.map((item) =>
    item.kind === 'text'
      ? ollama({ content: item.text })
      : ollama({ tool_calls: [{ ...(item.id === null ? {} : { id: item.id }), function: { name: item.name, arguments: { q: item.pieces.join('') } } }] }),
  );
  lines.push(ollama({}, m.cut ? 'length' : 'stop'));
  return ndjson(lines);
}

const BODIES: Readonly<Record<WireFormat, (m: Model) => string>> = {
  anthropic: anthropicBody,
  'openai-chat': chatBody,
  'openai-responses': responsesBody,
  gemini: geminiBody,
  ollama: ollamaBody,
};

describe('The final message keeps every tool call (property over every format, seed 20240613)', () => {
  for (const format of Object.keys(BODIES) as WireFormat[]) {
    it(`${format}: every completed call has its part, in order, and only a call cut by the length stop is incomplete`, async () => {
      await fc.assert(
        fc.asyncProperty(model, async (m) => {
          const handler = recordingHandler();
          const outcome = await consumeStream(trackedSource([BODIES[format](m)]), handler, { format });
          expect(outcome.status).to.equal('completed');
          if (outcome.status !== 'completed') return;
          const reported = handler.calls.flatMap((c) => (c.on === 'completeToolCall' ? [{ id: c.id, name: c.name, arguments: c.arguments }] : []));
          const toolParts = outcome.response.aiMessage.parts.flatMap((part) => (part.type === 'tool_call' ? [part] : []));
          const completeParts = toolParts.filter((part) => part.attributes.incomplete !== 'true');
          const incompleteParts = toolParts.filter((part) => part.attributes.incomplete === 'true');
          expect(completeParts.map((part) => ({ id: part.toolCall.id, name: part.toolCall.name, arguments: part.toolCall.arguments }))).to.deep.equal(reported);
          const modelCalls = m.items.filter((item) => item.kind === 'call').length;
          // Ollama sends calls whole: none can be cut. Elsewhere the cut call is the one incomplete part.
          const cutCalls = m.cut && format !== 'ollama' ? 1 : 0;
          expect(incompleteParts.length).to.equal(cutCalls);
          expect(reported.length).to.equal(modelCalls - cutCalls);
          const expectedReason = m.cut ? 'LENGTH' : reported.length > 0 ? 'TOOL_EXECUTION' : 'STOP';
          expect(outcome.response.metadata.finishReason).to.equal(expectedReason);
        }),
        { seed: 20240613, numRuns: 60 },
      );
    });
  }
});
