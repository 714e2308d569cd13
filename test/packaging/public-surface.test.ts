import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';
import { REPO, userProgram } from './support/user-program';

// The two entries' exact public names: a new export, or one that leaves, is a deliberate change
// made here too. And no public class or function carries an `@internal` member: whatever the
// `.d.ts` shows a user is supported.

/** The exported names of `entry`, sorted. */
function exportedNames(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`Expected ${entry} to be a module, got none`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.getName()).sort();
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

const ROOT_NAMES = [
  'ANTHROPIC_BASE_URL', 'AdapterStreamOptions', 'AggregatedMessage', 'AggregationChunk', 'AggregationMetadata', 'AiMessage',
  'AnthropicAssistantBlockParam', 'AnthropicCacheControl', 'AnthropicCitationParam', 'AnthropicClientOptions',
  'AnthropicCustomTool', 'AnthropicDocumentBlockParam', 'AnthropicImageBlockParam', 'AnthropicImageMediaType',
  'AnthropicMessageParam', 'AnthropicMessagesInput', 'AnthropicPassthroughBlockParam', 'AnthropicRedactedThinkingBlockParam',
  'AnthropicRequest', 'AnthropicSystemBlock', 'AnthropicTextBlockParam', 'AnthropicThinkingBlockParam',
  'AnthropicThinkingConfig', 'AnthropicTool', 'AnthropicToolChoice', 'AnthropicToolResultBlockParam',
  'AnthropicToolUseBlockParam', 'AnthropicUserBlockParam', 'BuiltInTool', 'CHAT_STREAM_EVENT_NAMES',
  'CHAT_STREAM_HIGH_WATER_MARK', 'CHAT_STREAM_LOW_WATER_MARK', 'CallbackResult', 'ChatMessage', 'ChatMessageType',
  'ChatResponse', 'ChatResponseMetadata', 'ChatStream', 'ChatStreamEvent', 'ChatStreamEventName', 'ChatStreamEvents',
  'ChatStreamStatus', 'CompleteToolCall', 'ConsumeStreamOptions', 'DEFAULT_MAX_FRAME_BYTES', 'DEFAULT_MAX_RETRIES', 'ExtraBody',
  'FinishReason', 'FollowRelayOptions', 'FormatOption', 'GEMINI_BASE_URL', 'GeminiClientOptions', 'GeminiContentParam', 'GeminiContentsInput',
  'GeminiFunctionDeclaration', 'GeminiGenerationConfig', 'GeminiPartParam', 'GeminiRequest', 'GeminiSafetySetting',
  'GeminiThinkingConfig', 'GeminiTool', 'HandlerCallbackError', 'HandlerCallbackName', 'HttpClientOptions', 'HttpResponseInfo',
  'HttpStreamOutcome', 'INCOMPLETE_ATTRIBUTE', 'JsonObject', 'JsonRecord', 'JsonSchema', 'JsonSyntaxError', 'JsonValue',
  'MappingTrackingHandler', 'Media', 'MediaPart', 'MessageAggregator', 'MessagePart', 'MessagePartType', 'OLLAMA_HOST',
  'OPENAI_BASE_URL', 'OllamaClientOptions', 'OllamaMessageParam', 'OllamaMessagesInput', 'OllamaModelOptions', 'OllamaRequest',
  'OllamaTool', 'OllamaToolCallParam', 'OpaquePayload', 'OpenAIChatAssistantMessageParam', 'OpenAIChatMessageParam',
  'OpenAIChatMessagesInput', 'OpenAIChatRequest', 'OpenAIChatTool', 'OpenAIChatToolCallParam', 'OpenAIChatToolChoice',
  'OpenAIChatUserContentPart', 'OpenAIClientOptions', 'OpenAIFunctionDefinition', 'OpenAIReasoningEffort',
  'OpenAIResponseFormat', 'OpenAIResponsesAnnotation', 'OpenAIResponsesCallOutput', 'OpenAIResponsesCustomToolCall',
  'OpenAIResponsesEasyMessage', 'OpenAIResponsesFunctionCall', 'OpenAIResponsesFunctionTool', 'OpenAIResponsesInput',
  'OpenAIResponsesInputContent', 'OpenAIResponsesInputItem', 'OpenAIResponsesOutputMessage', 'OpenAIResponsesPassthroughItem',
  'OpenAIResponsesReasoningItem', 'OpenAIResponsesRequest', 'OpenAIResponsesTextFormat', 'OpenAIResponsesTool',
  'OpenAIServiceTier', 'PARTSTREAM_VERSION', 'PartAttributes', 'PartJSON', 'PartOptions', 'PartialResponse',
  'PartialResponseContext', 'PartialThinking', 'PartialThinkingContext', 'PartialToolCall', 'PartialToolCallContext',
  'PartsBridge', 'ProviderStreamOptions', 'REFUSAL_ATTRIBUTE', 'ReasoningPart', 'ReasoningPartOptions', 'ReconnectOptions', 'ResponseMetadataFields',
  'SseFrame', 'StreamError', 'StreamErrorKind', 'StreamErrorOptions', 'StreamLimits', 'StreamOutcome', 'StreamSource',
  'StreamingChatResponseHandler', 'StreamingHandle', 'StreamingPartIndexer', 'StreamingParts', 'SystemMessage', 'TextPart',
  'TokenUsage', 'TokenUsageDetails', 'ToolCall', 'ToolCallInput', 'ToolCallPart', 'ToolExecutionRequest',
  'ToolExecutionResultMessage', 'ToolResultInput', 'ToolResultPart', 'UnknownPart', 'UserMessage', 'WireFormat', 'aiMessage',
  'chatResponse', 'completeToolCall', 'consumeStream', 'followRelay', 'isIncompleteToolCall', 'mediaPart', 'messagesFromJSON', 'messagesToJSON',
  'parsePartialJson', 'parseToolArguments', 'partFromJSON', 'partToJSON', 'partialResponse', 'partialThinking',
  'partialToolCall', 'partsFromJSON', 'partsToJSON', 'reasoningPart', 'responseMetadata', 'streamAnthropic', 'streamGemini',
  'streamOllama', 'streamOpenAIChat', 'streamOpenAIResponses', 'systemMessage', 'textPart', 'toAnthropicMessages',
  'toGeminiContents', 'toOllamaMessages', 'toOpenAIChatMessages', 'toOpenAIResponsesInput', 'tokenUsage', 'toolCallPart',
  'toolExecutionRequest', 'toolExecutionResultMessage', 'toolResultPart', 'unknownPart', 'userMessage', 'withAttributes',
  // The request message types, per provider
  'AnthropicContentBlockType', 'AnthropicRequestBlock', 'AnthropicRequestMessage', 'GeminiRequestContent', 'GeminiRequestPart',
  'OllamaRequestMessage', 'OpenAIChatContentPartType', 'OpenAIChatRequestMessage', 'OpenAIChatRole', 'OpenAIResponsesContentType',
  'OpenAIResponsesItemType', 'OpenAIResponsesRequestItem', 'TypedBlock', 'WithOtherFields',
];

