import type { StreamingChatResponseHandler } from '../../handler/types';
import type { StreamOutcome } from '../consume-stream';
import { checkModelRequest, joinUrl, streamHttp, type HttpClientOptions } from './stream-http';

/**
 * A Gemini `generateContent` request: the `model` (`gemini-2.5-flash` or `models/gemini-2.5-flash`)
 * plus the body fields (`contents`, `tools`, `generationConfig` …).
 */
export interface GeminiRequest {
  readonly model: string;
  readonly contents: readonly unknown[];
  readonly [field: string]: unknown;
}

/** Where the Gemini API lives. */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/**
 * Streams content from Gemini: POST `{baseUrl}/models/{model}:streamGenerateContent?alt=sse` (the
 * SSE variant) with the request minus `model`, `x-goog-api-key` when an API key is given. For
 * Vertex AI, point `baseUrl` at `…/publishers/google` and authenticate through `headers`.
 * Resolves with the outcome; see `streamHttp` for errors and cancel.
 */
export function streamGemini(request: GeminiRequest, handler: StreamingChatResponseHandler, options: HttpClientOptions = {}): Promise<StreamOutcome> {
  checkModelRequest(request, 'a Gemini', options);
  const { model, ...body } = request;
  const name = model.replace(/^models\//, '');
  return streamHttp(
    {
      format: 'gemini',
      provider: 'Gemini',
      url: joinUrl(options.baseUrl ?? GEMINI_BASE_URL, `models/${encodeURIComponent(name)}:streamGenerateContent?alt=sse`),
      headers: options.apiKey === undefined ? {} : { 'x-goog-api-key': options.apiKey },
      body,
    },
    handler,
    options,
  );
}
