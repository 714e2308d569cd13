import type { TextWireFormat as WireFormat } from './transcripts';
import { TRANSCRIPT_RESULTS, TRANSCRIPTS, WIRE_FORMATS } from './transcripts';

// Response bodies written by hand from each provider's documented wire format, so that every
// suite that replays streams has something to replay in a fresh clone (the recorded fixtures
// live outside the repository). Each body carries, for its format: text, reasoning with its
// replay payload, streamed tool calls (parallel ones interleaved), usage, an event no callback
// models, a keep-alive or unknown line, an event whose JSON spans several `data:` lines, and
// either LF or CRLF line ends; a second body per format ends in a provider error.

/** The result a transcript must give, derived by hand from its bytes (not from partstream). */
export interface OwnExpected {
  readonly status: 'completed' | 'failed';
  /** All answer text in stream order, null when none. */
  readonly text: string | null;
  /** All reasoning text in stream order, null when none. */
  readonly reasoning: string | null;
  /**
   * The `data` of every payload the stream sent (Anthropic signature and redacted thinking,
   * Responses encrypted reasoning, Gemini thought signatures on text, thought and function-call
   * parts), in stream order: each one must be on a part of the final message (SPEC §5).
   */
  readonly payloads: readonly string[];
  readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
  /** The normalised finish reason of a completed stream (SPEC §1, §10); null for a failed one. */
  readonly finishReason: 'STOP' | 'LENGTH' | 'TOOL_EXECUTION' | 'CONTENT_FILTER' | 'OTHER' | null;
  /** Input, output and total tokens of a completed stream (SPEC §10), null when it reports none. */
  readonly tokens: readonly [number, number, number] | null;
  /** The provider's error message a failed stream reports. */
  readonly error: string | null;
  /** Text fragments that must appear among the raw (unmapped) events: the events no callback models. */
  readonly raw: readonly string[];
}

/** One hand-written body: a name shaped like a fixture path, its format, bytes and expected result. */
export interface OwnTranscript {
  /** `own/<format>/<name>.<ext>`: shaped like a recorded fixture's path, never one of theirs. */
  readonly file: string;
  readonly format: WireFormat;
  readonly bytes: Uint8Array;
  readonly expected: OwnExpected;
}

/** An SSE frame: `[event name or null, data]`; data is JSON-serialised unless it is a string. */
type Frame = readonly [string | null, unknown] | { readonly comment: string } | { readonly spread: readonly [string | null, unknown] };

/**
 * An SSE body with `eol` line ends. A `spread` frame pretty-prints its JSON over one `data:` line
 * per line (joined with "\n" they are the same JSON); a `comment` frame is a keep-alive line.
 */
function sse(frames: readonly Frame[], eol = '\n'): string {
  return frames
    .map((frame) => {
      if ('comment' in frame) return `: ${frame.comment}${eol}${eol}`;
      const [event, data] = 'spread' in frame ? frame.spread : frame;
      const text = typeof data === 'string' ? data : 'spread' in frame ? JSON.stringify(data, null, 2) : JSON.stringify(data);
      const head = event === null ? '' : `event: ${event}${eol}`;
      return `${head}${text
        .split('\n')
        .map((line) => `data: ${line}`)
        .join(eol)}${eol}${eol}`;
    })
    .join('');
}

const ndjson = (lines: readonly unknown[], eol = '\n'): string => lines.map((line) => `${JSON.stringify(line)}${eol}`).join('');

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

// ── OpenAI Chat Completions ──────────────────────────────────────────────────────────────────

