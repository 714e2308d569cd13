import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';
import { REPO, userProgram } from './support/user-program';

// Each entry's exact public names: a new export, or one that leaves, is a deliberate change
// made here too. And no public class or function carries an `@internal` member: whatever the
// `.d.ts` shows a user is supported.

/** The exported names of `entry`, sorted. */
function exportedNames(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`Expected ${entry} to be a module, got none`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((symbol) => symbol.getName())
    .sort();
}

/** `file:line Name.member` for each public declaration reachable from `entry` whose JSDoc says `@internal`. */
function internalMembers(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
  const found: string[] = [];
  const isInternal = (node: ts.Node): boolean => ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
  const isPrivate = (node: ts.Declaration): boolean =>
    (ts.getCombinedModifierFlags(node) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
    ((ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node)) && ts.isPrivateIdentifier(node.name));
  const where = (node: ts.Node, name: string): string => {
    const file = node.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    return `${path.relative(REPO, file.fileName)}:${line} ${name}`;
  };
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    for (const declaration of symbol.getDeclarations() ?? []) {
      if (isInternal(declaration)) found.push(where(declaration, symbol.getName()));
      if (!ts.isClassDeclaration(declaration) && !ts.isInterfaceDeclaration(declaration)) continue;
      for (const member of declaration.members) {
        if (isPrivate(member) || !isInternal(member)) continue;
        found.push(where(member, `${symbol.getName()}.${member.name?.getText() ?? 'constructor'}`));
      }
    }
  }
  return found.sort();
}

/** The root entry: users of streams and parts (SPEC §0, §15). */
const ROOT_NAMES = [
  'AggregatedMessage',
  'AggregationChunk',
  'AggregationMetadata',
  'AiMessage',
  'BodyFormat',
  'CHAT_STREAM_EVENT_NAMES',
  'CHAT_STREAM_HIGH_WATER_MARK',
  'CHAT_STREAM_LOW_WATER_MARK',
  'CallbackResult',
  'ChatResponse',
  'ChatResponseMetadata',
  'ChatStream',
  'ChatStreamEvent',
  'ChatStreamEventName',
  'ChatStreamEvents',
  'ChatStreamStatus',
  'CompleteToolCall',
  'ConsumeStreamOptions',
  'DEFAULT_MAX_FRAME_BYTES',
  'EventListener',
  'FinishReason',
  'FormatOption',
  'HandlerCallbackError',
  'HandlerCallbackName',
  'INCOMPLETE_ATTRIBUTE',
  'JsonRecord',
  'JsonValue',
  'MappingTrackingHandler',
  'Media',
  'MediaPart',
  'MessageAggregator',
  'MessagePart',
  'MessagePartType',
  'OpaquePayload',
  'PartAttributes',
  'PartJSON',
  'PartOptions',
  'PartialResponse',
  'PartialResponseContext',
  'PartialThinking',
  'PartialThinkingContext',
  'PartialToolCall',
  'PartialToolCallContext',
  'PartsBridge',
  'ProviderStreamOptions',
  'REFUSAL_ATTRIBUTE',
  'ReasoningPart',
  'ReasoningPartOptions',
  'StreamError',
  'StreamErrorKind',
  'StreamErrorOptions',
  'StreamLimits',
  'StreamOutcome',
  'StreamSource',
  'StreamingChatResponseHandler',
  'StreamingHandle',
  'StreamingPartIndexer',
  'StreamingParts',
  'TextPart',
  'TokenUsage',
  'TokenUsageDetails',
  'ToolCall',
  'ToolCallInput',
  'ToolCallPart',
  'ToolExecutionRequest',
  'ToolResultInput',
  'ToolResultPart',
  'UnknownPart',
  'WireFormat',
  'consumeStream',
  'isIncompleteToolCall',
  'mediaPart',
  'partFromJSON',
  'partToJSON',
  'partsFromJSON',
  'partsToJSON',
  'reasoningPart',
  'textPart',
  'toolCallPart',
  'toolResultPart',
  'unknownPart',
  'withAttributes',
];

/** Observability (SPEC §14) on the root entry: listeners and their registration. */
const OBSERVABILITY_NAMES = [
  'ChatModelCancelContext',
  'ChatModelEndContext',
  'ChatModelErrorContext',
  'ChatModelFirstChunkContext',
  'ChatModelListener',
  'ChatModelRequestContext',
  'ChatModelResponseContext',
  'LogLevel',
  'Logger',
  'LoggingOptions',
  'ObservationOptions',
  'ObservedHttpResponse',
  'ObservedOutcome',
  'ObservedServer',
  'StreamTelemetry',
  'StreamTimings',
  'addChatModelListener',
];

