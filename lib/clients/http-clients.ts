import type { StreamingChatResponseHandler } from '../handler/types';
import type { AnthropicRequest } from '../providers/anthropic/anthropic-request';
import { anthropicProvider } from '../providers/anthropic/anthropic-descriptor';
import type { GeminiRequest } from '../providers/gemini/gemini-request';
import { geminiProvider } from '../providers/gemini/gemini-descriptor';
import type { OllamaRequest } from '../providers/ollama/ollama-request';
import { ollamaProvider } from '../providers/ollama/ollama-descriptor';
import type { OpenAIChatRequest } from '../providers/openai-chat/openai-chat-request';
import { openAIChatProvider } from '../providers/openai-chat/openai-chat-descriptor';
import type { OpenAIResponsesRequest } from '../providers/openai-responses/openai-responses-request';
import { openAIResponsesProvider } from '../providers/openai-responses/openai-responses-descriptor';
import { streamProvider } from './stream-client';
import type { HttpClientOptions, HttpStreamOutcome } from './stream-http';

/** Options of the OpenAI clients (Chat Completions and Responses). */
export interface OpenAIClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, `/v1` included, as in OpenAI's SDK: `OPENAI_BASE_URL` when not given,
   * else `https://api.openai.com/v1`. Point it at a compatible server (vLLM, Ollama's
   * `http://127.0.0.1:11434/v1`, OpenRouter) or a proxy.
   */
  readonly baseURL?: string | undefined;
}

/** Options of `streamAnthropic`. */
export interface AnthropicClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, the host without `/v1` (the client adds `/v1/messages`), as in
   * Anthropic's SDK: `ANTHROPIC_BASE_URL` when not given, else `https://api.anthropic.com`.
   */
  readonly baseURL?: string | undefined;
}

/** Options of `streamGemini`. */
export interface GeminiClientOptions extends HttpClientOptions {
  /**
   * Where the API lives, the host without the version (the client adds
   * `/v1beta/models/{model}:streamGenerateContent?alt=sse`); `https://generativelanguage.googleapis.com`
   * by default. (Google's SDK spells it `httpOptions.baseUrl`; partstream spells it as its other clients.)
   */
  readonly baseURL?: string | undefined;
}

/** Options of `streamOllama`. */
export interface OllamaClientOptions extends HttpClientOptions {
  /**
   * Where Ollama listens, as its SDK takes it: `OLLAMA_HOST` when not given, else
   * `http://127.0.0.1:11434`. A host without a scheme gets `http://`, one without a port gets 11434
   * (`0.0.0.0`, `example.com:8080`, `:11435`), as Ollama's own SDK and CLI read it.
   */
  readonly host?: string | undefined;
}

/**
 * Streams a chat completion from OpenAI or a compatible server: POST `{baseURL}/chat/completions`
 * with `stream: true` and `stream_options.include_usage` (so the final message carries usage),
 * `Authorization: Bearer` with the key (`apiKey`, else `OPENAI_API_KEY`; a rejected `TypeError`
 * when neither is set, see `HttpClientOptions.apiKey`). Resolves with the outcome (`http` on it
 * once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamOpenAIChat(request: OpenAIChatRequest, handler: StreamingChatResponseHandler, options: OpenAIClientOptions = {}): Promise<HttpStreamOutcome> {
  return streamProvider(openAIChatProvider, request, handler, options);
}

/**
 * Streams a response from the OpenAI Responses API (or a compatible server): POST
 * `{baseURL}/responses` with `stream: true`, `Authorization: Bearer` with the key (`apiKey`, else
 * `OPENAI_API_KEY`; a rejected `TypeError` when neither is set); `baseURL` as for `streamOpenAIChat`. Resolves with
 * the outcome (`http` on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamOpenAIResponses(request: OpenAIResponsesRequest, handler: StreamingChatResponseHandler, options: OpenAIClientOptions = {}): Promise<HttpStreamOutcome> {
  return streamProvider(openAIResponsesProvider, request, handler, options);
}

/**
 * Streams a message from the Anthropic Messages API: POST `{baseURL}/v1/messages` with
 * `stream: true`, `anthropic-version: 2023-06-01` and `x-api-key` with the key (`apiKey`, else
 * `ANTHROPIC_API_KEY`; a rejected `TypeError` when neither is set). Resolves with the outcome (`http` on it once a
 * response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamAnthropic(request: AnthropicRequest, handler: StreamingChatResponseHandler, options: AnthropicClientOptions = {}): Promise<HttpStreamOutcome> {
  return streamProvider(anthropicProvider, request, handler, options);
}

/**
 * Streams content from Gemini: POST `{baseURL}/v1beta/models/{model}:streamGenerateContent?alt=sse`
 * (the SSE variant) with the request minus `model`, `x-goog-api-key` with the key (`apiKey`, else
 * `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; a rejected `TypeError` when none is set). Resolves with the outcome (`http`
 * on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamGemini(request: GeminiRequest, handler: StreamingChatResponseHandler, options: GeminiClientOptions = {}): Promise<HttpStreamOutcome> {
  return streamProvider(geminiProvider, request, handler, options);
}

/**
 * Streams a chat from Ollama: POST `{host}/api/chat` with `stream: true`; no key by default
 * (`Authorization: Bearer` when `apiKey` is given, for hosted Ollama). Resolves with the outcome
 * (`http` on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamOllama(request: OllamaRequest, handler: StreamingChatResponseHandler, options: OllamaClientOptions = {}): Promise<HttpStreamOutcome> {
  return streamProvider(ollamaProvider, request, handler, options);
}
