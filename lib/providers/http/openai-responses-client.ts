import type { StreamingChatResponseHandler } from '../../handler/types';
import type { StreamOutcome } from '../consume-stream';
import { OPENAI_BASE_URL } from './openai-chat-client';
import { checkModelRequest, joinUrl, streamHttp, type HttpClientOptions } from './stream-http';

/** An OpenAI Responses request body (`model`, `input`, `tools`, `reasoning` …); `stream` is set by the client. */
export interface OpenAIResponsesRequest {
  readonly model: string;
  readonly [field: string]: unknown;
}

/**
 * Streams a response from the OpenAI Responses API (or a compatible server): POST
 * `{baseUrl}/responses` with `stream: true`, `Authorization: Bearer` when an API key is given.
 * Resolves with the outcome; see `streamHttp` for errors and cancel.
 */
export function streamOpenAIResponses(request: OpenAIResponsesRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkModelRequest(request, 'an OpenAI Responses', options);
  return streamHttp(
    {
      format: 'openai-responses',
      provider: 'OpenAI Responses',
      url: joinUrl(options.baseUrl ?? OPENAI_BASE_URL, 'responses'),
      headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
      body: { ...request, stream: true },
    },
    handler,
    options,
  );
}
