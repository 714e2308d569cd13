/**
 * The entry for adapter authors, `partstream/adapters`: re-exports only. A provider author writes
 * a `StreamMapper` and hands it to `consumeStream(source, handler, { adapter })` from the root
 * entry; the kit below is what partstream's own mappers are built from, and the five mappers and
 * their finish-reason maps are here to read, wrap or test against.
 *
 * @module partstream/adapters
 */

// The adapter contract
export type { MapperTarget, StreamMapper } from './providers/stream-mapper';
export type { SseFrame } from './wire/types';
export type { WireFormat } from './providers/registry';

// Providers as descriptors (SPEC §15): what a custom provider is made of, and partstream's own
export type {
  AnyProviderDescriptor,
  AuthHeader,
  BodyFraming,
  EndpointRule,
  ProviderClientSpec,
  ProviderDescriptor,
  ProviderTelemetry,
  RequestMessages,
  SniffRule,
  TelemetryValue,
} from './providers/provider-descriptor';
export type { FrameDecoder, FrameDecoderEnd, ByteFrameDecoder } from './wire/frame-decoder';
export type { NdjsonLineParser } from './wire/ndjson-decoder';
export { PROVIDERS } from './providers/registry';
export { openAIChatProvider } from './providers/openai-chat/openai-chat-descriptor';
export { openAIResponsesProvider } from './providers/openai-responses/openai-responses-descriptor';
export { anthropicProvider } from './providers/anthropic/anthropic-descriptor';
export { geminiProvider } from './providers/gemini/gemini-descriptor';
export { ollamaProvider } from './providers/ollama/ollama-descriptor';
export { bedrockConverseProvider } from './providers/bedrock-converse/bedrock-converse-descriptor';

// Amazon Bedrock ConverseStream: its binary frames, its mapper, and the AWS SDK's decoded events as frames
export type { EventStreamFrame } from './wire/aws-eventstream/eventstream-decoder';
export { BedrockConverseMapper } from './providers/bedrock-converse/bedrock-converse-mapper';
export { mapBedrockStopReason } from './providers/bedrock-converse/map-bedrock-stop-reason';
export { bedrockFrameFromSdkEvent, bedrockFrameFromSdkError, bedrockFramesFromSdkStream } from './providers/bedrock-converse/bedrock-sdk-events';
export type { IncompleteToolCall } from './bridge/parts-bridge';
export type { StreamAdapter, FramedStreamMapper, Framing } from './driver/stream-options';
export type { AdapterStreamOptions } from './driver/consume-stream';

// The handler values a mapper delivers
export { partialResponse, partialThinking, partialToolCall, completeToolCall, toolExecutionRequest, tokenUsage, responseMetadata, aiMessage, chatResponse } from './handler/values';
export type { ResponseMetadataFields } from './handler/values';

// The kit: reading events, tool calls, finish reasons, usage, provider errors
export type { JsonObject } from './parts/json-object';
export { parseJsonObject } from './wire/read-json';
export { checkSseFrame, sseEventType } from './providers/kit/sse-event';
export type { ToolCallCompletion } from './providers/kit/tool-call-accumulator';
export { ToolCallAccumulator } from './providers/kit/tool-call-accumulator';
export { resolveFinishReason } from './providers/kit/resolve-finish-reason';
export { countedUsage, sumCounts } from './providers/kit/counted-usage';
export { ProviderFields } from './providers/kit/provider-fields';
export { providerStreamError } from './providers/kit/provider-stream-error';
export { truncatedStreamError } from './providers/kit/truncated-stream-error';

// partstream's own mappers, one per wire format
export { OpenAIChatMapper } from './providers/openai-chat/openai-chat-mapper';
export { OpenAIResponsesMapper } from './providers/openai-responses/openai-responses-mapper';
export { AnthropicMapper } from './providers/anthropic/anthropic-mapper';
export { GeminiMapper } from './providers/gemini/gemini-mapper';
export { OllamaMapper } from './providers/ollama/ollama-mapper';

// Each provider's finish reason, as the mappers map it into `FinishReason`
export { mapOpenAIChatFinishReason } from './providers/openai-chat/map-openai-chat-finish-reason';
export { mapOpenAIResponsesFinishReason } from './providers/openai-responses/map-openai-responses-finish-reason';
export { mapAnthropicStopReason } from './providers/anthropic/map-anthropic-stop-reason';
export { mapGeminiFinishReason } from './providers/gemini/map-gemini-finish-reason';
export { mapOllamaFinishReason } from './providers/ollama/map-ollama-finish-reason';
