// The public entry of partstream, for users: re-exports only. Adapter authors find the mappers
// and the adapter contract in 'partstream/adapters' (lib/adapters.ts).

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
} from './providers/openai-chat/openai-chat-message-param';
export { toOpenAIChatMessages } from './providers/openai-chat/to-openai-chat-messages';
export type {
  OpenAIResponsesInput, OpenAIResponsesInputItem, OpenAIResponsesInputContent, OpenAIResponsesAnnotation, OpenAIResponsesEasyMessage, OpenAIResponsesOutputMessage,
  OpenAIResponsesReasoningItem, OpenAIResponsesFunctionCall, OpenAIResponsesCustomToolCall, OpenAIResponsesCallOutput, OpenAIResponsesPassthroughItem,
} from './providers/openai-responses/openai-responses-input-param';
export { toOpenAIResponsesInput } from './providers/openai-responses/to-openai-responses-input';
export type {
  AnthropicMessageParam, AnthropicMessagesInput, AnthropicUserBlockParam, AnthropicAssistantBlockParam, AnthropicTextBlockParam, AnthropicImageBlockParam,
  AnthropicDocumentBlockParam, AnthropicThinkingBlockParam, AnthropicRedactedThinkingBlockParam, AnthropicToolUseBlockParam, AnthropicToolResultBlockParam,
  AnthropicPassthroughBlockParam, AnthropicCitationParam, AnthropicImageMediaType,
} from './providers/anthropic/anthropic-message-param';
export { toAnthropicMessages } from './providers/anthropic/to-anthropic-messages';
export type { GeminiContentParam, GeminiContentsInput, GeminiPartParam } from './providers/gemini/gemini-content-param';
export { toGeminiContents } from './providers/gemini/to-gemini-contents';
export type { OllamaMessageParam, OllamaMessagesInput, OllamaToolCallParam } from './providers/ollama/ollama-message-param';
export { toOllamaMessages } from './providers/ollama/to-ollama-messages';
export { parsePartialJson } from './replay/parse-partial-json';
export { parseToolArguments } from './replay/parse-tool-arguments';
export { JsonSyntaxError } from './replay/json-syntax-error';

// Aggregation
export type { AggregationChunk, AggregatedMessage, AggregationMetadata } from './core/message-aggregator';
export { MessageAggregator } from './core/message-aggregator';

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
export { MappingTrackingHandler } from './tracker/mapping-tracking-handler';
export { PartsBridge } from './bridge/parts-bridge';

// Subscriptions
export type { ChatStreamStatus } from './stream/chat-stream';
export { ChatStream } from './stream/chat-stream';
export { CHAT_STREAM_HIGH_WATER_MARK, CHAT_STREAM_LOW_WATER_MARK } from './stream/chat-stream';
export type { ChatStreamEvents, ChatStreamEvent, ChatStreamEventName } from './stream/chat-stream-events';
export { CHAT_STREAM_EVENT_NAMES } from './stream/chat-stream-events';

// Reading a provider's stream (a custom adapter's types: 'partstream/adapters')
export type { SseFrame } from './wire/types';
export type { WireFormat, BodyFormat } from './providers/registry';
export type { StreamErrorKind, StreamErrorOptions } from './handler/stream-error';
export { StreamError } from './handler/stream-error';
export type { StreamSource } from './transport/byte-source';
export type { StreamOutcome, ConsumeStreamOptions, ProviderStreamOptions, AdapterStreamOptions, StreamLimits } from './driver/consume-stream';
export { consumeStream, DEFAULT_MAX_FRAME_BYTES } from './driver/consume-stream';
// Viewing a relayed response (SPEC §13; stores, producer and server: 'partstream/relay')
export type { FollowRelayOptions, ReconnectOptions } from './relay/follow-relay';
export { followRelay } from './relay/follow-relay';
export type { FormatOption } from './driver/format-choice';
export { REFUSAL_ATTRIBUTE } from './providers/openai-chat/openai-chat-mapper';

// HTTP clients
export type { HttpClientOptions, HttpStreamOutcome } from './clients/stream-http';
export type { EndpointOptions } from './clients/client-endpoint';
export { streamProvider } from './clients/stream-client';
export type { HttpResponseInfo } from './clients/http-response-info';
export type { ExtraBody, JsonSchema, BuiltInTool, TypedBlock, WithOtherFields } from './providers/kit/request-types';
export { DEFAULT_MAX_RETRIES } from './clients/retry';
export { PARTSTREAM_VERSION } from './clients/version';
export type {
  OpenAIChatRequest, OpenAIChatTool, OpenAIChatToolChoice, OpenAIFunctionDefinition, OpenAIReasoningEffort, OpenAIResponseFormat, OpenAIServiceTier,
  OpenAIChatRequestMessage, OpenAIChatRole, OpenAIChatContentPartType,
} from './providers/openai-chat/openai-chat-request';
export type { OpenAIClientOptions } from './clients/http-clients';
export { streamOpenAIChat } from './clients/http-clients';
export { OPENAI_BASE_URL } from './providers/openai-chat/openai-chat-descriptor';
export type { OpenAIResponsesRequest, OpenAIResponsesTool, OpenAIResponsesFunctionTool, OpenAIResponsesTextFormat } from './providers/openai-responses/openai-responses-request';
export type { OpenAIResponsesRequestItem, OpenAIResponsesItemType, OpenAIResponsesContentType } from './providers/openai-responses/openai-responses-request';
export { streamOpenAIResponses } from './clients/http-clients';
export type {
  AnthropicRequest, AnthropicTool, AnthropicCustomTool, AnthropicToolChoice, AnthropicThinkingConfig, AnthropicSystemBlock, AnthropicCacheControl,
  AnthropicRequestMessage, AnthropicRequestBlock, AnthropicContentBlockType,
} from './providers/anthropic/anthropic-request';
export type { AnthropicClientOptions } from './clients/http-clients';
export { streamAnthropic } from './clients/http-clients';
export { ANTHROPIC_BASE_URL } from './providers/anthropic/anthropic-descriptor';
export type {
  GeminiRequest, GeminiTool, GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiThinkingConfig, GeminiSafetySetting,
  GeminiRequestContent, GeminiRequestPart,
} from './providers/gemini/gemini-request';
export type { GeminiClientOptions } from './clients/http-clients';
export { streamGemini } from './clients/http-clients';
export { GEMINI_BASE_URL } from './providers/gemini/gemini-descriptor';
export type { OllamaRequest, OllamaModelOptions, OllamaTool, OllamaRequestMessage } from './providers/ollama/ollama-request';
export type { OllamaClientOptions } from './clients/http-clients';
export { streamOllama } from './clients/http-clients';
export { OLLAMA_HOST } from './providers/ollama/ollama-descriptor';

// Observability (OpenTelemetry: 'partstream/otel')
export type {
  ChatModelListener, ChatModelRequestContext, ChatModelFirstChunkContext, ChatModelEndContext, ChatModelResponseContext, ChatModelErrorContext,
  ChatModelCancelContext, StreamTimings, StreamTelemetry, ObservationOptions, ObservedOutcome, ObservedHttpResponse, ObservedServer,
} from './telemetry/chat-model-listener';
export { addChatModelListener } from './telemetry/listener-registry';
export type { Logger, LogLevel, LoggingOptions } from './telemetry/log-listener';
