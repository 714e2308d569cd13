import type { StreamingChatResponseHandler } from '../handler/types';
import { resolveApiKey, resolveEndpoint } from './client-endpoint';
import { OPENAI_BASE_URL, type OpenAIClientOptions } from './openai-chat-client';
import type { OpenAIResponsesRequest } from './openai-responses-request';
import { requestBody } from './request-types';
import { checkModelRequest, streamHttp, type HttpStreamOutcome } from './stream-http';

/**
 * Streams a response from the OpenAI Responses API (or a compatible server): POST
 * `{baseURL}/responses` with `stream: true`, `Authorization: Bearer` with the key (`apiKey`, else
 * `OPENAI_API_KEY`; none when neither is set); `baseURL` as for `streamOpenAIChat`. Resolves with
 * the outcome (`http` on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamOpenAIResponses(request: OpenAIResponsesRequest, handler: StreamingChatResponseHandler, options: OpenAIClientOptions = {}): Promise<HttpStreamOutcome> {
  checkModelRequest(request, 'an OpenAI Responses', options);
  const endpoint = resolveEndpoint(options, {
    option: 'baseURL',
    value: options.baseURL,
    env: 'OPENAI_BASE_URL',
    defaultBase: OPENAI_BASE_URL,
    path: 'responses',
    legacyPath: 'responses',
  });
  const apiKey = resolveApiKey(options, ['OPENAI_API_KEY']);
  return streamHttp(
    {
      format: 'openai-responses',
      provider: 'OpenAI Responses',
      url: endpoint.url,
      urlFrom: endpoint.from,
      apiKey,
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey.value}` },
      body: requestBody(request, { stream: true }),
    },
    handler,
    options,
  );
}
