/**
 * The HTTP clients' entry, `partstream/http`: re-exports only. One function per provider sends a
 * typed request and streams the answer into a handler (retries, redirects, limits, and secrets
 * kept out of every error and event); the base URLs are the defaults each client uses.
 *
 * @module partstream/http
 */

// Shared options and outcome
export type { HttpClientOptions, HttpStreamOutcome } from './clients/stream-http';
export type { EndpointOptions } from './clients/client-endpoint';
export { streamProvider } from './clients/stream-client';
// What a listener hears of each HTTP attempt and retry (SPEC §14; the listeners themselves: 'partstream').
export type { ChatModelHttpAttemptContext, ChatModelRetryContext, HttpAttemptScope, HttpAttemptResult } from './telemetry/chat-model-listener';
export type { HttpResponseInfo } from './clients/http-response-info';
export type { ExtraBody, JsonSchema, BuiltInTool, TypedBlock, WithOtherFields } from './providers/kit/request-types';
export { DEFAULT_MAX_RETRIES } from './clients/retry';
export { PARTSTREAM_VERSION } from './clients/version';

// OpenAI Chat Completions
export type {
  OpenAIChatRequest,
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIFunctionDefinition,
  OpenAIReasoningEffort,
  OpenAIResponseFormat,
  OpenAIServiceTier,
  OpenAIChatRequestMessage,
  OpenAIChatRole,
  OpenAIChatContentPartType,
} from './providers/openai-chat/openai-chat-request';
export type { OpenAIClientOptions } from './clients/http-clients';
export { streamOpenAIChat } from './clients/http-clients';
export { OPENAI_BASE_URL } from './providers/openai-chat/openai-chat-descriptor';

// OpenAI Responses
export type { OpenAIResponsesRequest, OpenAIResponsesTool, OpenAIResponsesFunctionTool, OpenAIResponsesTextFormat } from './providers/openai-responses/openai-responses-request';
export type { OpenAIResponsesRequestItem, OpenAIResponsesItemType, OpenAIResponsesContentType } from './providers/openai-responses/openai-responses-request';
export { streamOpenAIResponses } from './clients/http-clients';

// Anthropic
export type {
  AnthropicRequest,
  AnthropicTool,
  AnthropicCustomTool,
  AnthropicToolChoice,
  AnthropicThinkingConfig,
  AnthropicSystemBlock,
  AnthropicCacheControl,
  AnthropicRequestMessage,
  AnthropicRequestBlock,
  AnthropicContentBlockType,
} from './providers/anthropic/anthropic-request';
export type { AnthropicClientOptions } from './clients/http-clients';
export { streamAnthropic } from './clients/http-clients';
export { ANTHROPIC_BASE_URL } from './providers/anthropic/anthropic-descriptor';

// Gemini
export type {
  GeminiRequest,
  GeminiTool,
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiThinkingConfig,
  GeminiSafetySetting,
  GeminiRequestContent,
  GeminiRequestPart,
} from './providers/gemini/gemini-request';
export type { GeminiClientOptions } from './clients/http-clients';
export { streamGemini } from './clients/http-clients';
export { GEMINI_BASE_URL } from './providers/gemini/gemini-descriptor';

// Ollama
export type { OllamaRequest, OllamaModelOptions, OllamaTool, OllamaRequestMessage } from './providers/ollama/ollama-request';
export type { OllamaClientOptions } from './clients/http-clients';
export { streamOllama } from './clients/http-clients';
export { OLLAMA_HOST } from './providers/ollama/ollama-descriptor';

// Amazon Bedrock ConverseStream (SPEC §15)
export type { BedrockConverseClientOptions } from './clients/bedrock-converse-client';
export { streamBedrockConverse } from './clients/bedrock-converse-client';
export type { RequestSigner } from './clients/signing-fetch';
export type { ConverseStreamRequest, BedrockToolSpec, BedrockTool, BedrockToolChoice, BedrockSystemBlock, BedrockRequestMessage } from './providers/bedrock-converse/bedrock-converse-request';
