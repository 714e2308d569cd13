// The public entry of partstream: re-exports only.

// Message parts
export type {
  OpaquePayload, PartAttributes, TextPart, ReasoningPart, ToolCall, ToolCallPart, ToolResultPart,
  Media, MediaPart, UnknownPart, MessagePart, MessagePartType, PartOptions,
} from './parts/types';
export type { ToolCallInput, ToolResultInput, ReasoningPartOptions } from './parts/factories';
export { textPart, reasoningPart, toolCallPart, toolResultPart, mediaPart, unknownPart, withAttributes } from './parts/factories';
export type { PartJSON } from './parts/json';
export { partToJSON, partFromJSON, partsToJSON, partsFromJSON } from './parts/json';
export { StreamingParts } from './parts/streaming-parts';
export { StreamingPartIndexer } from './parts/streaming-part-indexer';
export { INCOMPLETE_ATTRIBUTE, isIncompleteToolCall } from './parts/incomplete-tool-call';

// Conversation replay
export type { ChatMessage, ChatMessageType, SystemMessage, UserMessage, ToolExecutionResultMessage } from './replay/chat-message';
export { systemMessage, userMessage, toolExecutionResultMessage, messagesToJSON, messagesFromJSON } from './replay/chat-message';
export type { JsonObject } from './replay/replay-helpers';
export type {
  OpenAIChatMessageParam, OpenAIChatMessagesInput, OpenAIChatAssistantMessageParam, OpenAIChatToolCallParam, OpenAIChatUserContentPart,
} from './replay/openai-chat-message-param';
export { toOpenAIChatMessages } from './replay/to-openai-chat-messages';
export type {
  OpenAIResponsesInput, OpenAIResponsesInputItem, OpenAIResponsesInputContent, OpenAIResponsesAnnotation, OpenAIResponsesEasyMessage, OpenAIResponsesOutputMessage,
  OpenAIResponsesReasoningItem, OpenAIResponsesFunctionCall, OpenAIResponsesCustomToolCall, OpenAIResponsesCallOutput, OpenAIResponsesPassthroughItem,
} from './replay/openai-responses-input-param';
export { toOpenAIResponsesInput } from './replay/to-openai-responses-input';
export type {
  AnthropicMessageParam, AnthropicMessagesInput, AnthropicUserBlockParam, AnthropicAssistantBlockParam, AnthropicTextBlockParam, AnthropicImageBlockParam,
  AnthropicDocumentBlockParam, AnthropicThinkingBlockParam, AnthropicRedactedThinkingBlockParam, AnthropicToolUseBlockParam, AnthropicToolResultBlockParam,
  AnthropicPassthroughBlockParam, AnthropicCitationParam, AnthropicImageMediaType,
} from './replay/anthropic-message-param';
export { toAnthropicMessages } from './replay/to-anthropic-messages';
export type { GeminiContentParam, GeminiContentsInput, GeminiPartParam } from './replay/gemini-content-param';
export { toGeminiContents } from './replay/to-gemini-contents';
export type { OllamaMessageParam, OllamaMessagesInput, OllamaToolCallParam } from './replay/ollama-message-param';
export { toOllamaMessages } from './replay/to-ollama-messages';
export { parsePartialJson } from './replay/parse-partial-json';
export { parseToolArguments } from './replay/parse-tool-arguments';
export { JsonSyntaxError } from './replay/json-syntax-error';

// Aggregation
export type { AggregationChunk, AggregatedMessage, AggregationMetadata } from './aggregate/message-aggregator';
export { MessageAggregator } from './aggregate/message-aggregator';

// Handler API
export type {
  StreamingHandle, PartialResponse, PartialThinking, PartialToolCall, ToolExecutionRequest, CompleteToolCall,
  PartialResponseContext, PartialThinkingContext, PartialToolCallContext, TokenUsage, TokenUsageDetails, FinishReason,
  JsonValue, JsonRecord,
  ChatResponseMetadata, AiMessage, ChatResponse, StreamingChatResponseHandler, HandlerCallbackName,
} from './handler/types';
export type { CallbackResult } from './handler/types';
export {
  partialResponse, partialThinking, partialToolCall, completeToolCall, toolExecutionRequest, tokenUsage,
  responseMetadata, aiMessage, chatResponse,
} from './handler/values';
export type { ResponseMetadataFields } from './handler/values';
export { HandlerCallbackError } from './handler/handler-callback-error';
export { StreamController } from './handler/stream-controller';
export type { SafeHandlerState } from './handler/safe-handler';
export { SafeHandler } from './handler/safe-handler';
export { MappingTrackingHandler } from './handler/mapping-tracking-handler';
export type { IncompleteToolCall } from './bridge/parts-bridge';
export { PartsBridge } from './bridge/parts-bridge';

