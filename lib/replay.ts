/**
 * The conversation replay entry, `partstream/replay` (SPEC §12): re-exports only. A finished
 * response's parts become the next request's history in each provider's own message shape; the
 * partial-JSON readers parse tool-call arguments as they stream.
 *
 * @module partstream/replay
 */

// Messages
export type { ChatMessage, ChatMessageType, SystemMessage, UserMessage, ToolExecutionResultMessage } from './replay/chat-message';
export { systemMessage, userMessage, toolExecutionResultMessage, messagesToJSON, messagesFromJSON } from './replay/chat-message';
export type { JsonObject } from './parts/json-object';

// One converter per provider, with the message shapes it writes
export type {
  OpenAIChatMessageParam,
  OpenAIChatMessagesInput,
  OpenAIChatAssistantMessageParam,
  OpenAIChatToolCallParam,
  OpenAIChatUserContentPart,
} from './providers/openai-chat/openai-chat-message-param';
export { toOpenAIChatMessages } from './providers/openai-chat/to-openai-chat-messages';
export type {
  OpenAIResponsesInput,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputContent,
  OpenAIResponsesAnnotation,
  OpenAIResponsesEasyMessage,
  OpenAIResponsesOutputMessage,
  OpenAIResponsesReasoningItem,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesCustomToolCall,
  OpenAIResponsesCallOutput,
  OpenAIResponsesPassthroughItem,
} from './providers/openai-responses/openai-responses-input-param';
export { toOpenAIResponsesInput } from './providers/openai-responses/to-openai-responses-input';
export type {
  AnthropicMessageParam,
  AnthropicMessagesInput,
  AnthropicUserBlockParam,
  AnthropicAssistantBlockParam,
  AnthropicTextBlockParam,
  AnthropicImageBlockParam,
  AnthropicDocumentBlockParam,
  AnthropicThinkingBlockParam,
  AnthropicRedactedThinkingBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicPassthroughBlockParam,
  AnthropicCitationParam,
  AnthropicImageMediaType,
} from './providers/anthropic/anthropic-message-param';
export { toAnthropicMessages } from './providers/anthropic/to-anthropic-messages';
export type { GeminiContentParam, GeminiContentsInput, GeminiPartParam } from './providers/gemini/gemini-content-param';
export { toGeminiContents } from './providers/gemini/to-gemini-contents';
export type { OllamaMessageParam, OllamaMessagesInput, OllamaToolCallParam } from './providers/ollama/ollama-message-param';
export { toOllamaMessages } from './providers/ollama/to-ollama-messages';

// Partial JSON
export { parsePartialJson } from './replay/parse-partial-json';
export { parseToolArguments } from './replay/parse-tool-arguments';
export { JsonSyntaxError } from './replay/json-syntax-error';

// Amazon Bedrock ConverseStream (SPEC §15)
export type { ToBedrockMessagesOptions } from './providers/bedrock-converse/to-bedrock-messages';
export { toBedrockMessages } from './providers/bedrock-converse/to-bedrock-messages';
export type {
  BedrockConverseInput,
  BedrockMessageParam,
  BedrockUserBlock,
  BedrockAssistantBlock,
  BedrockTextBlock,
  BedrockImageBlock,
  BedrockDocumentBlock,
  BedrockToolUseBlock,
  BedrockToolResultBlock,
  BedrockToolResultContent,
  BedrockReasoningBlock,
  BedrockCitationsBlock,
  BedrockCitation,
  BedrockCitationLocation,
  BedrockPassthroughBlock,
  BedrockImageFormat,
  BedrockDocumentFormat,
  BedrockDocument,
} from './providers/bedrock-converse/bedrock-message-param';
