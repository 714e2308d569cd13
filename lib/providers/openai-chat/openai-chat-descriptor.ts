import type { SseFrame } from '../../wire/types';
import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, messagesField, requestFields, setChoiceCount, setNumber, setStrings, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import type { ProviderDescriptor } from '../provider-descriptor';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { OpenAIChatMapper } from './openai-chat-mapper';
import type { OpenAIChatRequest } from './openai-chat-request';
import { toOpenAIChatMessages } from './to-openai-chat-messages';
import type { OpenAIChatMessagesInput } from './openai-chat-message-param';

/** Where OpenAI's API lives: the default `baseURL`, `/v1` included, as in OpenAI's SDK. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The chat-completions body: `stream_options.include_usage` on (so the final message carries usage), the caller's other stream options kept. */
function openAIChatBody(request: OpenAIChatRequest): Readonly<Record<string, unknown>> {
  const streamOptions = typeof request.stream_options === 'object' && request.stream_options !== null ? request.stream_options : {};
  return requestBody(request, { stream: true, stream_options: { include_usage: true, ...streamOptions } });
}

/** `gen_ai.output.type` `json` when a response format asks for JSON. */
export function setOpenAIOutputType(into: AttributesInto, format: unknown): void {
  const type = requestFields(format)?.type;
  if (type === 'json_object' || type === 'json_schema') into['gen_ai.output.type'] = 'json';
}

/** `openai.request.service_tier`, unless it is the default `auto`. */
export function setOpenAIServiceTier(into: AttributesInto, value: unknown): void {
  if (typeof value === 'string' && value !== 'auto') into['openai.request.service_tier'] = value;
}

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = { 'openai.api.type': 'chat_completions' };
  setNumber(into, 'gen_ai.request.max_tokens', body.max_completion_tokens ?? body.max_tokens);
  copyRequestNumbers(into, body, { temperature: 'temperature', top_p: 'top_p', frequency_penalty: 'frequency_penalty', presence_penalty: 'presence_penalty', seed: 'seed' });
  setStrings(into, 'gen_ai.request.stop_sequences', body.stop);
  setChoiceCount(into, body.n);
  setOpenAIOutputType(into, body.response_format);
  setOpenAIServiceTier(into, body.service_tier);
  return into;
}

/** OpenAI Chat Completions (and compatible servers): SSE chunks ending with `data: [DONE]` (SPEC §9). */
export const openAIChatProvider: ProviderDescriptor<'openai-chat', SseFrame, OpenAIChatRequest, OpenAIChatMessagesInput> = {
  format: 'openai-chat',
  name: 'OpenAI Chat Completions',
  expected: 'an OpenAI Chat Completions stream (Server-Sent Events)',
  framing: 'sse',
  contentType: 'text/event-stream',
  sniff: {
    sseSentinel: '[DONE]',
    sseData: (data) => 'choices' in data || data.object === 'chat.completion.chunk',
  },
  createMapper: () => new OpenAIChatMapper(),
  finishReason: mapOpenAIChatFinishReason,
  client: {
    provider: 'OpenAI Chat Completions',
    requestName: 'an OpenAI chat',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: 'OPENAI_BASE_URL', defaultBase: OPENAI_BASE_URL, version: '' },
    path: 'chat/completions',
    apiKeyEnv: ['OPENAI_API_KEY'],
    auth: { header: 'authorization', prefix: 'Bearer ' },
    headers: {},
    body: openAIChatBody,
  },
  replay: toOpenAIChatMessages,
  telemetry: {
    providerName: 'openai',
    operationName: 'chat',
    requestAttributes,
    requestMessages: (body) => ({ messages: messagesField(body), system: undefined }),
  },
};