/** Observability (SPEC §14) on the root entry. */
const OBSERVABILITY_NAMES = [
  'ChatModelCancelContext', 'ChatModelEndContext', 'ChatModelErrorContext', 'ChatModelFirstChunkContext', 'ChatModelHttpAttemptContext', 'ChatModelListener',
  'ChatModelRequestContext', 'ChatModelResponseContext', 'ChatModelRetryContext', 'HttpAttemptResult', 'HttpAttemptScope', 'LogLevel', 'Logger', 'LoggingOptions', 'ObservationOptions', 'ObservedHttpResponse', 'ObservedOutcome',
  'ObservedServer', 'StreamTelemetry', 'StreamTimings', 'addChatModelListener',
];

const ADAPTER_NAMES = [
  'AnthropicMapper', 'FramedStreamMapper', 'Framing', 'GeminiMapper', 'IncompleteToolCall', 'MapperFactory', 'MapperTarget',
  'OllamaMapper', 'OpenAIChatMapper', 'OpenAIResponsesMapper', 'SseFrame', 'StreamAdapter', 'StreamMapper', 'WireFormat',
  'mapAnthropicStopReason', 'mapGeminiFinishReason', 'mapOllamaFinishReason', 'mapOpenAIChatFinishReason',
  'mapOpenAIResponsesFinishReason',
];