const chat = (delta: unknown, finish: string | null = null): unknown => ({
  id: 'chatcmpl-own1',
  object: 'chat.completion.chunk',
  created: 1700000001,
  model: 'gpt-own',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const openaiChatRich = sse([
  { comment: 'keep-alive' },
  // Azure's first chunk: no choices, only the prompt filter results (no callback models it).
  [null, { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }],
  [null, chat({ role: 'assistant', content: null, reasoning_content: 'Two places, ' })],
  [null, chat({ reasoning_content: 'two calls.' })],
  [null, chat({ content: 'Looking up ' })],
  [null, chat({ content: 'both…' })],
  // Parallel calls as OpenAI streams them: one after the other, the id and name on each call's first delta.
  [null, chat({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] })],
  { spread: [null, chat({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })] },
  [null, chat({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] })],
  [null, chat({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":' } }] })],
  [null, chat({ tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] })],
  [null, chat({}, 'tool_calls')],
  [null, { ...(chat({}) as object), choices: [], usage: { prompt_tokens: 21, completion_tokens: 13, total_tokens: 34, completion_tokens_details: { reasoning_tokens: 4 } } }],
  [null, '[DONE]'],
]);

const openaiChatError = sse(
  [
    [null, chat({ role: 'assistant', content: 'Parti' })],
    [null, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }],
  ],
  '\r\n',
);

// ── OpenAI Responses ─────────────────────────────────────────────────────────────────────────

let sequence = 0;
const rsp = (type: string, fields: Record<string, unknown>): readonly [string, unknown] => [type, { type, sequence_number: sequence++, ...fields }];
const rspSpread = (type: string, fields: Record<string, unknown>): Frame => ({ spread: rsp(type, fields) });
const response = (status: string, extra: Record<string, unknown> = {}): unknown => ({ id: 'resp_own1', object: 'response', status, model: 'gpt-own', output: [], ...extra });
const reasoningItem = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan: two lookups.' }], encrypted_content: 'ZW5jcnlwdGVkLW9uZQ==' };
const webSearchItem = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather Oslo' } };
const callA = { id: 'fc_a', type: 'function_call', status: 'completed', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' };
const callB = { id: 'fc_b', type: 'function_call', status: 'completed', call_id: 'call_b', name: 'get_time', arguments: '{"tz":"CET"}' };

sequence = 0;
const openaiResponsesRich = sse([
  rsp('response.created', { response: response('in_progress') }),
  rsp('response.in_progress', { response: response('in_progress') }),
  rsp('response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
  rsp('response.reasoning_summary_part.added', { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }),
  rsp('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'Plan: ' }),
  rsp('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'two lookups.' }),
  rsp('response.reasoning_summary_text.done', { item_id: 'rs_1', output_index: 0, summary_index: 0, text: 'Plan: two lookups.' }),
  rsp('response.output_item.done', { output_index: 0, item: reasoningItem }),
  rsp('response.output_item.added', { output_index: 1, item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' } }),
  rsp('response.web_search_call.in_progress', { item_id: 'ws_1', output_index: 1 }),
  rsp('response.web_search_call.completed', { item_id: 'ws_1', output_index: 1 }),
  rsp('response.output_item.done', { output_index: 1, item: webSearchItem }),
  rsp('response.output_item.added', { output_index: 2, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
  rsp('response.content_part.added', { item_id: 'msg_1', output_index: 2, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
  rspSpread('response.output_text.delta', { item_id: 'msg_1', output_index: 2, content_index: 0, delta: 'Looking ' }),
  rsp('response.output_text.delta', { item_id: 'msg_1', output_index: 2, content_index: 0, delta: 'up ✓' }),
  rsp('response.output_text.done', { item_id: 'msg_1', output_index: 2, content_index: 0, text: 'Looking up ✓' }),
  rsp('response.output_item.done', {
    output_index: 2,
    item: { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Looking up ✓', annotations: [] }] },
  }),
  rsp('response.output_item.added', { output_index: 3, item: { ...callA, status: 'in_progress', arguments: '' } }),
  rsp('response.output_item.added', { output_index: 4, item: { ...callB, status: 'in_progress', arguments: '' } }),
  rsp('response.function_call_arguments.delta', { item_id: 'fc_a', output_index: 3, delta: '{"city":' }),
  rsp('response.function_call_arguments.delta', { item_id: 'fc_b', output_index: 4, delta: '{"tz":"CET"}' }),
  rsp('response.function_call_arguments.delta', { item_id: 'fc_a', output_index: 3, delta: '"Oslo"}' }),
  rsp('response.function_call_arguments.done', { item_id: 'fc_a', output_index: 3, arguments: '{"city":"Oslo"}' }),
  rsp('response.function_call_arguments.done', { item_id: 'fc_b', output_index: 4, arguments: '{"tz":"CET"}' }),
  rsp('response.output_item.done', { output_index: 3, item: callA }),
  rsp('response.output_item.done', { output_index: 4, item: callB }),
  rsp('response.completed', {
    response: response('completed', {
      output: [reasoningItem, webSearchItem, callA, callB],
      usage: { input_tokens: 25, output_tokens: 31, total_tokens: 56, output_tokens_details: { reasoning_tokens: 9 } },
    }),
  }),
]);

sequence = 0;
const openaiResponsesError = sse(
  [
    rsp('response.created', { response: response('in_progress') }),
    rsp('response.output_item.added', { output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
    rsp('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Parti' }),
    rsp('error', { code: 'server_error', message: 'The model failed to finish.', param: null }),
    rsp('response.failed', { response: response('failed', { error: { code: 'server_error', message: 'The model failed to finish.' } }) }),
  ],
  '\r\n',
);

// ── Anthropic Messages ───────────────────────────────────────────────────────────────────────

const ant = (type: string, fields: Record<string, unknown> = {}): readonly [string, unknown] => [type, { type, ...fields }];
const block = (index: number, contentBlock: unknown) => ant('content_block_start', { index, content_block: contentBlock });
const delta = (index: number, payload: unknown) => ant('content_block_delta', { index, delta: payload });
const stop = (index: number) => ant('content_block_stop', { index });

const anthropicRich = sse([
  ant('message_start', {
    message: {
      id: 'msg_own1',
      type: 'message',
      role: 'assistant',
      model: 'claude-own',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 30, cache_read_input_tokens: 5, output_tokens: 1 },
    },
  }),
  block(0, { type: 'thinking', thinking: '', signature: '' }),
  delta(0, { type: 'thinking_delta', thinking: 'Weigh the ' }),
  delta(0, { type: 'thinking_delta', thinking: 'options.' }),
  delta(0, { type: 'signature_delta', signature: 'c2lnbmF0dXJlLW9uZQ==' }),
  stop(0),
  block(1, { type: 'redacted_thinking', data: 'cmVkYWN0ZWQtb25l' }),
  stop(1),
  ant('ping'),
  block(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
  delta(2, { type: 'input_json_delta', partial_json: '{"query":"weather Oslo"}' }),
  stop(2),
  block(3, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
  stop(3),
  block(4, { type: 'text', text: '' }),
  { spread: delta(4, { type: 'text_delta', text: 'Checking ' }) },
  delta(4, { type: 'text_delta', text: 'both 🌦' }),
  stop(4),
  ant('future_event', { detail: 'no callback models this' }),
  block(5, { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: {} }),
  delta(5, { type: 'input_json_delta', partial_json: '' }),
  delta(5, { type: 'input_json_delta', partial_json: '{"city":' }),
  delta(5, { type: 'input_json_delta', partial_json: '"Oslo"}' }),
  stop(5),
  block(6, { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: {} }),
  delta(6, { type: 'input_json_delta', partial_json: '{"tz":"CET"}' }),
  stop(6),
  ant('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }),
  ant('message_stop'),
]);

const anthropicError = sse(
  [
    ant('message_start', { message: { id: 'msg_own2', type: 'message', role: 'assistant', model: 'claude-own', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } }),
    block(0, { type: 'text', text: '' }),
    delta(0, { type: 'text_delta', text: 'Parti' }),
    ant('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
  ],
  '\r\n',
);

// ── Gemini streamGenerateContent (SSE) ───────────────────────────────────────────────────────

const gem = (parts: readonly unknown[], extra: Record<string, unknown> = {}, usage: Record<string, number> = { promptTokenCount: 12, candidatesTokenCount: 1, totalTokenCount: 13 }): unknown => ({
  candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
  usageMetadata: usage,
  modelVersion: 'gemini-own',
  responseId: 'gem_own1',
});

const geminiRich = sse(
  [
    [null, gem([{ text: 'Consider ', thought: true }])],
    [null, gem([{ text: 'the map.', thought: true }])],
    [null, gem([{ text: 'Sunny ', thoughtSignature: 'Z2VtLXNpZy1vbmU=' }])],
    { spread: [null, gem([{ text: 'ahead.' }])] },
    // A signature-only part: empty text that carries the signature.
    [null, gem([{ text: '', thoughtSignature: 'Z2VtLXNpZy10d28=' }])],
    [null, gem([{ executableCode: { language: 'PYTHON', code: 'print(1)' } }])],
    [
      null,
      gem(
        [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'Z2VtLXNpZy10aHJlZQ==' }, { functionCall: { name: 'get_time', args: { tz: 'CET' } } }],
        { finishReason: 'STOP' },
        { promptTokenCount: 12, candidatesTokenCount: 20, thoughtsTokenCount: 6, totalTokenCount: 38 },
      ),
    ],
  ],
  '\r\n',
);

const geminiError = sse([
  [null, gem([{ text: 'Parti' }])],
  [null, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }],
]);

// ── Ollama /api/chat (NDJSON) ────────────────────────────────────────────────────────────────

const oll = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown => ({
  model: 'llama-own',
  created_at: '2025-02-01T00:00:00Z',
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...extra,
});

const ollamaRich = ndjson([
  oll({ thinking: 'Check ' }),
  oll({ thinking: 'twice.' }),
  oll({ content: 'On it ' }),
  oll({ content: '⏳' }),
  oll({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Oslo' } } }, { function: { name: 'get_time', arguments: { tz: 'CET' } } }] }),
  // A line of a shape no callback models.
  { status: 'still loading' },
  oll({}, { done: true, done_reason: 'stop', total_duration: 1000, prompt_eval_count: 9, eval_count: 14 }),
]);

const ollamaError = ndjson([oll({ content: 'Parti' }), { error: 'model runner has unexpectedly stopped' }], '\r\n');

// ── The corpus ───────────────────────────────────────────────────────────────────────────────

/** A stream that fails after `text`; its partial keeps the usage reported before the failure (`tokens`, read off the frames). */
const failed = (text: string, error: string, tokens: OwnExpected['tokens'] = null): OwnExpected => ({
  status: 'failed',
  text,
  reasoning: null,
  payloads: [],
  toolCalls: [],
  finishReason: null,
  tokens,
  error,
  raw: [],
});

const weatherAndTime = (ids: readonly [string | null, string | null]) => [
  { id: ids[0], name: 'get_weather', arguments: '{"city":"Oslo"}' },
  { id: ids[1], name: 'get_time', arguments: '{"tz":"CET"}' },
];

const RICH: readonly OwnTranscript[] = [
  {
    file: 'own/openai-chat/reasoning-parallel-tools.sse',
    format: 'openai-chat',
    bytes: bytes(openaiChatRich),
    expected: {
      status: 'completed',
      text: 'Looking up both…',
      reasoning: 'Two places, two calls.',
      payloads: [],
      toolCalls: weatherAndTime(['call_a', 'call_b']),
      finishReason: 'TOOL_EXECUTION',
      tokens: [21, 13, 34],
      error: null,
      raw: ['prompt_filter_results'],
    },
  },
  { file: 'own/openai-chat/server-error.sse', format: 'openai-chat', bytes: bytes(openaiChatError), expected: failed('Parti', 'The server had an error while processing your request.') },
  {
    file: 'own/openai-responses/reasoning-search-parallel-tools.sse',
    format: 'openai-responses',
    bytes: bytes(openaiResponsesRich),
    expected: {
      status: 'completed',
      text: 'Looking up ✓',
      reasoning: 'Plan: two lookups.',
      payloads: ['ZW5jcnlwdGVkLW9uZQ=='],
      toolCalls: weatherAndTime(['call_a', 'call_b']),
      finishReason: 'TOOL_EXECUTION',
      tokens: [25, 31, 56],
      error: null,
      raw: ['response.web_search_call.in_progress', 'response.web_search_call.completed'],
    },
  },
  { file: 'own/openai-responses/error-event.sse', format: 'openai-responses', bytes: bytes(openaiResponsesError), expected: failed('Parti', 'The model failed to finish.') },
  {
    file: 'own/anthropic/thinking-redacted-server-tool-tools.sse',
    format: 'anthropic',
    bytes: bytes(anthropicRich),
    expected: {
      status: 'completed',
      text: 'Checking both 🌦',
      reasoning: 'Weigh the options.',
      payloads: ['c2lnbmF0dXJlLW9uZQ==', 'cmVkYWN0ZWQtb25l'],
      toolCalls: weatherAndTime(['toolu_a', 'toolu_b']),
      finishReason: 'TOOL_EXECUTION',
      // input = input_tokens + cache_read_input_tokens; output from message_delta.
      tokens: [35, 42, 77],
      error: null,
      raw: ['server_tool_use', 'web_search_tool_result', 'future_event'],
    },
  },
  { file: 'own/anthropic/overloaded-error.sse', format: 'anthropic', bytes: bytes(anthropicError), expected: failed('Parti', 'Overloaded', [3, 1, 4]) },
  {
    file: 'own/gemini/thoughts-signatures-parallel-calls.sse',
    format: 'gemini',
    bytes: bytes(geminiRich),
    expected: {
      status: 'completed',
      text: 'Sunny ahead.',
      reasoning: 'Consider the map.',
      payloads: ['Z2VtLXNpZy1vbmU=', 'Z2VtLXNpZy10d28=', 'Z2VtLXNpZy10aHJlZQ=='],
      toolCalls: weatherAndTime([null, null]),
      finishReason: 'TOOL_EXECUTION',
      // output = candidatesTokenCount + thoughtsTokenCount; total as sent.
      tokens: [12, 26, 38],
      error: null,
      raw: ['executableCode'],
    },
  },
  { file: 'own/gemini/overloaded-error.sse', format: 'gemini', bytes: bytes(geminiError), expected: failed('Parti', 'The model is overloaded.', [12, 1, 13]) },
  {
    file: 'own/ollama/thinking-parallel-tools.ndjson',
    format: 'ollama',
    bytes: bytes(ollamaRich),
    expected: {
      status: 'completed',
      text: 'On it ⏳',
      reasoning: 'Check twice.',
      payloads: [],
      toolCalls: weatherAndTime([null, null]),
      finishReason: 'TOOL_EXECUTION',
      tokens: [9, 14, 23],
      error: null,
      raw: ['still loading'],
    },
  },
  { file: 'own/ollama/runner-error.ndjson', format: 'ollama', bytes: bytes(ollamaError), expected: failed('Parti', 'model runner has unexpectedly stopped') },
];

/** Token counts of the small transcripts, read off their usage fields. */
const SMALL_TOKENS: Readonly<Record<WireFormat, readonly [number, number, number]>> = {
  'openai-chat': [10, 5, 15],
  'openai-responses': [5, 3, 8],
  anthropic: [10, 12, 22],
  gemini: [4, 3, 7],
  ollama: [7, 3, 10],
};

/** The small transcripts of `./transcripts` (text, one tool call, usage), with their results. */
const SMALL: readonly OwnTranscript[] = WIRE_FORMATS.map((format) => {
  const result = TRANSCRIPT_RESULTS[format];
  return {
    file: `own/${format}/small.${format === 'ollama' ? 'ndjson' : 'sse'}`,
    format,
    bytes: bytes(TRANSCRIPTS[format]),
    expected: {
      status: 'completed',
      text: result.text,
      reasoning: result.thinking,
      payloads: [],
      toolCalls: result.toolCalls,
      finishReason: result.toolCalls.length > 0 ? 'TOOL_EXECUTION' : 'STOP',
      tokens: SMALL_TOKENS[format],
      error: null,
      raw: [],
    },
  };
});

/** Every hand-written transcript, all five formats, in a fixed order. */
export const OWN_TRANSCRIPTS: readonly OwnTranscript[] = [...RICH, ...SMALL];

/** The hand-written transcripts of one format. */
export function ownTranscripts(format: WireFormat): readonly OwnTranscript[] {
  return OWN_TRANSCRIPTS.filter((transcript) => transcript.format === format);
}
