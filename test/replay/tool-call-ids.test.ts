import { expect } from 'chai';
import { aiMessage, toolExecutionRequest } from '../../lib/handler/values';
import { textPart, toolCallPart } from '../../lib/parts/factories';
import { toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import { finalMessage, namedSse } from './replay-support';

// Gemini (2.x) and Ollama may give a tool call no id. Gemini's id is optional and Ollama has
// none: they go back without one. OpenAI Chat, Responses and Anthropic require one: the call gets
// `partstream-call-<n>` (n counting id-less calls from 1 in the conversation), and its result the
// same id, found by the tool's name among the calls not yet answered.
describe('tool calls without an id', () => {
  const call = (name: string, args: string) => toolCallPart({ id: null, type: 'function', name, arguments: args });
  const turn = aiMessage([textPart('On it.'), call('weather', '{"city":"Oslo"}'), call('time', '{}'), call('weather', '{"city":"Rome"}')]);
  const request = (name: string, args: string) => toolExecutionRequest({ id: null, name, arguments: args });
  // Results in another order than the calls: each finds the oldest unanswered call of its name.
  const history = [
    userMessage('q'),
    turn,
    toolExecutionResultMessage(request('time', '{}'), 'noon'),
    toolExecutionResultMessage(request('weather', '{"city":"Oslo"}'), 'cold'),
    toolExecutionResultMessage(request('weather', '{"city":"Rome"}'), 'warm'),
  ];

  it('OpenAI Chat: made-up ids on the calls, the same ids on their results', () => {
    expect(toOpenAIChatMessages(history).messages.slice(1)).to.deep.equal([
      {
        role: 'assistant',
        content: 'On it.',
        tool_calls: [
          { id: 'partstream-call-1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          { id: 'partstream-call-2', type: 'function', function: { name: 'time', arguments: '{}' } },
          { id: 'partstream-call-3', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'partstream-call-2', content: 'noon' },
      { role: 'tool', tool_call_id: 'partstream-call-1', content: 'cold' },
      { role: 'tool', tool_call_id: 'partstream-call-3', content: 'warm' },
    ]);
  });

  it('OpenAI Responses: made-up call_ids on function_call and function_call_output', () => {
    expect(toOpenAIResponsesInput(history).input.slice(1)).to.deep.equal([
      { type: 'message', role: 'assistant', content: 'On it.' },
      { type: 'function_call', call_id: 'partstream-call-1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'partstream-call-2', name: 'time', arguments: '{}' },
      { type: 'function_call', call_id: 'partstream-call-3', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call_output', call_id: 'partstream-call-2', output: 'noon' },
      { type: 'function_call_output', call_id: 'partstream-call-1', output: 'cold' },
      { type: 'function_call_output', call_id: 'partstream-call-3', output: 'warm' },
    ]);
  });

  it('Anthropic: made-up ids on tool_use and tool_result', () => {
    expect(toAnthropicMessages(history).messages.slice(1)).to.deep.equal([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'On it.' },
          { type: 'tool_use', id: 'partstream-call-1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'partstream-call-2', name: 'time', input: {} },
          { type: 'tool_use', id: 'partstream-call-3', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'partstream-call-2', content: 'noon' },
          { type: 'tool_result', tool_use_id: 'partstream-call-1', content: 'cold' },
          { type: 'tool_result', tool_use_id: 'partstream-call-3', content: 'warm' },
        ],
      },
    ]);
  });

  it("Gemini and Ollama: no id at all (Gemini's is optional, Ollama has none)", () => {
    const gemini = JSON.stringify(toGeminiContents(history));
    const ollama = JSON.stringify(toOllamaMessages(history));
    for (const request of [gemini, ollama]) {
      expect(request).to.not.contain('"id"');
      expect(request).to.not.contain('partstream-call');
      expect(request).to.not.contain('""');
    }
  });

  it('a result without an id that answers no id-less call is a TypeError naming the tool and the provider', () => {
    const orphan = [userMessage('q'), toolExecutionResultMessage(request('weather', '{}'), 'cold')];
    expect(() => toOpenAIChatMessages(orphan)).to.throw(TypeError, /tool result for "weather" to have an id \(OpenAI Chat requires one\)/);
    expect(() => toOpenAIResponsesInput(orphan)).to.throw(TypeError, /"weather".*OpenAI Responses requires one/);
    expect(() => toAnthropicMessages(orphan)).to.throw(TypeError, /"weather".*Anthropic requires one/);
  });

  it('a call with an id keeps it, and made-up ids never count it', () => {
    const mixed = aiMessage([toolCallPart({ id: 'call_real', type: 'function', name: 'a', arguments: '{}' }), call('b', '{}')]);
    const out = toOpenAIChatMessages([mixed]).messages[0] as { tool_calls: Array<{ id: string }> };
    expect(out.tool_calls.map((c) => c.id)).to.deep.equal(['call_real', 'partstream-call-1']);
  });
});

describe('OpenAI Responses custom tool calls', () => {
  const item = { id: 'ctc_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_sql', name: 'run_sql', input: 'SELECT 1;' };
  const wire = namedSse([
    { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', model: 'gpt-5', output: [] } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...item, status: 'in_progress', input: '' } },
    { type: 'response.custom_tool_call_input.delta', sequence_number: 2, item_id: 'ctc_1', output_index: 0, delta: 'SELECT ' },
    { type: 'response.custom_tool_call_input.delta', sequence_number: 3, item_id: 'ctc_1', output_index: 0, delta: '1;' },
    { type: 'response.custom_tool_call_input.done', sequence_number: 4, item_id: 'ctc_1', output_index: 0, input: 'SELECT 1;' },
    { type: 'response.output_item.done', sequence_number: 5, output_index: 0, item },
    { type: 'response.completed', sequence_number: 6, response: { id: 'resp_1', status: 'completed', model: 'gpt-5', output: [item] } },
  ]);

  it('go back as custom_tool_call with their input, their result as custom_tool_call_output', async () => {
    const ai = await finalMessage('openai-responses', wire);
    const { input } = toOpenAIResponsesInput([userMessage('q'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, '1')]);
    expect(input.slice(1)).to.deep.equal([
      { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_sql', name: 'run_sql', input: 'SELECT 1;' },
      { type: 'custom_tool_call_output', call_id: 'call_sql', output: '1' },
    ]);
  });

  it('a function call next to it stays a function_call', async () => {
    const fn = toolCallPart({ id: 'call_f', type: 'function', name: 'f', arguments: '{"a":1}' }, { attributes: { itemId: 'fc_1' } });
    const custom = toolCallPart({ id: 'call_c', type: 'function', name: 'c', arguments: 'free text' }, { attributes: { itemId: 'ctc_2', itemType: 'custom_tool_call' } });
    const { input } = toOpenAIResponsesInput([aiMessage([fn, custom])]);
    expect(input).to.deep.equal([
      { type: 'function_call', id: 'fc_1', call_id: 'call_f', name: 'f', arguments: '{"a":1}' },
      { type: 'custom_tool_call', id: 'ctc_2', call_id: 'call_c', name: 'c', input: 'free text' },
    ]);
  });
});
