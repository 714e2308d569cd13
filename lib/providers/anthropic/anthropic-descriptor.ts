import type { SseFrame } from '../../wire/types';
import { isJsonObject } from '../../wire/read-json';
import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, messagesField, setStrings, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import type { ProviderDescriptor } from '../provider-descriptor';
import { AnthropicMapper } from './anthropic-mapper';
import type { AnthropicRequest } from './anthropic-request';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { toAnthropicMessages } from './to-anthropic-messages';
import type { AnthropicMessagesInput } from './anthropic-message-param';

/** Where Anthropic's API lives: the default `baseURL`, the host alone, as in Anthropic's SDK. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** The `anthropic-version` header the Anthropic client sends (override it through `headers`). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The SSE event names that only an Anthropic stream sends. */
const ANTHROPIC_EVENTS: ReadonlySet<string> = new Set(['message_start', 'message_delta', 'message_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'ping']);

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = {};
  copyRequestNumbers(into, body, { max_tokens: 'max_tokens', temperature: 'temperature', top_p: 'top_p', top_k: 'top_k' });
  setStrings(into, 'gen_ai.request.stop_sequences', body.stop_sequences);
  return into;
}

/** Anthropic Messages: named SSE events (`message_start` … `message_stop`) (SPEC §9). */
export const anthropicProvider: ProviderDescriptor<'anthropic', SseFrame, AnthropicRequest, AnthropicMessagesInput> = {
  format: 'anthropic',
  name: 'Anthropic Messages',
  expected: 'an Anthropic Messages stream (Server-Sent Events)',
  framing: 'sse',
  contentType: 'text/event-stream',
  sniff: {
    sseEvent: (name) => ANTHROPIC_EVENTS.has(name),
    sseData: (data) => {
      const type = typeof data.type === 'string' ? data.type : '';
      return ANTHROPIC_EVENTS.has(type) || (type === 'error' && isJsonObject(data.error));
    },
  },
  createMapper: () => new AnthropicMapper(),
  finishReason: mapAnthropicStopReason,
  client: {
    provider: 'Anthropic',
    requestName: 'an Anthropic',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: 'ANTHROPIC_BASE_URL', defaultBase: ANTHROPIC_BASE_URL, version: 'v1' },
    path: 'messages',
    apiKeyEnv: ['ANTHROPIC_API_KEY'],
    auth: { header: 'x-api-key', prefix: '' },
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body: (request) => requestBody(request, { stream: true }),
  },
  replay: toAnthropicMessages,
  telemetry: {
    providerName: 'anthropic',
    operationName: 'chat',
    requestAttributes,
    requestMessages: (body) => ({ messages: messagesField(body), system: body.system }),
  },
};
