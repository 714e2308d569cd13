import { expect } from 'chai';
import { reasoningPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import { toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import { runBody, typedSse, type TypedEvent } from './support';

// SPEC §5, §10: every output item is a part. With the Responses API's default (`store: true`, no
// `include`), a reasoning item streams nothing: an empty summary, no encrypted content. It still
// is a part (reasoning with null text and summary, its `itemId`), so that replaying the turn
// sends it back by id before the function_call / web_search_call / code_interpreter_call items
// that the API requires it for. Hand-written transcripts; expected values written out by hand.

let sequence = 0;
const ev = (type: string, fields: Record<string, unknown> = {}): TypedEvent => ({ type, sequence_number: sequence++, ...fields });
const created = ev('response.created', { response: { id: 'resp_e1', object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } });
const completed = ev('response.completed', { response: { id: 'resp_e1', object: 'response', status: 'completed', model: 'gpt-test', output: [] } });
const added = (at: number, item: Record<string, unknown>): TypedEvent => ev('response.output_item.added', { output_index: at, item });
const done = (at: number, item: Record<string, unknown>): TypedEvent => ev('response.output_item.done', { output_index: at, item });
const emptyReasoning = (at: number, id: string): TypedEvent[] => [added(at, { id, type: 'reasoning', summary: [] }), done(at, { id, type: 'reasoning', summary: [] })];

const webSearch = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'tides' } };
const codeCall = { id: 'ci_1', type: 'code_interpreter_call', status: 'completed', code: 'print(1)', container_id: 'cntr_1', outputs: null };

describe('OpenAI Responses: an empty reasoning item is a part, and replay sends it back', () => {
  it('before a function call: the part holds the item id, thinking stays null, and the next request carries the reasoning item', async () => {
    const run = await runBody(
      typedSse([
        created,
        ...emptyReasoning(0, 'rs_1'),
        added(1, { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'lookup', arguments: '' }),
        ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: '{"q":"tides"}' }),
        done(1, { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'lookup', arguments: '{"q":"tides"}' }),
        completed,
      ]),
      'openai-responses',
    );
    const message = run.response.aiMessage;
    expect(message.parts).to.deep.equal([
      reasoningPart(null, { attributes: { itemId: 'rs_1' } }),
      toolCallPart({ id: 'call_1', type: 'function', name: 'lookup', arguments: '{"q":"tides"}' }, { attributes: { itemId: 'fc_1' } }),
    ]);
    expect(message.thinking).to.equal(null);
    const result = toolExecutionResultMessage({ id: 'call_1', name: 'lookup', arguments: '{"q":"tides"}' }, 'high tide at noon');
    expect(toOpenAIResponsesInput([userMessage('Tides?'), message, result]).input).to.deep.equal([
      { role: 'user', content: 'Tides?' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":"tides"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'high tide at noon' },
    ]);
  });

  it('before a web_search_call and a code_interpreter_call: each reasoning item keeps its place in stream order', async () => {
    const run = await runBody(
      typedSse([
        created,
        ...emptyReasoning(0, 'rs_1'),
        added(1, { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }),
        done(1, webSearch),
        ...emptyReasoning(2, 'rs_2'),
        added(3, { id: 'ci_1', type: 'code_interpreter_call', status: 'in_progress' }),
        done(3, codeCall),
        completed,
      ]),
      'openai-responses',
    );
    const message = run.response.aiMessage;
    expect(message.parts).to.deep.equal([
      reasoningPart(null, { attributes: { itemId: 'rs_1' } }),
      unknownPart('openai', 'web_search_call', JSON.stringify(webSearch), { attributes: { itemId: 'ws_1' } }),
      reasoningPart(null, { attributes: { itemId: 'rs_2' } }),
      unknownPart('openai', 'code_interpreter_call', JSON.stringify(codeCall), { attributes: { itemId: 'ci_1' } }),
    ]);
    expect(toOpenAIResponsesInput([userMessage('q'), message]).input).to.deep.equal([
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      webSearch,
      { type: 'reasoning', id: 'rs_2', summary: [] },
      codeCall,
    ]);
  });

  it('two empty reasoning items back to back stay two parts (one block, one part)', async () => {
    const run = await runBody(typedSse([created, ...emptyReasoning(0, 'rs_1'), ...emptyReasoning(1, 'rs_2'), completed]), 'openai-responses');
    expect(run.response.aiMessage.parts).to.deep.equal([reasoningPart(null, { attributes: { itemId: 'rs_1' } }), reasoningPart(null, { attributes: { itemId: 'rs_2' } })]);
  });
});
