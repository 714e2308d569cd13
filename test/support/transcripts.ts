import type { WireFormat as AnyWireFormat } from '../../lib/providers/registry';

/**
 * The text wire formats (SSE and NDJSON), whose transcripts this file and the suites keyed by
 * format hold; Bedrock's binary bodies have their own (test/providers/bedrock-converse).
 */
export type TextWireFormat = Exclude<AnyWireFormat, 'bedrock-converse'>;
type WireFormat = TextWireFormat;

// Small hand-written response bodies, one per wire format, each with text (including multibyte
// characters) and, where the format has them, a tool call and usage.

function sse(frames: readonly (readonly [string | null, unknown])[], separator = '\n'): string {
  return frames.map(([event, data]) => `${event === null ? '' : `event: ${event}${separator}`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${separator}${separator}`).join('');
}

const chatChunk = (delta: unknown, finish: string | null = null): unknown => ({
  id: 'chatcmpl-t1',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'gpt-test',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const openaiChat = sse([
  [null, chatChunk({ role: 'assistant', content: '' })],
  [null, chatChunk({ content: 'Grüße, ' })],
  [null, chatChunk({ content: 'world 👋' })],
  [null, chatChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] })],
  [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })],
  [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Zürich"}' } }] })],
  [null, chatChunk({}, 'tool_calls')],
  [null, { id: 'chatcmpl-t1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-test', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }],
  [null, '[DONE]'],
]);

const anthropic = sse([
  [
    'message_start',
    { type: 'message_start', message: { id: 'msg_t1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } },
  ],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello from ' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Köln ☕' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }],
  ['message_stop', { type: 'message_stop' }],
]);

const openaiResponses = sse([
  ['response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_t1', object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } }],
  [
    'response.output_item.added',
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
  ],
  ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi ' }],
  ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'thére' }],
  [
    'response.output_item.added',
    { type: 'response.output_item.added', sequence_number: 4, output_index: 1, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_9', name: 'lookup', arguments: '' } },
  ],
  ['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', sequence_number: 5, item_id: 'fc_1', output_index: 1, delta: '{"q":1}' }],
  ['response.function_call_arguments.done', { type: 'response.function_call_arguments.done', sequence_number: 6, item_id: 'fc_1', output_index: 1, arguments: '{"q":1}' }],
  [
    'response.completed',
    {
      type: 'response.completed',
      sequence_number: 7,
      response: { id: 'resp_t1', object: 'response', status: 'completed', model: 'gpt-test', output: [], usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 } },
    },
  ],
]);

const geminiChunk = (text: string, extra: Record<string, unknown> = {}, tokens = 1): unknown => ({
  candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 4, candidatesTokenCount: tokens, totalTokenCount: 4 + tokens },
  modelVersion: 'gemini-test',
  responseId: 'g1',
});

const gemini = sse(
  [
    [null, geminiChunk('Bonjour ')],
    [null, geminiChunk('à tous ✨', { finishReason: 'STOP' }, 3)],
  ],
  '\r\n',
);

const ollamaLine = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ model: 'llama-test', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done: false, ...extra })}\n`;

const ollama =
  ollamaLine({ thinking: 'Hmm… ' }) +
  ollamaLine({ content: 'Hallo ' }) +
  ollamaLine({ content: 'Welt 🌍' }) +
  ollamaLine({ tool_calls: [{ function: { name: 'add', arguments: { a: 1, b: 2 } } }] }) +
  ollamaLine({}, { done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 3 });

/** A complete response body per wire format. */
export const TRANSCRIPTS: Readonly<Record<WireFormat, string>> = {
  'openai-chat': openaiChat,
  anthropic,
  'openai-responses': openaiResponses,
  gemini,
  ollama,
};

/** What each transcript aggregates to. */
export const TRANSCRIPT_RESULTS: Readonly<Record<WireFormat, { text: string; thinking: string | null; toolCalls: { id: string | null; name: string; arguments: string }[] }>> = {
  'openai-chat': { text: 'Grüße, world 👋', thinking: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Zürich"}' }] },
  anthropic: { text: 'Hello from Köln ☕', thinking: null, toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
  'openai-responses': { text: 'Hi thére', thinking: null, toolCalls: [{ id: 'call_9', name: 'lookup', arguments: '{"q":1}' }] },
  gemini: { text: 'Bonjour à tous ✨', thinking: null, toolCalls: [] },
  ollama: { text: 'Hallo Welt 🌍', thinking: 'Hmm… ', toolCalls: [{ id: null, name: 'add', arguments: '{"a":1,"b":2}' }] },
};

/** The wire formats, in a fixed order. */
export const WIRE_FORMATS: readonly WireFormat[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama'];
