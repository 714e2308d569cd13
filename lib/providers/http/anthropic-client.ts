import type { StreamingChatResponseHandler } from '../../handler/types';
import type { StreamOutcome } from '../consume-stream';
import { checkModelRequest, joinUrl, streamHttp, type HttpClientOptions } from './stream-http';

/** An Anthropic Messages request body (`model`, `max_tokens`, `messages`, `thinking` …); `stream` is set by the client. */
export interface AnthropicRequest {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly unknown[];
  readonly [field: string]: unknown;
}

/** Where Anthropic's API lives. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
/** The `anthropic-version` header the client sends (override it through `headers`). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Streams a message from the Anthropic Messages API: POST `{baseUrl}/messages` with
 * `stream: true`, `x-api-key` when an API key is given and `anthropic-version: 2023-06-01`.
 * Resolves with the outcome; see `streamHttp` for errors and cancel.
 */
export function streamAnthropic(request: AnthropicRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkModelRequest(request, 'an Anthropic', options);
  return streamHttp(
    {
      format: 'anthropic',
      provider: 'Anthropic',
      url: joinUrl(options.baseUrl ?? ANTHROPIC_BASE_URL, 'messages'),
      headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }) },
      body: { ...request, stream: true },
    },
    handler,
    options,
  );
}
