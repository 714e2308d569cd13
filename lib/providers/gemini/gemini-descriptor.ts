import type { SseFrame } from '../../wire/types';
import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, requestFields, setChoiceCount, setStrings, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import type { ProviderDescriptor } from '../provider-descriptor';
import { GeminiMapper } from './gemini-mapper';
import type { GeminiRequest } from './gemini-request';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { toGeminiContents } from './to-gemini-contents';
import type { GeminiContentsInput } from './gemini-content-param';

/** Where the Gemini API lives: the default `baseURL`, the host alone (the client adds the version). */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Gemini's method path: the model (without a `models/` prefix) in the path, on the SSE variant. */
function geminiPath(request: GeminiRequest): string {
  return `models/${encodeURIComponent(request.model.replace(/^models\//, ''))}:streamGenerateContent?alt=sse`;
}

/** Gemini's body: the request minus `model`, which is in the URL; Gemini streams by its URL, not a field. */
function geminiBody(request: GeminiRequest): Readonly<Record<string, unknown>> {
  const { model: _model, ...fields } = request;
  return requestBody(fields, {});
}

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = {};
  const config = requestFields(body.generationConfig) ?? {};
  copyRequestNumbers(into, config, {
    max_tokens: 'maxOutputTokens',
    temperature: 'temperature',
    top_p: 'topP',
    top_k: 'topK',
    seed: 'seed',
    frequency_penalty: 'frequencyPenalty',
    presence_penalty: 'presencePenalty',
  });
  setStrings(into, 'gen_ai.request.stop_sequences', config.stopSequences);
  setChoiceCount(into, config.candidateCount);
  if (config.responseMimeType === 'application/json') into['gen_ai.output.type'] = 'json';
  return into;
}

/** Gemini's `contents` as `{ role, content }` entries (`model` is the assistant), its system instruction's parts. */
function requestMessages(body: RequestFields): { readonly messages: readonly unknown[]; readonly system: unknown } {
  const contents = Array.isArray(body.contents) ? (body.contents as readonly unknown[]) : [];
  const messages = contents.map((entry) => {
    const fields = requestFields(entry);
    return fields === null ? entry : { role: fields.role === 'model' ? 'assistant' : (fields.role ?? 'user'), content: fields.parts };
  });
  const instruction = requestFields(body.systemInstruction);
  return { messages, system: instruction === null ? body.systemInstruction : instruction.parts };
}

/** Gemini `streamGenerateContent?alt=sse`: SSE chunks of `candidates` (SPEC §9). */
export const geminiProvider: ProviderDescriptor<'gemini', SseFrame, GeminiRequest, GeminiContentsInput> = {
  format: 'gemini',
  name: 'Gemini',
  expected: 'a Gemini streamGenerateContent stream (Server-Sent Events, alt=sse)',
  framing: 'sse',
  contentType: 'text/event-stream',
  sniff: {
    sseData: (data) => 'candidates' in data || 'usageMetadata' in data || 'promptFeedback' in data || 'modelVersion' in data,
  },
  createMapper: () => new GeminiMapper(),
  finishReason: mapGeminiFinishReason,
  client: {
    provider: 'Gemini',
    requestName: 'a Gemini',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: null, defaultBase: GEMINI_BASE_URL, version: 'v1beta' },
    path: geminiPath,
    apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    auth: { header: 'x-goog-api-key', prefix: '' },
    headers: {},
    body: geminiBody,
  },
  replay: toGeminiContents,
  telemetry: { providerName: 'gcp.gemini', operationName: 'generate_content', requestAttributes, requestMessages },
};
