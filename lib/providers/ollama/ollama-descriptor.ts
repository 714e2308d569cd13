import type { JsonObject } from '../../wire/read-json';
import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, messagesField, requestFields, setStrings, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import type { ProviderDescriptor } from '../provider-descriptor';
import { mapOllamaFinishReason } from './map-ollama-finish-reason';
import { OllamaMapper } from './ollama-mapper';
import type { OllamaRequest } from './ollama-request';
import { parseOllamaLine } from './parse-ollama-line';
import { toOllamaMessages } from './to-ollama-messages';
import type { OllamaMessagesInput } from './ollama-message-param';

/** Where a local Ollama listens: the default `host`, as in Ollama's SDK. */
export const OLLAMA_HOST = 'http://127.0.0.1:11434';

/**
 * A host as Ollama's SDK reads it: `http://` when no scheme is given, port 11434 when neither a
 * scheme nor a port is, `127.0.0.1` when only `:port` is. Anything else is returned as given.
 */
export function formatOllamaHost(host: string): string {
  const withHost = host.startsWith(':') ? `http://127.0.0.1${host}` : host;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(withHost)) return withHost;
  // No scheme: add one, and Ollama's port when none is given (bracketed IPv6 keeps its colons).
  const hasPort = /:\d+(\/|$)/.test(withHost.replace(/^\[[^\]]*\]/, ''));
  const slash = withHost.indexOf('/');
  const authority = slash === -1 ? withHost : withHost.slice(0, slash);
  const rest = slash === -1 ? '' : withHost.slice(slash);
  return `http://${authority}${hasPort ? '' : ':11434'}${rest}`;
}

/** True for a parsed NDJSON line shaped like an Ollama chat chunk. */
function looksLikeOllama(value: JsonObject): boolean {
  return 'message' in value || typeof value.done === 'boolean' || (typeof value.model === 'string' && typeof value.created_at === 'string');
}

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = {};
  const options = requestFields(body.options) ?? {};
  copyRequestNumbers(into, options, {
    max_tokens: 'num_predict',
    temperature: 'temperature',
    top_p: 'top_p',
    top_k: 'top_k',
    seed: 'seed',
    frequency_penalty: 'frequency_penalty',
    presence_penalty: 'presence_penalty',
  });
  setStrings(into, 'gen_ai.request.stop_sequences', options.stop);
  if (body.format !== undefined && body.format !== null && body.format !== '') into['gen_ai.output.type'] = 'json';
  return into;
}

/** Ollama `/api/chat`: one JSON chunk per line (NDJSON), the last with `done: true` (SPEC §9). */
export const ollamaProvider: ProviderDescriptor<'ollama', unknown, OllamaRequest, OllamaMessagesInput> = {
  format: 'ollama',
  name: 'Ollama',
  expected: 'an Ollama /api/chat stream (NDJSON)',
  framing: 'ndjson',
  contentType: 'application/x-ndjson',
  sniff: { jsonLine: looksLikeOllama },
  createMapper: () => new OllamaMapper(),
  parseLine: parseOllamaLine,
  finishReason: mapOllamaFinishReason,
  client: {
    provider: 'Ollama',
    requestName: 'an Ollama chat',
    modelField: 'model',
    endpoint: { option: 'host', env: 'OLLAMA_HOST', defaultBase: OLLAMA_HOST, normalize: formatOllamaHost, version: '' },
    path: 'api/chat',
    // Local Ollama takes no key: one is sent (for hosted Ollama) only when `apiKey` is given.
    apiKeyEnv: [],
    keyOptional: true,
    auth: { header: 'authorization', prefix: 'Bearer ' },
    headers: {},
    body: (request) => requestBody(request, { stream: true }),
  },
  replay: toOllamaMessages,
  telemetry: { providerName: 'ollama', operationName: 'chat', requestAttributes, requestMessages: (body) => ({ messages: messagesField(body), system: undefined }) },
};
