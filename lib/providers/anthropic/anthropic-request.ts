import type { AnthropicAssistantBlockParam, AnthropicMessageParam, AnthropicUserBlockParam } from './anthropic-message-param';
import type { BuiltInTool, ExtraBody, JsonSchema, TypedBlock } from '../kit/request-types';

/** Marks a prompt-cache breakpoint. */
export interface AnthropicCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: '5m' | '1h' | undefined;
}

/** A tool the model may call, defined by its input schema. */
export interface AnthropicCustomTool {
  readonly type?: 'custom' | null | undefined;
  readonly name: string;
  readonly description?: string | undefined;
  readonly input_schema: JsonSchema;
  readonly cache_control?: AnthropicCacheControl | null | undefined;
  readonly strict?: boolean | undefined;
}

/** An Anthropic tool: a custom one, or a server / client tool of Anthropic's (`web_search_…`, `bash_…`, `text_editor_…` …). */
export type AnthropicTool = AnthropicCustomTool | BuiltInTool;

/** Extended thinking: on with a token budget, adaptive, or off. */
export type AnthropicThinkingConfig =
  | { readonly type: 'enabled'; readonly budget_tokens: number; readonly display?: 'summarized' | 'omitted' | null | undefined }
  | { readonly type: 'adaptive'; readonly display?: 'summarized' | 'omitted' | null | undefined }
  | { readonly type: 'disabled' };

/** Which tool the model may or must call. */
export type AnthropicToolChoice =
  | { readonly type: 'auto'; readonly disable_parallel_tool_use?: boolean | undefined }
  | { readonly type: 'any'; readonly disable_parallel_tool_use?: boolean | undefined }
  | { readonly type: 'tool'; readonly name: string; readonly disable_parallel_tool_use?: boolean | undefined }
  | { readonly type: 'none' };

/** A text block of the system prompt. */
export interface AnthropicSystemBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: AnthropicCacheControl | null | undefined;
  readonly citations?: readonly object[] | null | undefined;
}

/** The content block types of a Messages API message. */
export type AnthropicContentBlockType =
  | 'text'
  | 'image'
  | 'document'
  | 'search_result'
  | 'thinking'
  | 'redacted_thinking'
  | 'tool_use'
  | 'tool_result'
  | 'server_tool_use'
  | 'web_search_tool_result'
  | 'web_fetch_tool_result'
  | 'code_execution_tool_result'
  | 'bash_code_execution_tool_result'
  | 'text_editor_code_execution_tool_result'
  | 'tool_search_tool_result'
  | 'container_upload'
  | 'mcp_tool_use'
  | 'mcp_tool_result';

/** A content block as the Messages API takes it: one `toAnthropicMessages` builds, or any block of one of the API's types. */
export type AnthropicRequestBlock = AnthropicUserBlockParam | AnthropicAssistantBlockParam | TypedBlock<AnthropicContentBlockType>;

/**
 * A Messages API message as the API takes it (`MessageParam`): what `toAnthropicMessages` builds,
 * a user or assistant turn whose content is a string or blocks of the API's types, or a system
 * message (its text blocks). A misspelt role or block type is a compile error.
 */
export type AnthropicRequestMessage =
  | AnthropicMessageParam
  | { readonly role: 'user' | 'assistant'; readonly content: string | readonly AnthropicRequestBlock[] }
  | { readonly role: 'system'; readonly content: string | readonly AnthropicSystemBlock[] };

/**
 * An Anthropic Messages request body, as the API documents it; `stream` is the client's (always
 * true). Messages are the API's `{role, content}` objects (`AnthropicRequestMessage`). A misspelt or mistyped field is a
 * compile error; a field these types do not know (a beta's) goes in `extraBody`.
 */
export interface AnthropicRequest {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly AnthropicRequestMessage[];
  readonly system?: string | readonly AnthropicSystemBlock[] | undefined;
  readonly cache_control?: AnthropicCacheControl | null | undefined;
  readonly container?: string | null | undefined;
  readonly inference_geo?: string | null | undefined;
  readonly metadata?: { readonly user_id?: string | null | undefined } | undefined;
  readonly output_config?:
    | {
        readonly effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null | undefined;
        readonly format?: { readonly type: 'json_schema'; readonly schema: JsonSchema } | null | undefined;
      }
    | undefined;
  readonly service_tier?: 'auto' | 'standard_only' | undefined;
  readonly stop_sequences?: readonly string[] | undefined;
  readonly temperature?: number | undefined;
  readonly thinking?: AnthropicThinkingConfig | undefined;
  readonly tool_choice?: AnthropicToolChoice | undefined;
  readonly tools?: readonly AnthropicTool[] | undefined;
  readonly top_k?: number | undefined;
  readonly top_p?: number | undefined;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody | undefined;
}