/** Conversation replay (SPEC §12) and partial JSON. */
const REPLAY_NAMES = [
  'AnthropicAssistantBlockParam',
  'AnthropicCitationParam',
  'AnthropicDocumentBlockParam',
  'AnthropicImageBlockParam',
  'AnthropicImageMediaType',
  'AnthropicMessageParam',
  'AnthropicMessagesInput',
  'AnthropicPassthroughBlockParam',
  'AnthropicRedactedThinkingBlockParam',
  'AnthropicTextBlockParam',
  'AnthropicThinkingBlockParam',
  'AnthropicToolResultBlockParam',
  'AnthropicToolUseBlockParam',
  'AnthropicUserBlockParam',
  'ChatMessage',
  'ChatMessageType',
  'GeminiContentParam',
  'GeminiContentsInput',
  'GeminiPartParam',
  'JsonObject',
  'JsonSyntaxError',
  'OllamaMessageParam',
  'OllamaMessagesInput',
  'OllamaToolCallParam',
  'OpenAIChatAssistantMessageParam',
  'OpenAIChatMessageParam',
  'OpenAIChatMessagesInput',
  'OpenAIChatToolCallParam',
  'OpenAIChatUserContentPart',
  'OpenAIResponsesAnnotation',
  'OpenAIResponsesCallOutput',
  'OpenAIResponsesCustomToolCall',
  'OpenAIResponsesEasyMessage',
  'OpenAIResponsesFunctionCall',
  'OpenAIResponsesInput',
  'OpenAIResponsesInputContent',
  'OpenAIResponsesInputItem',
  'OpenAIResponsesOutputMessage',
  'OpenAIResponsesPassthroughItem',
  'OpenAIResponsesReasoningItem',
  'SystemMessage',
  'ToolExecutionResultMessage',
  'UserMessage',
  'messagesFromJSON',
  'messagesToJSON',
  'parsePartialJson',
  'parseToolArguments',
  'systemMessage',
  'toAnthropicMessages',
  'toGeminiContents',
  'toOllamaMessages',
  'toOpenAIChatMessages',
  'toOpenAIResponsesInput',
  'toolExecutionResultMessage',
  'userMessage',
  // Amazon Bedrock ConverseStream.
  'BedrockAssistantBlock',
  'BedrockCitation',
  'BedrockCitationLocation',
  'BedrockCitationsBlock',
  'BedrockConverseInput',
  'BedrockDocument',
  'BedrockDocumentBlock',
  'BedrockDocumentFormat',
  'BedrockImageBlock',
  'BedrockImageFormat',
  'BedrockMessageParam',
  'BedrockPassthroughBlock',
  'BedrockReasoningBlock',
  'BedrockTextBlock',
  'BedrockToolResultBlock',
  'BedrockToolResultContent',
  'BedrockToolUseBlock',
  'BedrockUserBlock',
  'ToBedrockMessagesOptions',
  'toBedrockMessages',
];

/** The HTTP clients: one function per provider, its typed request and options, the base URLs. */
const HTTP_NAMES = [
  'ANTHROPIC_BASE_URL',
  'AnthropicCacheControl',
  'AnthropicClientOptions',
  'AnthropicContentBlockType',
  'AnthropicCustomTool',
  'AnthropicRequest',
  'AnthropicRequestBlock',
  'AnthropicRequestMessage',
  'AnthropicSystemBlock',
  'AnthropicThinkingConfig',
  'AnthropicTool',
  'AnthropicToolChoice',
  'BuiltInTool',
  'DEFAULT_MAX_RETRIES',
  'ExtraBody',
  'GEMINI_BASE_URL',
  'GeminiClientOptions',
  'GeminiFunctionDeclaration',
  'GeminiGenerationConfig',
  'GeminiRequest',
  'GeminiRequestContent',
  'GeminiRequestPart',
  'GeminiSafetySetting',
  'GeminiThinkingConfig',
  'GeminiTool',
  'HttpClientOptions',
  'HttpResponseInfo',
  'HttpStreamOutcome',
  'JsonSchema',
  'OLLAMA_HOST',
  'OPENAI_BASE_URL',
  'OllamaClientOptions',
  'OllamaModelOptions',
  'OllamaRequest',
  'OllamaRequestMessage',
  'OllamaTool',
  'OpenAIChatContentPartType',
  'OpenAIChatRequest',
  'OpenAIChatRequestMessage',
  'OpenAIChatRole',
  'OpenAIChatTool',
  'OpenAIChatToolChoice',
  'OpenAIClientOptions',
  'OpenAIFunctionDefinition',
  'OpenAIReasoningEffort',
  'OpenAIResponseFormat',
  'OpenAIResponsesContentType',
  'OpenAIResponsesFunctionTool',
  'OpenAIResponsesItemType',
  'OpenAIResponsesRequest',
  'OpenAIResponsesRequestItem',
  'OpenAIResponsesTextFormat',
  'OpenAIResponsesTool',
  'OpenAIServiceTier',
  'PARTSTREAM_VERSION',
  'TypedBlock',
  'WithOtherFields',
  'streamAnthropic',
  'streamGemini',
  'streamOllama',
  'streamOpenAIChat',
  'streamOpenAIResponses',
  // Any provider's client from its descriptor (SPEC §15).
  'EndpointOptions',
  'streamProvider',
  // What a listener hears of each HTTP attempt and retry (SPEC §14).
  'ChatModelHttpAttemptContext',
  'ChatModelRetryContext',
  'HttpAttemptResult',
  'HttpAttemptScope',
  // Amazon Bedrock ConverseStream.
  'BedrockConverseClientOptions',
  'BedrockRequestMessage',
  'BedrockSystemBlock',
  'BedrockTool',
  'BedrockToolChoice',
  'BedrockToolSpec',
  'ConverseStreamRequest',
  'RequestSigner',
  'streamBedrockConverse',
];

