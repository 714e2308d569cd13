/**
 * A two-turn tool loop with each of the five providers. Turn one streams reasoning with its replay
 * payload (Anthropic's signature, Responses' encrypted_content, Gemini's thoughtSignature,
 * OpenRouter's reasoning_details) and a tool call; the loop runs the tool, appends the final
 * message and the result to the conversation, and sends turn two, which goes back with the
 * payload on it. A small local server stands in for the five APIs, so this runs offline; it
 * records what it was sent, and the example prints each second request body.
 * For the real services, drop `baseURL` / `host` and set the API keys.
 *
 * Run: npx ts-node --transpile-only examples/tool-loop.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamingChatResponseHandler, ToolExecutionRequest } from 'partstream';
import {
  systemMessage,
  toAnthropicMessages,
  toGeminiContents,
  toOllamaMessages,
  toOpenAIChatMessages,
  toOpenAIResponsesInput,
  toolExecutionResultMessage,
  userMessage,
  type ChatMessage,
} from 'partstream/replay';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses, type HttpStreamOutcome } from 'partstream/http';

/** The five APIs, by the name of their client. */
type Provider = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'ollama';
const PROVIDERS: readonly Provider[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'ollama'];

/** The opaque values turn one carries; they must come back byte for byte in turn two. */
const PAYLOADS = {
  anthropic: 'EqQBCkYIBxgCKkB+s1g/n4tUr3xLocalSignature==',
  openrouter: 'gAAAAABpRouterEncrypted+/==',
  openai: 'gAAAAABpResponsesEncrypted_-==',
  gemini: 'CiQBcsjafD3+/LocalThoughtSignature=',
} as const;

