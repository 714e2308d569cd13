import type { JsonValue } from '../../handler/types';
import type { OpenAIChatMessageParam, OpenAIChatToolCallParam, OpenAIChatUserContentPart } from './openai-chat-message-param';
import type { BuiltInTool, ExtraBody, JsonSchema, TypedBlock, WithOtherFields } from '../kit/request-types';

/** How hard a reasoning model thinks (`reasoning_effort`, Responses `reasoning.effort`). */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** OpenAI's processing tier. */
export type OpenAIServiceTier = 'auto' | 'default' | 'flex' | 'scale' | 'priority';

/** A function the model may call. */
export interface OpenAIFunctionDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  /** The arguments' JSON Schema. */
  readonly parameters?: JsonSchema | undefined;
  readonly strict?: boolean | null | undefined;
}

/** A Chat Completions tool: a function, or a custom tool with free-text input. */
export type OpenAIChatTool =
  | { readonly type: 'function'; readonly function: OpenAIFunctionDefinition }
  | { readonly type: 'custom'; readonly custom: { readonly name: string; readonly description?: string | undefined; readonly format?: BuiltInTool | undefined } };

/** Which tool the model may or must call. */
export type OpenAIChatToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { readonly type: 'function'; readonly function: { readonly name: string } }
  | { readonly type: 'custom'; readonly custom: { readonly name: string } }
  | { readonly type: 'allowed_tools'; readonly allowed_tools: { readonly mode: 'auto' | 'required'; readonly tools: readonly Readonly<Record<string, unknown>>[] } };

/** The shape of the answer: text, any JSON object, or JSON following a schema. */
export type OpenAIResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly json_schema: { readonly name: string; readonly description?: string | undefined; readonly schema?: JsonSchema | undefined; readonly strict?: boolean | null | undefined };
    };

/** The roles of a Chat Completions message (`function` is the API's legacy one). */
export type OpenAIChatRole = 'developer' | 'system' | 'user' | 'assistant' | 'tool' | 'function';

/** The content part types of a Chat Completions message (`refusal` in assistant messages only). */
export type OpenAIChatContentPartType = 'text' | 'image_url' | 'input_audio' | 'file' | 'refusal';

/**
 * A Chat Completions message as the API takes it (`ChatCompletionMessageParam`): what
 * `toOpenAIChatMessages` builds, or any message of one of the API's roles, its content a string
 * or parts of the API's types. A misspelt role or part type is a compile error; the fields of the
 * API's other messages (`name`, `refusal`, `audio` …) and of compatible servers pass.
 */
export type OpenAIChatRequestMessage =
  | OpenAIChatMessageParam
  | WithOtherFields<{
      readonly role: OpenAIChatRole;
      readonly content?: string | readonly (OpenAIChatUserContentPart | TypedBlock<OpenAIChatContentPartType>)[] | null | undefined;
      readonly name?: string | undefined;
      readonly tool_call_id?: string | undefined;
      readonly tool_calls?: readonly (OpenAIChatToolCallParam | TypedBlock<'function' | 'custom'>)[] | undefined;
      readonly refusal?: string | null | undefined;
      readonly audio?: { readonly id: string } | null | undefined;
      readonly function_call?: { readonly name: string; readonly arguments: string } | null | undefined;
      readonly reasoning_details?: readonly JsonValue[] | undefined;
    }>;

/**
 * An OpenAI Chat Completions request body, as the API documents it; `stream` is the client's
 * (always true). Messages are the API's message objects (`{role, content, …}`, see `OpenAIChatRequestMessage`). A misspelt or
 * mistyped field is a compile error; a field these types do not know goes in `extraBody`.
 */
export interface OpenAIChatRequest {
  readonly model: string;
  readonly messages: readonly OpenAIChatRequestMessage[];
  readonly audio?: { readonly format: string; readonly voice: string | { readonly id: string } } | null | undefined;
  readonly frequency_penalty?: number | null | undefined;
  /** @deprecated The API's legacy form of `tool_choice`. */
  readonly function_call?: 'none' | 'auto' | { readonly name: string } | undefined;
  /** @deprecated The API's legacy form of `tools`. */
  readonly functions?: readonly OpenAIFunctionDefinition[] | undefined;
  readonly logit_bias?: Readonly<Record<string, number>> | null | undefined;
  readonly logprobs?: boolean | null | undefined;
  /** The most tokens to generate, reasoning included (the newer name of `max_tokens`). */
  readonly max_completion_tokens?: number | null | undefined;
  readonly max_tokens?: number | null | undefined;
  /** Up to 16 string pairs stored with the completion. */
  readonly metadata?: Readonly<Record<string, string>> | null | undefined;
  readonly modalities?: readonly ('text' | 'audio')[] | null | undefined;
  readonly n?: number | null | undefined;
  readonly parallel_tool_calls?: boolean | undefined;
  readonly prediction?: { readonly type: 'content'; readonly content: string | readonly object[] } | null | undefined;
  readonly presence_penalty?: number | null | undefined;
  readonly prompt_cache_key?: string | null | undefined;
  readonly prompt_cache_retention?: 'in_memory' | '24h' | null | undefined;
  readonly reasoning_effort?: OpenAIReasoningEffort | null | undefined;
  readonly response_format?: OpenAIResponseFormat | undefined;
  readonly safety_identifier?: string | null | undefined;
  readonly seed?: number | null | undefined;
  readonly service_tier?: OpenAIServiceTier | null | undefined;
  readonly stop?: string | readonly string[] | null | undefined;
  readonly store?: boolean | null | undefined;
  /** `include_usage` is sent as true unless set here, so that the final message carries usage. */
  readonly stream_options?: { readonly include_usage?: boolean | undefined; readonly include_obfuscation?: boolean | undefined } | null | undefined;
  readonly temperature?: number | null | undefined;
  readonly tool_choice?: OpenAIChatToolChoice | undefined;
  readonly tools?: readonly OpenAIChatTool[] | undefined;
  readonly top_logprobs?: number | null | undefined;
  readonly top_p?: number | null | undefined;
  /** @deprecated The API's older end-user id; see `safety_identifier` and `prompt_cache_key`. */
  readonly user?: string | undefined;
  readonly verbosity?: 'low' | 'medium' | 'high' | null | undefined;
  readonly web_search_options?:
    | {
        readonly search_context_size?: 'low' | 'medium' | 'high' | undefined;
        readonly user_location?: { readonly type: 'approximate'; readonly approximate: Readonly<Record<string, string>> } | null | undefined;
      }
    | undefined;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody | undefined;
}