/** The adapter author's kit (SPEC §15): the contract, the handler values, the kit, the five mappers and their finish-reason maps. */
const ADAPTER_NAMES = [
  'AdapterStreamOptions',
  'AnthropicMapper',
  'FramedStreamMapper',
  'Framing',
  'GeminiMapper',
  'IncompleteToolCall',
  'JsonObject',
  'MapperTarget',
  'OllamaMapper',
  'OpenAIChatMapper',
  'OpenAIResponsesMapper',
  'ProviderFields',
  'ResponseMetadataFields',
  'SseFrame',
  'StreamAdapter',
  'StreamMapper',
  'ToolCallAccumulator',
  'ToolCallCompletion',
  'WireFormat',
  'aiMessage',
  'chatResponse',
  'checkSseFrame',
  'completeToolCall',
  'countedUsage',
  'mapAnthropicStopReason',
  'mapGeminiFinishReason',
  'mapOllamaFinishReason',
  'mapOpenAIChatFinishReason',
  'mapOpenAIResponsesFinishReason',
  'parseJsonObject',
  'partialResponse',
  'partialThinking',
  'partialToolCall',
  'providerStreamError',
  'resolveFinishReason',
  'responseMetadata',
  'sseEventType',
  'sumCounts',
  'tokenUsage',
  'toolExecutionRequest',
  'truncatedStreamError',
  // Providers as descriptors (SPEC §15): the descriptor's types, the registry and partstream's own descriptors.
  'AnyProviderDescriptor',
  'AuthHeader',
  'BodyFraming',
  'ByteFrameDecoder',
  'EndpointRule',
  'FrameDecoder',
  'FrameDecoderEnd',
  'NdjsonLineParser',
  'PROVIDERS',
  'ProviderClientSpec',
  'ProviderDescriptor',
  'ProviderTelemetry',
  'RequestMessages',
  'SniffRule',
  'TelemetryValue',
  'anthropicProvider',
  'geminiProvider',
  'ollamaProvider',
  'openAIChatProvider',
  'openAIResponsesProvider',
  // Amazon Bedrock ConverseStream.
  'BedrockConverseMapper',
  'EventStreamFrame',
  'bedrockConverseProvider',
  'bedrockFrameFromSdkError',
  'bedrockFrameFromSdkEvent',
  'bedrockFramesFromSdkStream',
  'mapBedrockStopReason',
];

