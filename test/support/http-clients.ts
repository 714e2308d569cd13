import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import type { StreamOutcome } from '../../lib/driver/consume-stream';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from '../../lib/clients/http-clients';
import type { HttpClientOptions } from '../../lib/clients/stream-http';
import type { TextWireFormat as WireFormat } from './transcripts';

/** The provider name each client puts in its error messages. */
export const PROVIDER_NAME: Readonly<Record<WireFormat, string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
  ollama: 'Ollama',
};

/** The content type a provider streams with. */
export const STREAM_CONTENT_TYPE: Readonly<Record<WireFormat, string>> = {
  'openai-chat': 'text/event-stream',
  'openai-responses': 'text/event-stream',
  anthropic: 'text/event-stream',
  gemini: 'text/event-stream',
  ollama: 'application/x-ndjson',
};

/** The API key `streamWithClient` sends unless told otherwise (the clients refuse to send none). */
export const TEST_API_KEY = 'sk-test-key-0000';

/**
 * Calls the HTTP client of a format with a minimal request. Retries are off unless `maxRetries`
 * is given: the tests using this check what one request does (test/providers/http/retries.test.ts
 * checks retrying). The key is `TEST_API_KEY` unless `apiKey` is given.
 */
export function streamWithClient(format: WireFormat, handler: StreamingChatResponseHandler, given: HttpClientOptions): Promise<StreamOutcome> {
  const messages = [{ role: 'user' as const, content: 'Hi' }];
  const options: HttpClientOptions = { maxRetries: 0, apiKey: TEST_API_KEY, ...given };
  switch (format) {
    case 'openai-chat':
      return streamOpenAIChat({ model: 'gpt-test', messages }, handler, options);
    case 'openai-responses':
      return streamOpenAIResponses({ model: 'gpt-test', input: 'Hi' }, handler, options);
    case 'anthropic':
      return streamAnthropic({ model: 'claude-test', max_tokens: 64, messages }, handler, options);
    case 'gemini':
      return streamGemini({ model: 'gemini-test', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }, handler, options);
    case 'ollama':
      return streamOllama({ model: 'llama-test', messages }, handler, options);
    default: {
      const never: never = format;
      throw new TypeError(`Expected a wire format, got ${String(never)}`);
    }
  }
}

/** Settles with true when `promise` settles within `ms`, else false. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
