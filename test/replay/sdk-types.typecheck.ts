// Compiled by `npm run typecheck` (tsconfig includes test/), never run: what the replay
// converters return is assignable to the official SDKs' request types, and the clients take it.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { toOpenAIChatMessages } from '../../lib/replay/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/replay/to-openai-responses-input';
import { toAnthropicMessages } from '../../lib/replay/to-anthropic-messages';
import type { ChatMessage } from '../../lib/replay/chat-message';

declare const history: readonly ChatMessage[];

const anthropic = toAnthropicMessages(history);
export const anthropicParams: Anthropic.MessageCreateParamsStreaming = { model: 'm', max_tokens: 1, stream: true, ...anthropic };
export const anthropicMessages: Anthropic.MessageParam[] = anthropic.messages;

const chat = toOpenAIChatMessages(history);
export const chatParams: OpenAI.Chat.ChatCompletionCreateParamsStreaming = { model: 'm', stream: true, ...chat };
export const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = chat.messages;

const responses = toOpenAIResponsesInput(history);
export const responsesParams: OpenAI.Responses.ResponseCreateParamsStreaming = { model: 'm', stream: true, ...responses };
export const responsesInput: OpenAI.Responses.ResponseInputItem[] = responses.input;
