import type { StreamingChatResponseHandler } from '../../handler/types';
import type { StreamOutcome } from '../consume-stream';
import { checkModelRequest, joinUrl, streamHttp, type HttpClientOptions } from './stream-http';

/** An OpenAI Chat Completions request body (`model`, `messages`, `tools` …); `stream` is set by the client. */
export interface OpenAIChatRequest {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly [field: string]: unknown;
}

/** Where OpenAI's API lives. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Streams a chat completion from OpenAI or a compatible server (vLLM, Ollama's `/v1`, OpenRouter,
 * a proxy): POST `{baseUrl}/chat/completions` with `stream: true` and
 * `stream_options.include_usage` (so the final message carries usage), `Authorization: Bearer`
 * when an API key is given. Resolves with the outcome; see `streamHttp` for errors and cancel.
 */
export function streamOpenAIChat(request: OpenAIChatRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkModelRequest(request, 'an OpenAI chat', options);
  const streamOptions = typeof request.stream_options === 'object' && request.stream_options !== null ? request.stream_options : {};
  return streamHttp(
    {
      format: 'openai-chat',
      provider: 'OpenAI Chat Completions',
      url: joinUrl(options.baseUrl ?? OPENAI_BASE_URL, 'chat/completions'),
      headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
      body: { ...request, stream: true, stream_options: { include_usage: true, ...streamOptions } },
    },
    handler,
    options,
  );
}