const RELAY_NAMES = [
  'FollowRelayOptions', 'MemoryResponseStore', 'MemoryStoreOptions', 'NodeRequestLike', 'NodeResponseLike', 'OpenRelayOptions',
  'OpenResponseOptions', 'ProducerInfo', 'RELAY_HEADERS', 'RELAY_ID_PATTERN', 'ReadLogOptions', 'ReconnectOptions',
  'RecordedStream', 'Relay', 'RelayBatch', 'RelayEnd', 'RelayError', 'RelayErrorKind', 'RelayInfo', 'RelayResponseOptions',
  'ResponseStore', 'StopRequest', 'StopResponseOptions', 'StopResult', 'StreamRecorder', 'StreamRelay', 'followRelay',
  'memoryStore', 'openRelay', 'readLog', 'relay', 'relayToNode', 'stopResponse',
  // The Redis store and its client adapters.
  'IoredisClientLike', 'NodeRedisClientLike', 'RedisResponseStore', 'RedisStoreOptions', 'RelayRedisClient', 'RelayStreamEntry',
  'RelayStreamRead', 'RelayXAddOptions', 'fromIoredis', 'fromNodeRedis', 'redisStore',
];

describe('public surface: the entries', function () {
  this.timeout(60_000);

  it("'partstream' exports exactly the users' names (SPEC §0 included, no driver internals)", () => {
    const { program, entry } = userProgram();
    expect(exportedNames(program, entry)).to.deep.equal([...ROOT_NAMES, ...OBSERVABILITY_NAMES].sort());
    for (const name of ['withAttributes', 'partToJSON', 'partFromJSON', 'StreamingParts', 'StreamingPartIndexer', 'MessageAggregator',
      'HandlerCallbackError', 'MappingTrackingHandler', 'PartsBridge', 'ChatStream', 'consumeStream']) {
      expect(ROOT_NAMES, `SPEC §0 names ${name}`).to.include(name);
    }
  });

  it("'partstream/adapters' exports exactly the adapter contract, the five mappers and their five finish-reason maps", () => {
    const { program, adaptersEntry } = userProgram();
    expect(exportedNames(program, adaptersEntry)).to.deep.equal([...ADAPTER_NAMES].sort());
  });

  it("'partstream/relay' exports exactly the relay: stores, producer, server, stop and the following viewer", () => {
    const { program, relayEntry } = userProgram();
    expect(exportedNames(program, relayEntry)).to.deep.equal([...RELAY_NAMES].sort());
  });

  it('keeps stores, the producer and the server off the root entry (its relay names are the viewer side)', () => {
    expect(ROOT_NAMES.filter((name) => /Store|openRelay|^relay|stopResponse|RelayError/.test(name))).to.deep.equal([]);
  });

  it("'partstream/otel' exports exactly the OpenTelemetry listener and its options", () => {
    const { program, otelEntry } = userProgram();
    expect(exportedNames(program, otelEntry)).to.deep.equal(['OpenTelemetryListenerOptions', 'openTelemetryListener']);
  });

  it('has no mapper on the root entry: adapter internals live on the subpath only', () => {
    expect(ROOT_NAMES.filter((name) => /Mapper$|^map[A-Z]/.test(name))).to.deep.equal([]);
  });

  it('marks no public class member, function or constant @internal (what the .d.ts shows is supported)', () => {
    const { program, entry, adaptersEntry, relayEntry, otelEntry } = userProgram();
    expect([
      ...internalMembers(program, entry), ...internalMembers(program, adaptersEntry), ...internalMembers(program, relayEntry), ...internalMembers(program, otelEntry),
    ]).to.deep.equal([]);
  });
});
