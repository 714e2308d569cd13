// Compiled by `npm run typecheck` (tsconfig.json includes test/), never run by mocha (its name
// does not end in .test.ts): what each replay converter returns is assignable to the official
// SDK's request type, the partstream clients take it spread into their request, and a wrong
// shape does not compile. The SDKs are dev dependencies, used here only.
//
// Every `@ts-expect-error` below must be needed: take it away and `tsc` fails on that line (an
// unused one is itself an error, so a converter type that grew too loose fails this file).
import type Anthropic from '@anthropic-ai/sdk';
import type { Content, ContentUnion, GenerateContentParameters } from '@google/genai';
import type { ChatRequest, Message as OllamaMessage } from 'ollama';
import type OpenAI from 'openai';
import type { StreamingChatResponseHandler } from 'partstream';
import type { AnthropicMessageParam, ChatMessage, OllamaMessageParam, OpenAIResponsesInputItem } from 'partstream/replay';
import { toAnthropicMessages, toGeminiContents, toOllamaMessages, toOpenAIChatMessages, toOpenAIResponsesInput } from 'partstream/replay';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from 'partstream/http';

export function sdkRequestTypes(history: readonly ChatMessage[], model: string): unknown[] {
  const anthropic = toAnthropicMessages(history);
  const chat = toOpenAIChatMessages(history);
  const responses = toOpenAIResponsesInput(history);
  const gemini = toGeminiContents(history);
  const ollama = toOllamaMessages(history);

  const anthropicParams: Anthropic.MessageCreateParamsStreaming = { model, max_tokens: 1024, stream: true, ...anthropic };
  const anthropicMessages: Anthropic.MessageParam[] = anthropic.messages;
  const chatParams: OpenAI.Chat.ChatCompletionCreateParamsStreaming = { model, stream: true, ...chat };
  const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = chat.messages;
  const responsesParams: OpenAI.Responses.ResponseCreateParamsStreaming = { model, stream: true, ...responses };
  const responsesInput: OpenAI.Responses.ResponseInputItem[] = responses.input;
  const geminiContents: Content[] = gemini.contents;
  const geminiParams: GenerateContentParameters = { model, contents: gemini.contents, config: { systemInstruction: gemini.systemInstruction } };
  const geminiSystem: ContentUnion | undefined = gemini.systemInstruction;
  const ollamaParams: ChatRequest = { model, ...ollama };
  const ollamaMessages: OllamaMessage[] = ollama.messages;

  return [anthropicParams, anthropicMessages, chatParams, chatMessages, responsesParams, responsesInput, geminiContents, geminiParams, geminiSystem, ollamaParams, ollamaMessages];
}

export function partstreamClients(history: readonly ChatMessage[], model: string, handler: StreamingChatResponseHandler): Array<Promise<unknown>> {
  return [
    streamAnthropic({ model, max_tokens: 1024, ...toAnthropicMessages(history) }, handler),
    streamOpenAIChat({ model, ...toOpenAIChatMessages(history) }, handler),
    streamOpenAIResponses({ model, ...toOpenAIResponsesInput(history) }, handler),
    streamGemini({ model, ...toGeminiContents(history) }, handler),
    streamOllama({ model, ...toOllamaMessages(history) }, handler),
  ];
}

export function wrongShapes(history: readonly ChatMessage[], model: string, handler: StreamingChatResponseHandler): unknown[] {
  const out: unknown[] = [];
  // One provider's request is not another's: each pair below differs in a required field.
  // @ts-expect-error Gemini contents have `parts`, not Anthropic's `content`
  const a: Anthropic.MessageParam[] = toGeminiContents(history).contents;
  // @ts-expect-error Anthropic assistant content is a block list, not Ollama's content string
  const o: OllamaMessage[] = toAnthropicMessages(history).messages;
  // @ts-expect-error an Ollama tool message has no tool_call_id, which OpenAI Chat requires
  const c: OpenAI.Chat.ChatCompletionMessageParam[] = toOllamaMessages(history).messages;
  // @ts-expect-error Chat tool messages are not Responses input items
  const r: OpenAI.Responses.ResponseInputItem[] = toOpenAIChatMessages(history).messages;
  // @ts-expect-error Responses items have no `role`/`parts` as Gemini contents need
  const g: Content[] = toOpenAIResponsesInput(history).input;
  out.push(a, o, c, r, g);

  // The converters take chat messages only.
  // @ts-expect-error a plain object is not a ChatMessage
  out.push(toAnthropicMessages([{ role: 'user', content: 'hi' }]));
  // @ts-expect-error one message is not a list
  out.push(toGeminiContents(history[0]!));

  // The converters' own types are as strict as the APIs: a payload block without its payload does not type.
  // @ts-expect-error a thinking block needs its signature
  const thinking: AnthropicMessageParam = { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] };
  // @ts-expect-error a reasoning item needs its id
  const reasoning: OpenAIResponsesInputItem = { type: 'reasoning', summary: [], encrypted_content: 'e' };
  // @ts-expect-error Ollama tool-call arguments are an object, not the JSON text
  const ollamaCall: OllamaMessageParam = { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: '{}' } }] };
  out.push(thinking, reasoning, ollamaCall);

  // The clients still ask for what the converters do not give.
  // @ts-expect-error Anthropic requires max_tokens
  out.push(streamAnthropic({ model, ...toAnthropicMessages(history) }, handler));
  // @ts-expect-error Gemini takes `contents`, not Anthropic's `messages`
  out.push(streamGemini({ model, ...toAnthropicMessages(history) }, handler));
  return out;
}
