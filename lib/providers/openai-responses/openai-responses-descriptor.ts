import type { SseFrame } from '../../wire/types';
import { isJsonObject } from '../../wire/read-json';
import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, requestFields, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import { OPENAI_BASE_URL, setOpenAIOutputType, setOpenAIServiceTier } from '../openai-chat/openai-chat-descriptor';
import type { ProviderDescriptor } from '../provider-descriptor';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason';
import { OpenAIResponsesMapper } from './openai-responses-mapper';
import type { OpenAIResponsesRequest } from './openai-responses-request';
import { toOpenAIResponsesInput } from './to-openai-responses-input';
import type { OpenAIResponsesInput } from './openai-responses-input-param';

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = { 'openai.api.type': 'responses' };
  copyRequestNumbers(into, body, { max_tokens: 'max_output_tokens', temperature: 'temperature', top_p: 'top_p' });
  setOpenAIOutputType(into, requestFields(body.text)?.format);
  setOpenAIServiceTier(into, body.service_tier);
  return into;
}

/** OpenAI Responses: SSE events named `response.*` (SPEC §9). */
export const openAIResponsesProvider: ProviderDescriptor<'openai-responses', SseFrame, OpenAIResponsesRequest, OpenAIResponsesInput> = {
  format: 'openai-responses',
  name: 'OpenAI Responses',
  expected: 'an OpenAI Responses stream (Server-Sent Events)',
  framing: 'sse',
  contentType: 'text/event-stream',
  sniff: {
    sseEvent: (name) => name.startsWith('response.'),
    // Its `error` event carries the error's fields on the event itself (Anthropic's nests them in `error`).
    sseData: (data) => {
      const type = typeof data.type === 'string' ? data.type : '';
      return type.startsWith('response.') || (type === 'error' && !isJsonObject(data.error));
    },
  },
  createMapper: () => new OpenAIResponsesMapper(),
  finishReason: mapOpenAIResponsesFinishReason,
  client: {
    provider: 'OpenAI Responses',
    requestName: 'an OpenAI Responses',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: 'OPENAI_BASE_URL', defaultBase: OPENAI_BASE_URL, version: '' },
    path: 'responses',
    apiKeyEnv: ['OPENAI_API_KEY'],
    auth: { header: 'authorization', prefix: 'Bearer ' },
    headers: {},
    body: (request) => requestBody(request, { stream: true }),
  },
  replay: toOpenAIResponsesInput,
  telemetry: {
    providerName: 'openai',
    operationName: 'chat',
    requestAttributes,
    requestMessages: (body) => ({
      messages: typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? (body.input as readonly unknown[]) : [],
      system: body.instructions,
    }),
  },
};