// Subscriptions
export type { ChatStreamStatus } from './stream/chat-stream';
export { ChatStream } from './stream/chat-stream';
export { CHAT_STREAM_HIGH_WATER_MARK, CHAT_STREAM_LOW_WATER_MARK } from './stream/chat-stream';
export type { ChatStreamEvents, ChatStreamEvent, ChatStreamEventName } from './stream/chat-stream-events';
export { CHAT_STREAM_EVENT_NAMES } from './stream/chat-stream-events';

// Providers
export type { WireFormat, SseFrame, MapperTarget, StreamMapper } from './providers/types';
export type { StreamErrorKind, StreamErrorOptions } from './providers/stream-error';
export { StreamError } from './providers/stream-error';
export type { StreamSource } from './providers/decode/byte-source';
export type { StreamOutcome, ConsumeStreamOptions } from './providers/consume-stream';
export { consumeStream, DEFAULT_MAX_FRAME_BYTES } from './providers/consume-stream';
export type { FormatOption } from './providers/sniff-format';
export { OpenAIChatMapper, REFUSAL_ATTRIBUTE } from './providers/openai-chat/openai-chat-mapper';
export { mapOpenAIChatFinishReason } from './providers/openai-chat/map-openai-chat-finish-reason';
export { AnthropicMapper } from './providers/anthropic/anthropic-mapper';
export { mapAnthropicStopReason } from './providers/anthropic/map-anthropic-stop-reason';
export { OpenAIResponsesMapper } from './providers/openai-responses/openai-responses-mapper';
export { GeminiMapper } from './providers/gemini/gemini-mapper';
export { OllamaMapper } from './providers/ollama/ollama-mapper';

// HTTP clients
export type { HttpClientOptions, HttpStreamOutcome } from './providers/http/stream-http';
export type { HttpResponseInfo } from './providers/http/http-response-info';
export type { ExtraBody, JsonSchema, BuiltInTool } from './providers/http/request-types';
export { DEFAULT_MAX_RETRIES } from './providers/http/retry';
export { PARTSTREAM_VERSION } from './providers/http/version';
export type {
  OpenAIChatRequest, OpenAIChatTool, OpenAIChatToolChoice, OpenAIFunctionDefinition, OpenAIReasoningEffort, OpenAIResponseFormat, OpenAIServiceTier,
} from './providers/http/openai-chat-request';
export type { OpenAIClientOptions } from './providers/http/openai-chat-client';
export { streamOpenAIChat, OPENAI_BASE_URL } from './providers/http/openai-chat-client';
export type { OpenAIResponsesRequest, OpenAIResponsesTool, OpenAIResponsesFunctionTool, OpenAIResponsesTextFormat } from './providers/http/openai-responses-request';
export { streamOpenAIResponses } from './providers/http/openai-responses-client';
export type {
  AnthropicRequest, AnthropicTool, AnthropicCustomTool, AnthropicToolChoice, AnthropicThinkingConfig, AnthropicSystemBlock, AnthropicCacheControl,
} from './providers/http/anthropic-request';
export type { AnthropicClientOptions } from './providers/http/anthropic-client';
export { streamAnthropic, ANTHROPIC_BASE_URL } from './providers/http/anthropic-client';
export type {
  GeminiRequest, GeminiTool, GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiThinkingConfig, GeminiSafetySetting,
} from './providers/http/gemini-request';
export type { GeminiClientOptions } from './providers/http/gemini-client';
export { streamGemini, GEMINI_BASE_URL } from './providers/http/gemini-client';
export type { OllamaRequest, OllamaModelOptions, OllamaTool } from './providers/http/ollama-request';
export type { OllamaClientOptions } from './providers/http/ollama-client';
export { streamOllama, OLLAMA_HOST } from './providers/http/ollama-client';
