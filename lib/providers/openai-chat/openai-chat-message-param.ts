// The OpenAI Chat Completions request shapes `toOpenAIChatMessages` builds, written from the API
// reference. Properties are readonly, arrays plain, so that a value of these types can be passed
// where OpenAI's SDK wants its `ChatCompletionMessageParam` (test/replay/sdk-types.typecheck.ts).
import type { JsonValue } from '../../handler/types';

/** A user content part: text, or an image by URL (a `data:` URL for inline bytes). */
export type OpenAIChatUserContentPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'image_url'; readonly image_url: { readonly url: string } };

/** A function call of an assistant message, its arguments the JSON text as the model sent it. */
export interface OpenAIChatToolCallParam {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * An assistant message: its text (null when it has none), its tool calls, and OpenRouter's
 * `reasoning_details` entries as they came (a field of OpenRouter's, unknown to OpenAI).
 */
export interface OpenAIChatAssistantMessageParam {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: OpenAIChatToolCallParam[] | undefined;
  readonly reasoning_details?: JsonValue[] | undefined;
}

/** An OpenAI Chat Completions message (`ChatCompletionMessageParam`), as the converter builds it. */
export type OpenAIChatMessageParam =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | OpenAIChatUserContentPart[] }
  | OpenAIChatAssistantMessageParam
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** The request fields `toOpenAIChatMessages` returns. */
export interface OpenAIChatMessagesInput {
  readonly messages: OpenAIChatMessageParam[];
}
