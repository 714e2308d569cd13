import type { StreamingChatResponseHandler } from '../handler/types';
import { resolveApiKey, resolveEndpoint } from './client-endpoint';
import type { GeminiRequest } from './gemini-request';
import { requestBody } from './request-types';
import { checkModelRequest, streamHttp, type HttpClientOptions, type HttpStreamOutcome } from './stream-http';

/** Where the Gemini API lives: the default `baseURL`, the host alone (the client adds the version). */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Options of `streamGemini`. */
export interface GeminiClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, the host without the version (the client adds
   * `/v1beta/models/{model}:streamGenerateContent?alt=sse`); `https://generativelanguage.googleapis.com`
   * by default. (Google's SDK spells it `httpOptions.baseUrl`; partstream spells it as its other clients.)
   */
  readonly baseURL?: string | undefined;
}

/**
 * Streams content from Gemini: POST `{baseURL}/v1beta/models/{model}:streamGenerateContent?alt=sse`
 * (the SSE variant) with the request minus `model`, `x-goog-api-key` with the key (`apiKey`, else
 * `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; none when none is set). Resolves with the outcome (`http`
 * on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamGemini(request: GeminiRequest, handler: StreamingChatResponseHandler, options: GeminiClientOptions = {}): Promise<HttpStreamOutcome> {
  checkModelRequest(request, 'a Gemini', options);
  const { model, ...fields } = request;
  const method = `models/${encodeURIComponent(model.replace(/^models\//, ''))}:streamGenerateContent?alt=sse`;
  const endpoint = resolveEndpoint(options, {
    option: 'baseURL',
    value: options.baseURL,
    env: null,
    defaultBase: GEMINI_BASE_URL,
    path: `v1beta/${method}`,
    legacyPath: method,
  });
  const apiKey = resolveApiKey(options, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
  return streamHttp(
    {
      format: 'gemini',
      provider: 'Gemini',
      url: endpoint.url,
      urlFrom: endpoint.from,
      apiKey,
      headers: apiKey === undefined ? {} : { 'x-goog-api-key': apiKey.value },
      body: requestBody(fields, {}),
    },
    handler,
    options,
  );
}
