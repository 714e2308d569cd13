/**
 * The public entry of partstream, for users of streams and parts: re-exports only. The rest lives
 * on subpaths: conversation replay in 'partstream/replay' (lib/replay.ts), the HTTP clients in
 * 'partstream/http' (lib/http.ts), the adapter kit in 'partstream/adapters' (lib/adapters.ts), the
 * relay in 'partstream/relay' and OpenTelemetry in 'partstream/otel'.
 *
 * @module partstream
 */

// Message parts
export type {
  OpaquePayload,
  PartAttributes,
  TextPart,
  ReasoningPart,
  ToolCall,
  ToolCallPart,
  ToolResultPart,
  Media,
  MediaPart,
  UnknownPart,
  MessagePart,
  MessagePartType,
  PartOptions,
} from './parts/types';
export type { ToolCallInput, ToolResultInput, ReasoningPartOptions } from './parts/factories';
export { textPart, reasoningPart, toolCallPart, toolResultPart, mediaPart, unknownPart, withAttributes } from './parts/factories';
export type { PartJSON } from './parts/json';
export { partToJSON, partFromJSON, partsToJSON, partsFromJSON } from './parts/json';
export { StreamingParts } from './parts/streaming-parts';
export { StreamingPartIndexer } from './parts/streaming-part-indexer';
export { INCOMPLETE_ATTRIBUTE, isIncompleteToolCall } from './parts/incomplete-tool-call';
export { REFUSAL_ATTRIBUTE } from './providers/openai-chat/openai-chat-mapper';

// Aggregation
export type { AggregationChunk, AggregatedMessage, AggregationMetadata } from './core/message-aggregator';
export { MessageAggregator } from './core/message-aggregator';

// Handler API
export type {
  StreamingHandle,
  PartialResponse,
  PartialThinking,
  PartialToolCall,
  ToolExecutionRequest,
  CompleteToolCall,
  PartialResponseContext,
  PartialThinkingContext,
  PartialToolCallContext,
  TokenUsage,
  TokenUsageDetails,
  FinishReason,
  JsonValue,
  JsonRecord,
  ChatResponseMetadata,
  AiMessage,
  ChatResponse,
  StreamingChatResponseHandler,
  HandlerCallbackName,
} from './handler/types';
export type { CallbackResult } from './handler/types';
export { HandlerCallbackError } from './handler/handler-callback-error';
export { MappingTrackingHandler } from './tracker/mapping-tracking-handler';
export { PartsBridge } from './bridge/parts-bridge';

// Subscriptions
export type { ChatStreamStatus } from './stream/chat-stream';
export { ChatStream } from './stream/chat-stream';
export { CHAT_STREAM_HIGH_WATER_MARK, CHAT_STREAM_LOW_WATER_MARK } from './stream/chat-stream';
export type { ChatStreamEvents, ChatStreamEvent, ChatStreamEventName } from './stream/chat-stream-events';
export type { EventListener } from './stream/isolating-emitter';
export { CHAT_STREAM_EVENT_NAMES } from './stream/chat-stream-events';

// Reading a stream (a custom adapter's contract and kit: 'partstream/adapters')
export type { WireFormat, BodyFormat } from './providers/registry';
export type { FormatOption } from './driver/format-choice';
export type { StreamErrorKind, StreamErrorOptions } from './handler/stream-error';
export { StreamError } from './handler/stream-error';
export type { StreamSource } from './transport/byte-source';
export type { StreamOutcome, ConsumeStreamOptions, ProviderStreamOptions, StreamLimits } from './driver/consume-stream';
export { consumeStream, DEFAULT_MAX_FRAME_BYTES } from './driver/consume-stream';

// Observability: listeners (OpenTelemetry: 'partstream/otel')
export type {
  ChatModelListener,
  ChatModelRequestContext,
  ChatModelFirstChunkContext,
  ChatModelEndContext,
  ChatModelResponseContext,
  ChatModelErrorContext,
  ChatModelCancelContext,
  StreamTimings,
  StreamTelemetry,
  ObservationOptions,
  ObservedOutcome,
  ObservedHttpResponse,
  ObservedServer,
} from './telemetry/chat-model-listener';
export { addChatModelListener } from './telemetry/listener-registry';
export type { Logger, LogLevel, LoggingOptions } from './telemetry/log-listener';
