import type { StreamingChatResponseHandler } from '../handler/types';
import { resolveApiKey, resolveEndpoint } from './client-endpoint';
import type { OpenAIChatRequest } from './openai-chat-request';
import { requestBody } from './request-types';
import { checkModelRequest, streamHttp, type HttpClientOptions, type HttpStreamOutcome } from './stream-http';

/** Where OpenAI's API lives: the default `baseURL`, `/v1` included, as in OpenAI's SDK. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Options of the OpenAI clients (Chat Completions and Responses). */
export interface OpenAIClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, `/v1` included, as in OpenAI's SDK: `OPENAI_BASE_URL` when not given,
   * else `https://api.openai.com/v1`. Point it at a compatible server (vLLM, Ollama's
   * `http://127.0.0.1:11434/v1`, OpenRouter) or a proxy.
   */
  readonly baseURL?: string | undefined;
}

/**
 * Streams a chat completion from OpenAI or a compatible server: POST `{baseURL}/chat/completions`
 * with `stream: true` and `stream_options.include_usage` (so the final message carries usage),
 * `Authorization: Bearer` with the key (`apiKey`, else `OPENAI_API_KEY`; none when neither is
 * set). Resolves with the outcome (`http` on it once a response arrived); see `streamHttp` for
 * retries, errors and cancel.
 */
export function streamOpenAIChat(request: OpenAIChatRequest, handler: StreamingChatResponseHandler, options: OpenAIClientOptions = {}): Promise<HttpStreamOutcome> {
  checkModelRequest(request, 'an OpenAI chat', options);
  const endpoint = resolveEndpoint(options, {
    option: 'baseURL',
    value: options.baseURL,
    env: 'OPENAI_BASE_URL',
    defaultBase: OPENAI_BASE_URL,
    path: 'chat/completions',
    legacyPath: 'chat/completions',
  });
  const apiKey = resolveApiKey(options, ['OPENAI_API_KEY']);
  const streamOptions = typeof request.stream_options === 'object' && request.stream_options !== null ? request.stream_options : {};
  return streamHttp(
    {
      format: 'openai-chat',
      provider: 'OpenAI Chat Completions',
      url: endpoint.url,
      urlFrom: endpoint.from,
      apiKey,
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey.value}` },
      body: requestBody(request, { stream: true, stream_options: { include_usage: true, ...streamOptions } }),
    },
    handler,
    options,
  );
}
