import type { AnthropicRequest } from './anthropic-request';
import type { GeminiRequest } from './gemini-request';
import type { OllamaRequest } from './ollama-request';
import type { OpenAIChatRequest } from './openai-chat-request';
import type { OpenAIResponsesRequest } from './openai-responses-request';
import { requestBody } from './request-types';
import type { AuthHeader, ClientSpec } from './stream-client';

/** Where OpenAI's API lives: the default `baseURL`, `/v1` included, as in OpenAI's SDK. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Where Anthropic's API lives: the default `baseURL`, the host alone, as in Anthropic's SDK. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** The `anthropic-version` header the Anthropic client sends (override it through `headers`). */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Where the Gemini API lives: the default `baseURL`, the host alone (the client adds the version). */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
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

const BEARER: AuthHeader = { header: 'authorization', prefix: 'Bearer ' };
const STREAM = { stream: true } as const;

/** The chat-completions body: `stream_options.include_usage` on (so the final message carries usage), the caller's other stream options kept. */
function openAIChatBody(request: OpenAIChatRequest): Readonly<Record<string, unknown>> {
  const streamOptions = typeof request.stream_options === 'object' && request.stream_options !== null ? request.stream_options : {};
  return requestBody(request, { stream: true, stream_options: { include_usage: true, ...streamOptions } });
}

/** Gemini's method path: the model (without a `models/` prefix) in the path, on the SSE variant. */
function geminiPath(request: GeminiRequest): string {
  return `models/${encodeURIComponent(request.model.replace(/^models\//, ''))}:streamGenerateContent?alt=sse`;
}

/** Gemini's body: the request minus `model`, which is in the URL; Gemini streams by its URL, not a field. */
function geminiBody(request: GeminiRequest): Readonly<Record<string, unknown>> {
  const { model: _model, ...fields } = request;
  return requestBody(fields, {});
}

/** The table of the five providers' HTTP clients: everything that differs between them. */
export const CLIENTS: {
  readonly openAIChat: ClientSpec<OpenAIChatRequest>;
  readonly openAIResponses: ClientSpec<OpenAIResponsesRequest>;
  readonly anthropic: ClientSpec<AnthropicRequest>;
  readonly gemini: ClientSpec<GeminiRequest>;
  readonly ollama: ClientSpec<OllamaRequest>;
} = {
  openAIChat: {
    format: 'openai-chat',
    provider: 'OpenAI Chat Completions',
    requestName: 'an OpenAI chat',
    endpoint: { option: 'baseURL', env: 'OPENAI_BASE_URL', defaultBase: OPENAI_BASE_URL, version: '' },
    path: 'chat/completions',
    apiKeyEnv: ['OPENAI_API_KEY'],
    auth: BEARER,
    headers: {},
    body: openAIChatBody,
  },
  openAIResponses: {
    format: 'openai-responses',
    provider: 'OpenAI Responses',
    requestName: 'an OpenAI Responses',
    endpoint: { option: 'baseURL', env: 'OPENAI_BASE_URL', defaultBase: OPENAI_BASE_URL, version: '' },
    path: 'responses',
    apiKeyEnv: ['OPENAI_API_KEY'],
    auth: BEARER,
    headers: {},
    body: (request) => requestBody(request, STREAM),
  },
  anthropic: {
    format: 'anthropic',
    provider: 'Anthropic',
    requestName: 'an Anthropic',
    endpoint: { option: 'baseURL', env: 'ANTHROPIC_BASE_URL', defaultBase: ANTHROPIC_BASE_URL, version: 'v1' },
    path: 'messages',
    apiKeyEnv: ['ANTHROPIC_API_KEY'],
    auth: { header: 'x-api-key', prefix: '' },
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body: (request) => requestBody(request, STREAM),
  },
  gemini: {
    format: 'gemini',
    provider: 'Gemini',
    requestName: 'a Gemini',
    endpoint: { option: 'baseURL', env: null, defaultBase: GEMINI_BASE_URL, version: 'v1beta' },
    path: geminiPath,
    apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    auth: { header: 'x-goog-api-key', prefix: '' },
    headers: {},
    body: geminiBody,
  },
  ollama: {
    format: 'ollama',
    provider: 'Ollama',
    requestName: 'an Ollama chat',
    endpoint: { option: 'host', env: 'OLLAMA_HOST', defaultBase: OLLAMA_HOST, normalize: formatOllamaHost, version: '' },
    path: 'api/chat',
    // Local Ollama takes no key: one is sent (for hosted Ollama) only when `apiKey` is given.
    apiKeyEnv: [],
    auth: BEARER,
    headers: {},
    body: (request) => requestBody(request, STREAM),
  },
};
