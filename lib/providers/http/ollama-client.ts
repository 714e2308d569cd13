import type { StreamingChatResponseHandler } from '../../handler/types';
import type { StreamOutcome } from '../consume-stream';
import { checkModelRequest, joinUrl, streamHttp, type HttpClientOptions } from './stream-http';

/** An Ollama `/api/chat` request body (`model`, `messages`, `tools`, `think`, `options` …); `stream` is set by the client. */
export interface OllamaRequest {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly [field: string]: unknown;
}

/** Where a local Ollama listens. */
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434';

/**
 * Streams a chat from Ollama: POST `{baseUrl}/api/chat` with `stream: true`; no key by default
 * (`Authorization: Bearer` when one is given, for hosted Ollama). Resolves with the outcome; see
 * `streamHttp` for errors and cancel.
 */
export function streamOllama(request: OllamaRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkModelRequest(request, 'an Ollama chat', options);
  return streamHttp(
    {
      format: 'ollama',
      provider: 'Ollama',
      url: joinUrl(options.baseUrl ?? OLLAMA_BASE_URL, 'api/chat'),
      headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
      body: { ...request, stream: true },
    },
    handler,
    options,
  );
}
