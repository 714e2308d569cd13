import { expect } from 'chai';
import { toolExecutionRequest } from '../../lib/handler/values';
import { systemMessage, toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import { finalMessage, namedSse, ndjson, sse } from './replay-support';

// Opaque values as a provider sends them: base64 with `+`, `/`, `=` and a long tail, byte for byte.
const SIGNATURE = 'EqQBCkYIBxgCKkB+s1g/n4tUr3=' + 'x'.repeat(300) + '==';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP+==';
const ENCRYPTED = 'gAAAAABpPDIVOKrsHNZ0Gwso_-EojH4yZFL50qlfUzM7FREdQlpk==';
const THOUGHT_SIG = 'CiQBcsjafD3+/abc=';
const TEXT_SIG = 'Ct0BAb4+9vt/text+sig==';
const CALL_SIG = 'EpEgCo4gAb4+9vvWwdN+Nk==';

describe('toAnthropicMessages — an Anthropic transcript replayed', () => {
  const input = { location: 'Paris', units: ['C'], nested: { deep: [1, 2.5, null, true] } };
  const wire = namedSse([
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Checking the ' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'weather.' } },
    { type: 'content_block_stop', index: 2 },
    { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } },
    { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"location": "Paris", "units": ["C"],' } },
    { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: ' "nested": {"deep": [1, 2.5, null, true]}}' } },
    { type: 'content_block_stop', index: 3 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } },
    { type: 'message_stop' },
  ]);

  it('gives back thinking with its signature, redacted thinking with its data, text and tool_use, in wire order', async () => {
    const ai = await finalMessage('anthropic', wire);
    const request = ai.toolExecutionRequests[0]!;
    const { system, messages } = toAnthropicMessages([systemMessage('Be brief.'), userMessage('Weather in Paris?'), ai, toolExecutionResultMessage(request, '21 °C'), userMessage('Thanks')]);
    expect(system).to.equal('Be brief.');
    expect(messages).to.deep.equal([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: SIGNATURE },
          { type: 'redacted_thinking', data: REDACTED },
          { type: 'text', text: 'Checking the weather.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '21 °C' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('gathers the results of parallel calls into one user turn and marks an error', async () => {
    const a = toolExecutionRequest({ id: 'toolu_a', name: 'f', arguments: '{}' });
    const b = toolExecutionRequest({ id: 'toolu_b', name: 'g', arguments: '{}' });
    const { messages } = toAnthropicMessages([toolExecutionResultMessage(a, 'ok'), toolExecutionResultMessage(b, 'boom', { isError: true })]);
    expect(messages).to.deep.equal([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'boom', is_error: true },
        ],
      },
    ]);
  });
});

