import type { StreamingChatResponseHandler } from '../handler/types';
import type { AnthropicRequest } from './anthropic-request';
import { resolveApiKey, resolveEndpoint } from './client-endpoint';
import { requestBody } from './request-types';
import { checkModelRequest, streamHttp, type HttpClientOptions, type HttpStreamOutcome } from './stream-http';

/** Where Anthropic's API lives: the default `baseURL`, the host alone, as in Anthropic's SDK. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** The `anthropic-version` header the client sends (override it through `headers`). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Options of `streamAnthropic`. */
export interface AnthropicClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, the host without `/v1` (the client adds `/v1/messages`), as in
   * Anthropic's SDK: `ANTHROPIC_BASE_URL` when not given, else `https://api.anthropic.com`.
   */
  readonly baseURL?: string | undefined;
}

/**
 * Streams a message from the Anthropic Messages API: POST `{baseURL}/v1/messages` with
 * `stream: true`, `anthropic-version: 2023-06-01` and `x-api-key` with the key (`apiKey`, else
 * `ANTHROPIC_API_KEY`; none when neither is set). Resolves with the outcome (`http` on it once a
 * response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamAnthropic(request: AnthropicRequest, handler: StreamingChatResponseHandler, options: AnthropicClientOptions = {}): Promise<HttpStreamOutcome> {
  checkModelRequest(request, 'an Anthropic', options);
  const endpoint = resolveEndpoint(options, {
    option: 'baseURL',
    value: options.baseURL,
    env: 'ANTHROPIC_BASE_URL',
    defaultBase: ANTHROPIC_BASE_URL,
    path: 'v1/messages',
    legacyPath: 'messages',
  });
  const apiKey = resolveApiKey(options, ['ANTHROPIC_API_KEY']);
  return streamHttp(
    {
      format: 'anthropic',
      provider: 'Anthropic',
      url: endpoint.url,
      urlFrom: endpoint.from,
      apiKey,
      headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey === undefined ? {} : { 'x-api-key': apiKey.value }) },
      body: requestBody(request, { stream: true }),
    },
    handler,
    options,
  );
}