const RELAY_NAMES = [
  'FollowRelayOptions',
  'MemoryResponseStore',
  'MemoryStoreOptions',
  'NodeRequestLike',
  'NodeResponseLike',
  'OpenRelayOptions',
  'OpenResponseOptions',
  'ProducerInfo',
  'RELAY_HEADERS',
  'RELAY_ID_PATTERN',
  'ReadLogOptions',
  'ReconnectOptions',
  'RecordedStream',
  'Relay',
  'RelayBatch',
  'RelayEnd',
  'RelayError',
  'RelayErrorKind',
  'RelayInfo',
  'RelayResponseOptions',
  // The recorder a relay gives the driver: what the bridge's core tells it.
  'CoreRecorder',
  'DeltaType',
  'RecordedToolCall',
  'ResponseStore',
  'StopRequest',
  'StopResponseOptions',
  'StopResult',
  'StreamRecorder',
  'StreamRelay',
  'followRelay',
  'memoryStore',
  'openRelay',
  'readLog',
  'relay',
  'relayToNode',
  'stopResponse',
  // The Redis store and its client adapters.
  'IoredisClientLike',
  'NodeRedisClientLike',
  'RedisResponseStore',
  'RedisStoreOptions',
  'RelayNewEntry',
  'RelayRedisClient',
  'RelayStreamEntry',
  'RelayStreamRead',
  'RelayXAddAllResult',
  'RelayXAddOptions',
  'fromIoredis',
  'fromNodeRedis',
  'redisStore',
];

const OTEL_NAMES = ['OpenTelemetryListenerOptions', 'openTelemetryListener'];

describe('public surface: the entries', function () {
  this.timeout(60_000);

  it("'partstream' exports exactly the names of users of streams and parts (SPEC §0 included, at most 100, no driver internals)", () => {
    const { program, entry } = userProgram();
    const names = exportedNames(program, entry);
    expect(names).to.deep.equal([...ROOT_NAMES, ...OBSERVABILITY_NAMES].sort());
    expect(names.length).to.be.at.most(100);
    for (const name of [
      'withAttributes',
      'partToJSON',
      'partFromJSON',
      'StreamingParts',
      'StreamingPartIndexer',
      'MessageAggregator',
      'HandlerCallbackError',
      'MappingTrackingHandler',
      'PartsBridge',
      'ChatStream',
      'consumeStream',
    ]) {
      expect(ROOT_NAMES, `SPEC §0 names ${name}`).to.include(name);
    }
  });

  it("'partstream/replay' exports exactly the messages, the five converters with their message shapes, and the partial-JSON readers", () => {
    const { program, replayEntry } = userProgram();
    expect(exportedNames(program, replayEntry)).to.deep.equal([...REPLAY_NAMES].sort());
  });

  it("'partstream/http' exports exactly the five HTTP clients, their requests and options, and the base URLs", () => {
    const { program, httpEntry } = userProgram();
    expect(exportedNames(program, httpEntry)).to.deep.equal([...HTTP_NAMES].sort());
  });

  it("'partstream/adapters' exports exactly the adapter contract, the handler values, the kit, the five mappers and their finish-reason maps", () => {
    const { program, adaptersEntry } = userProgram();
    expect(exportedNames(program, adaptersEntry)).to.deep.equal([...ADAPTER_NAMES].sort());
  });

  it("'partstream/relay' exports exactly the relay: stores, producer, server, stop and the following viewer", () => {
    const { program, relayEntry } = userProgram();
    expect(exportedNames(program, relayEntry)).to.deep.equal([...RELAY_NAMES].sort());
  });

  it("'partstream/otel' exports exactly the OpenTelemetry listener and its options", () => {
    const { program, otelEntry } = userProgram();
    expect(exportedNames(program, otelEntry)).to.deep.equal([...OTEL_NAMES].sort());
  });

  it('gives every name one entry, except the wire format and the JSON object type (the same declaration on two)', () => {
    const lists = { root: [...ROOT_NAMES, ...OBSERVABILITY_NAMES], replay: REPLAY_NAMES, http: HTTP_NAMES, adapters: ADAPTER_NAMES, relay: RELAY_NAMES, otel: OTEL_NAMES };
    const seen = new Map<string, string[]>();
    for (const [entry, names] of Object.entries(lists)) for (const name of names) seen.set(name, [...(seen.get(name) ?? []), entry]);
    const shared = [...seen]
      .filter(([, entries]) => entries.length > 1)
      .map(([name, entries]) => `${name}: ${entries.join(', ')}`)
      .sort();
    expect(shared).to.deep.equal(['JsonObject: replay, adapters', 'WireFormat: root, adapters']);
  });

  it('keeps stores, the producer, the server, the HTTP clients, replay and mappers off the root entry', () => {
    expect(ROOT_NAMES.filter((name) => /Store|[Rr]elay|stopResponse|^stream[A-Z]|BASE_URL|^to[A-Z]|Mapper$|^map[A-Z]/.test(name))).to.deep.equal([]);
  });

  it('marks no public class member, function or constant @internal (what the .d.ts shows is supported)', () => {
    const { program, entries } = userProgram();
    expect(entries.flatMap((entry) => internalMembers(program, entry))).to.deep.equal([]);
  });
});