const sse = (events: readonly unknown[], tail = ''): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + tail;
const named = (events: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const ndjson = (lines: readonly unknown[]): string => lines.map((line) => `${JSON.stringify(line)}\n`).join('');
const chunk = (delta: unknown, finish: string | null = null): unknown => ({ id: 'gen-1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const detail = { type: 'reasoning.encrypted', data: PAYLOADS.openrouter, id: 'rd_1', format: 'openai-responses-v1', index: 0 };
const reasoningItem = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Use the tool.' }], encrypted_content: PAYLOADS.openai };
const callItem = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };

/** What each stand-in API streams on turn one: reasoning with its payload, then a tool call. */
const TURN_ONE: Readonly<Record<Provider, string>> = {
  anthropic: named([
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 20, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Use the tool.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: PAYLOADS.anthropic } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ris"}' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } },
    { type: 'message_stop' },
  ]),
  'openai-chat': sse(
    [
      chunk({ role: 'assistant', content: '', reasoning_details: [detail] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": ' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
    ],
    'data: [DONE]\n\n',
  ),
  'openai-responses': named([
    { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', model: 'm', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
    { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'Use the tool.' },
    { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
    { type: 'response.output_item.added', output_index: 1, item: { ...callItem, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '{"city":"Paris"}' },
    { type: 'response.output_item.done', output_index: 1, item: callItem },
    { type: 'response.completed', response: { id: 'resp_1', status: 'completed', model: 'm', output: [reasoningItem, callItem] } },
  ]),
  gemini: sse([
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Use the tool.', thought: true }] } }] },
    { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: PAYLOADS.gemini }] }, finishReason: 'STOP' }] },
  ]),
  ollama: ndjson([
    { model: 'm', message: { role: 'assistant', content: '', thinking: 'Use the tool.' }, done: false },
    { model: 'm', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }, done: false },
    { model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' },
  ]),
};

const ANSWER = 'It is 21 °C in Paris.';

/** What each stand-in API streams on turn two: the answer. */
const TURN_TWO: Readonly<Record<Provider, string>> = {
  anthropic: named([
    { type: 'message_start', message: { id: 'msg_2', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 60, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ANSWER } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ]),
  'openai-chat': sse([chunk({ role: 'assistant', content: ANSWER }), chunk({}, 'stop')], 'data: [DONE]\n\n'),
  'openai-responses': named([
    { type: 'response.output_text.delta', item_id: 'msg_2', output_index: 0, content_index: 0, delta: ANSWER },
    { type: 'response.completed', response: { id: 'resp_2', status: 'completed', model: 'm', output: [] } },
  ]),
  gemini: sse([{ candidates: [{ content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP' }] }]),
  ollama: ndjson([{ model: 'm', message: { role: 'assistant', content: ANSWER }, done: true, done_reason: 'stop' }]),
};

/** The tool: the weather in a city (made up). */
function getWeather(request: ToolExecutionRequest): string {
  const { city } = JSON.parse(request.arguments) as { city: string };
  return JSON.stringify({ city, celsius: 21 });
}

const quiet: StreamingChatResponseHandler = { onCompleteResponse() {}, onError() {} };

/** One turn: the conversation so far, converted for `provider`, streamed from the API at `origin`. */
function send(provider: Provider, history: readonly ChatMessage[], origin: string): Promise<HttpStreamOutcome> {
  const options = { baseURL: origin, apiKey: 'local-key', maxRetries: 0 };
  switch (provider) {
    case 'anthropic':
      return streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 512 }, ...toAnthropicMessages(history) }, quiet, options);
    case 'openai-chat':
      return streamOpenAIChat({ model: 'openai/gpt-5', ...toOpenAIChatMessages(history) }, quiet, { ...options, baseURL: `${origin}/v1` });
    case 'openai-responses':
      return streamOpenAIResponses({ model: 'gpt-5', store: false, include: ['reasoning.encrypted_content'], ...toOpenAIResponsesInput(history) }, quiet, { ...options, baseURL: `${origin}/v1` });
    case 'gemini':
      return streamGemini({ model: 'gemini-3-pro-preview', ...toGeminiContents(history) }, quiet, options);
    case 'ollama':
      return streamOllama({ model: 'qwen3', ...toOllamaMessages(history) }, quiet, { host: origin, maxRetries: 0 });
  }
}

/**
 * The loop: stream a turn, and while the model asks for tools, run them and send the assistant
 * turn and the results back. Resolves with the final answer.
 */
async function toolLoop(provider: Provider, origin: string): Promise<string | null> {
  const history: ChatMessage[] = [systemMessage('Answer briefly.'), userMessage('What is the weather in Paris?')];
  for (let turn = 0; turn < 5; turn++) {
    const outcome = await send(provider, history, origin);
    if (outcome.status !== 'completed') throw new Error(`${provider}: the turn did not complete (${outcome.status})`);
    const ai = outcome.response.aiMessage;
    history.push(ai);
    if (ai.toolExecutionRequests.length === 0) return ai.text;
    for (const request of ai.toolExecutionRequests) history.push(toolExecutionResultMessage(request, getWeather(request)));
  }
  throw new Error(`${provider}: still calling tools after five turns`);
}

/** Which API a request path is for. */
function providerOf(url: string): Provider {
  if (url.startsWith('/v1/messages')) return 'anthropic';
  if (url.startsWith('/v1/chat/completions')) return 'openai-chat';
  if (url.startsWith('/v1/responses')) return 'openai-responses';
  if (url.startsWith('/v1beta/')) return 'gemini';
  return 'ollama';
}

/** A stand-in for the five APIs: turn one, then turn two, per API; it records each request body. */
function standIn(bodies: Map<Provider, string[]>): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    let body = '';
    for await (const piece of request) body += String(piece);
    const provider = providerOf(request.url ?? '');
    const seen = bodies.get(provider) ?? [];
    bodies.set(provider, [...seen, body]);
    response.writeHead(200, { 'content-type': provider === 'ollama' ? 'application/x-ndjson' : 'text/event-stream' });
    response.end(seen.length === 0 ? TURN_ONE[provider] : TURN_TWO[provider]);
  };
}

async function main(): Promise<void> {
  const bodies = new Map<Provider, string[]>();
  const handle = standIn(bodies);
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const provider of PROVIDERS) {
      const answer = await toolLoop(provider, origin);
      const second = bodies.get(provider)?.[1] ?? '{}';
      console.log(`== ${provider}: answer ${JSON.stringify(answer)}; the second request body:`);
      console.log(JSON.stringify(JSON.parse(second), null, 2));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
