/**
 * Compile-time checks of the HTTP clients' request and option types (run by `npx tsc --noEmit -p .`,
 * and by request-types.test.ts, which also checks that each `@ts-expect-error` line fails without
 * its directive, with the error it names): every other line must compile.
 */
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from '../../lib/clients/http-clients';

declare const handler: StreamingChatResponseHandler;

// Real requests compile, with the fields the APIs document.
export function realRequests(): void {
  void streamOpenAIChat(
    {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } }],
      tool_choice: 'auto',
      temperature: 0.2,
      top_p: 0.9,
      max_completion_tokens: 512,
      stop: ['\n\n'],
      seed: 7,
      user: 'u-1',
      metadata: { run: 'docs' },
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'low',
      stream_options: { include_usage: true },
      parallel_tool_calls: false,
      extraBody: { top_k: 40, repetition_penalty: 1.1 },
    },
    handler,
    { baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'sk-…', maxRetries: 3, timeoutMs: 600_000 },
  );
  void streamOpenAIResponses(
    {
      model: 'o4-mini',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: 'Hi' }],
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
      max_output_tokens: 1024,
      tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: true },
        { type: 'web_search', search_context_size: 'low' },
      ],
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } }, verbosity: 'low' },
    },
    handler,
  );
  void streamAnthropic(
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [
        { name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object' } },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 1,
      metadata: { user_id: 'u-1' },
      extraBody: { context_management: { edits: [] } },
    },
    handler,
    { baseURL: 'https://api.anthropic.com', headers: { 'anthropic-beta': 'context-management-2025-06-27' } },
  );
  void streamGemini(
    {
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' } }] }, { googleSearch: {} }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { temperature: 0.5, maxOutputTokens: 800, stopSequences: ['END'], thinkingConfig: { includeThoughts: true, thinkingBudget: 512 } },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    },
    handler,
    { baseURL: 'https://generativelanguage.googleapis.com' },
  );
  void streamOllama(
    {
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'Hi' }],
      think: true,
      format: 'json',
      options: { temperature: 0.1, num_ctx: 8192, stop: ['END'] },
      keep_alive: '5m',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    },
    handler,
    { host: '127.0.0.1:11434' },
  );
}

// Misspelt or mistyped fields do not compile.
export function mistakes(): void {
  // @ts-expect-error TS2561 max_tokenz is not a field (did you mean max_tokens?)
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [], max_tokenz: 5 }, handler);
  // @ts-expect-error TS2322 temperature is a number
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [], temperature: 'hot' }, handler);
  // @ts-expect-error TS2322 not a reasoning effort
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [], reasoning_effort: 'extreme' }, handler);
  // @ts-expect-error TS2353 stream is the client's
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [], stream: false }, handler);
  // @ts-expect-error TS2561 max_output_token is not a field (did you mean max_output_tokens?)
  void streamOpenAIResponses({ model: 'o4-mini', input: 'Hi', max_output_token: 5 }, handler);
  // @ts-expect-error TS2353 max_tokens is not a Responses field
  void streamOpenAIResponses({ model: 'o4-mini', input: 'Hi', max_tokens: 5 }, handler);
  // @ts-expect-error TS2345 Anthropic needs max_tokens
  void streamAnthropic({ model: 'claude-sonnet-4-5', messages: [] }, handler);
  // @ts-expect-error TS2322 budget_tokens is a number
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [], thinking: { type: 'enabled', budget_tokens: 'lots' } }, handler);
  // @ts-expect-error TS2353 stop is not an Anthropic field (stop_sequences is)
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [], stop: ['x'] }, handler);
  // @ts-expect-error TS2353 maxOutputTokens belongs in generationConfig
  void streamGemini({ model: 'gemini-2.5-flash', contents: [], maxOutputTokens: 5 }, handler);
  // @ts-expect-error TS2322 temperature is a number
  void streamGemini({ model: 'gemini-2.5-flash', contents: [], generationConfig: { temperature: 'hot' } }, handler);
  // @ts-expect-error TS2353 num_ctx belongs in options
  void streamOllama({ model: 'llama3.2', messages: [], num_ctx: 8192 }, handler);
  // @ts-expect-error TS2322 extraBody is an object of fields
  void streamOllama({ model: 'llama3.2', messages: [], extraBody: 'top_k=40' }, handler);
  // @ts-expect-error TS2561 Ollama's option is host, not baseURL
  void streamOllama({ model: 'llama3.2', messages: [] }, handler, { baseURL: 'http://127.0.0.1:11434' });
  // @ts-expect-error TS2561 the option is baseURL, not baseUrL
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [] }, handler, { baseUrL: 'http://127.0.0.1:8000/v1' });
  // @ts-expect-error TS2322 maxRetries is a number
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [] }, handler, { maxRetries: 'twice' });
}

// The outcome carries the HTTP response, typed.
export async function outcomes(): Promise<void> {
  const outcome = await streamOpenAIChat({ model: 'gpt-4.1', messages: [] }, handler);
  const status: number | undefined = outcome.http?.status;
  const requestId: string | null | undefined = outcome.http?.requestId;
  const contentType: string | undefined = outcome.http?.headers['content-type'];
  void [status, requestId, contentType];
  if (outcome.status === 'completed') void outcome.response.aiMessage.text;
  // @ts-expect-error TS2542 the headers are read-only
  if (outcome.http !== undefined) outcome.http.headers['x-mine'] = 'no';
}
