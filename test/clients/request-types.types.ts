/**
 * Compile-time checks of the HTTP clients' request and option types (run by `npx tsc --noEmit -p .`,
 * and by request-types.test.ts, which also checks that each `@ts-expect-error` line fails without
 * its directive, with the error it names): every other line must compile.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Content as GeminiSdkContent, Part as GeminiSdkPart } from '@google/genai';
import type { Message as OllamaSdkMessage } from 'ollama';
import type OpenAI from 'openai';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import type { ChatMessage } from '../../lib/replay/chat-message';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from '../../lib/clients/http-clients';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';

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

// Every message the official SDKs' types accept is accepted as it is (Google's and Ollama's
// `role: string` excepted, below), and so is what the replay converters return.
export function sdkAndConverterMessages(
  sdk: {
    readonly chat: OpenAI.Chat.ChatCompletionMessageParam[];
    readonly responses: OpenAI.Responses.ResponseInputItem[];
    readonly anthropic: Anthropic.MessageParam[];
    readonly anthropicSystem: Anthropic.TextBlockParam[];
    readonly geminiParts: GeminiSdkPart[];
    readonly ollamaImages: Uint8Array[];
  },
  history: readonly ChatMessage[],
): void {
  void streamOpenAIChat({ model: 'gpt-4.1', messages: sdk.chat }, handler);
  void streamOpenAIResponses({ model: 'o4-mini', input: sdk.responses }, handler);
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, system: sdk.anthropicSystem, messages: sdk.anthropic }, handler);
  void streamGemini({ model: 'gemini-2.5-flash', contents: [{ role: 'model', parts: sdk.geminiParts }], systemInstruction: { parts: sdk.geminiParts } }, handler);
  void streamOllama({ model: 'llama3.2', messages: [{ role: 'user', content: 'What is this?', images: sdk.ollamaImages }] }, handler);
  void streamOpenAIChat({ model: 'gpt-4.1', messages: toOpenAIChatMessages(history).messages }, handler);
  void streamOpenAIResponses({ model: 'o4-mini', input: toOpenAIResponsesInput(history).input }, handler);
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, ...toAnthropicMessages(history) }, handler);
  void streamGemini({ model: 'gemini-2.5-flash', ...toGeminiContents(history) }, handler);
  void streamOllama({ model: 'llama3.2', ...toOllamaMessages(history) }, handler);
}

// Messages of every role and block type the APIs document, written as literals.
export function messageLiterals(): void {
  void streamOpenAIChat(
    {
      model: 'gpt-4.1',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'low' } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            { type: 'file', file: { file_id: 'file-1' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'call_2', type: 'custom', custom: { name: 'g', input: 'x' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '42' }] },
        { role: 'function', name: 'f', content: '42' },
        { role: 'assistant', content: 'ok', reasoning_details: [{ type: 'reasoning.text', text: 'hmm' }] },
      ],
    },
    handler,
  );
  void streamOpenAIResponses(
    {
      model: 'o4-mini',
      input: [
        { role: 'developer', content: 'Be brief.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Hi' },
            { type: 'input_image', image_url: 'https://x.test/a.png', detail: 'high' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: '42' },
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
        { type: 'item_reference', id: 'msg_1' },
        { id: 'rs_1' },
      ],
    },
    handler,
  );
  void streamAnthropic(
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 5,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' }, cache_control: { type: 'ephemeral' } },
            { type: 'search_result', source: 's', title: 't', content: [] },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
            { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'g', server_name: 's', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '42', is_error: false, cache_control: { type: 'ephemeral' } }] },
      ],
    },
    handler,
  );
  void streamGemini(
    {
      model: 'gemini-2.5-flash',
      contents: [
        { parts: [{ text: 'Hi' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { functionCall: { name: 'f', args: {} }, thoughtSignature: 'c2ln' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { result: 42 } } }] },
      ],
    },
    handler,
  );
  void streamOllama(
    {
      model: 'llama3.2',
      messages: [
        { role: 'assistant', content: '', thinking: 'hmm', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] },
        { role: 'tool', content: '42', tool_name: 'f' },
      ],
    },
    handler,
  );
}

// A misspelt role, content block or part field does not compile.
export function messageMistakes(sdk: { readonly geminiContents: GeminiSdkContent[]; readonly ollamaMessages: OllamaSdkMessage[] }): void {
  // @ts-expect-error TS2820 usr is not a role
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [{ role: 'usr', content: 'Hi' }] }, handler);
  // @ts-expect-error TS2322 image is not a Chat content part type (image_url is)
  void streamOpenAIChat({ model: 'gpt-4.1', messages: [{ role: 'user', content: [{ type: 'image', image_url: { url: 'x' } }] }] }, handler);
  // @ts-expect-error TS2322 usr is not a role
  void streamOpenAIResponses({ model: 'o4-mini', input: [{ role: 'usr', content: 'Hi' }] }, handler);
  // @ts-expect-error TS2322 text is not a Responses content part type (input_text is)
  void streamOpenAIResponses({ model: 'o4-mini', input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }, handler);
  // @ts-expect-error TS2820 function_call_result is not an item type (function_call_output is)
  void streamOpenAIResponses({ model: 'o4-mini', input: [{ type: 'function_call_result', call_id: 'c', output: '42' }] }, handler);
  // @ts-expect-error TS2322 human is not a Messages role
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'human', content: 'Hi' }] }, handler);
  // @ts-expect-error TS2820 tool_results is not a block type (tool_result is)
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_results', tool_use_id: 't', content: '42' }] }] }, handler);
  // @ts-expect-error TS2322 txt is not a system block type
  void streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 5, system: [{ type: 'txt', text: 'Be brief.' }], messages: [] }, handler);
  // @ts-expect-error TS2322 assistant is not a Gemini role (model is)
  void streamGemini({ model: 'gemini-2.5-flash', contents: [{ role: 'assistant', parts: [{ text: 'Hi' }] }] }, handler);
  // @ts-expect-error TS2561 txt is not a Part field (did you mean text?)
  void streamGemini({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ txt: 'Hi' }] }] }, handler);
  // @ts-expect-error TS2820 usr is not a role
  void streamOllama({ model: 'llama3.2', messages: [{ role: 'usr', content: 'Hi' }] }, handler);
  // @ts-expect-error TS2561 image is not a message field (did you mean images?)
  void streamOllama({ model: 'llama3.2', messages: [{ role: 'user', content: 'Hi', image: ['AAAA'] }] }, handler);
  // @ts-expect-error TS2322 Google's SDK types role as any string: narrow it to user | model first
  void streamGemini({ model: 'gemini-2.5-flash', contents: sdk.geminiContents }, handler);
  // @ts-expect-error TS2322 Ollama's SDK types role as any string: narrow it to one of Ollama's roles first
  void streamOllama({ model: 'llama3.2', messages: sdk.ollamaMessages }, handler);
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