describe('toOpenAIResponsesInput — an OpenAI Responses transcript replayed', () => {
  const reasoningItem = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: '**Plan** call it.' }], encrypted_content: ENCRYPTED };
  const messageItem = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: 'Calling.' }] };
  const callItem = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'calc', arguments: '{"a":19,"b":3}' };
  const webItem = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'x' } };
  const wire = namedSse([
    { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', model: 'o4', output: [] } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
    { type: 'response.reasoning_summary_part.added', sequence_number: 2, item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', sequence_number: 3, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: '**Plan** ' },
    { type: 'response.reasoning_summary_text.delta', sequence_number: 4, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'call it.' },
    { type: 'response.reasoning_summary_text.done', sequence_number: 5, item_id: 'rs_1', output_index: 0, summary_index: 0, text: '**Plan** call it.' },
    { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item: reasoningItem },
    { type: 'response.output_item.added', sequence_number: 7, output_index: 1, item: webItem },
    { type: 'response.output_item.done', sequence_number: 8, output_index: 1, item: webItem },
    { type: 'response.output_item.added', sequence_number: 9, output_index: 2, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.output_text.delta', sequence_number: 10, item_id: 'msg_1', output_index: 2, content_index: 0, delta: 'Calling.' },
    { type: 'response.output_text.done', sequence_number: 11, item_id: 'msg_1', output_index: 2, content_index: 0, text: 'Calling.' },
    { type: 'response.output_item.done', sequence_number: 12, output_index: 2, item: messageItem },
    { type: 'response.output_item.added', sequence_number: 13, output_index: 3, item: { ...callItem, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', sequence_number: 14, item_id: 'fc_1', output_index: 3, delta: '{"a":19,' },
    { type: 'response.function_call_arguments.delta', sequence_number: 15, item_id: 'fc_1', output_index: 3, delta: '"b":3}' },
    { type: 'response.function_call_arguments.done', sequence_number: 16, item_id: 'fc_1', output_index: 3, arguments: '{"a":19,"b":3}' },
    { type: 'response.output_item.done', sequence_number: 17, output_index: 3, item: callItem },
    {
      type: 'response.completed',
      sequence_number: 18,
      response: { id: 'resp_1', status: 'completed', model: 'o4', output: [reasoningItem, webItem, messageItem, callItem], usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } },
    },
  ]);

  it('gives back the reasoning item with its id, summary and encrypted_content, the unknown item, the message and the call', async () => {
    const ai = await finalMessage('openai-responses', wire);
    const { instructions, input } = toOpenAIResponsesInput([systemMessage('Be exact.'), userMessage('19*3?'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, '57')]);
    expect(instructions).to.equal('Be exact.');
    expect(input).to.deep.equal([
      { role: 'user', content: '19*3?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: '**Plan** call it.' }], encrypted_content: ENCRYPTED },
      webItem,
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Calling.', annotations: [] }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'calc', arguments: '{"a":19,"b":3}' },
      { type: 'function_call_output', call_id: 'call_1', output: '57' },
    ]);
  });
});

describe('toGeminiContents — a Gemini transcript replayed', () => {
  const wire = sse([
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking it over.', thought: true, thoughtSignature: THOUGHT_SIG }] } }] },
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Let me check.', thoughtSignature: TEXT_SIG }] } }] },
    { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Paris', days: 3 } }, thoughtSignature: CALL_SIG }] } }] },
    {
      candidates: [{ content: { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 },
    },
  ]);

  it('gives back each thought signature on its own part, the function call with its args, the unknown part', async () => {
    const ai = await finalMessage('gemini', wire);
    const { systemInstruction, contents } = toGeminiContents([systemMessage('Be brief.'), userMessage('Weather?'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, 'sunny')]);
    expect(systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
    expect(contents).to.deep.equal([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Thinking it over.', thought: true, thoughtSignature: THOUGHT_SIG },
          { text: 'Let me check.', thoughtSignature: TEXT_SIG },
          { functionCall: { name: 'weather', args: { city: 'Paris', days: 3 } }, thoughtSignature: CALL_SIG },
          { executableCode: { language: 'PYTHON', code: 'print(1)' } },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: 'sunny' } } }] },
    ]);
  });
});

describe('toOpenAIChatMessages — an OpenAI Chat (OpenRouter) transcript replayed', () => {
  const detail = { type: 'reasoning.encrypted', data: ENCRYPTED, id: 'rd_1', format: 'openai-responses-v1', index: 0 };
  const chunk = (delta: unknown, finish: string | null = null): unknown => ({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
  const wire = sse(
    [
      chunk({ role: 'assistant', content: '', reasoning_details: [detail] }),
      chunk({ content: 'Sure.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calc', arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ' 1}' } }] }),
      chunk({}, 'tool_calls'),
    ],
    true,
  );

  it('gives back the text, the tool call with its arguments as sent and reasoning_details on the assistant message', async () => {
    const ai = await finalMessage('openai-chat', wire);
    const { messages } = toOpenAIChatMessages([systemMessage('S'), userMessage('Add'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, '1')]);
    expect(messages).to.deep.equal([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Add' },
      { role: 'assistant', content: 'Sure.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'calc', arguments: '{"a": 1}' } }], reasoning_details: [detail] },
      { role: 'tool', tool_call_id: 'call_1', content: '1' },
    ]);
  });
});

describe('toOllamaMessages — an Ollama transcript replayed', () => {
  const wire = ndjson([
    { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: '', thinking: 'Hmm, ' }, done: false },
    { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: '', thinking: 'weather.' }, done: false },
    { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: 'Checking.' }, done: false },
    { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'weather', arguments: { city: 'Oslo', n: 2 } } }] }, done: false },
    { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 5 },
  ]);

  it('gives back thinking, text and the tool call with object arguments, then a tool message', async () => {
    const ai = await finalMessage('ollama', wire);
    const { messages } = toOllamaMessages([userMessage('Weather?'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, 'cold')]);
    expect(messages).to.deep.equal([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Checking.', thinking: 'Hmm, weather.', tool_calls: [{ function: { name: 'weather', arguments: { city: 'Oslo', n: 2 } } }] },
      { role: 'tool', content: 'cold', tool_name: 'weather' },
    ]);
  });
});
