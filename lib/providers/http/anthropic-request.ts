import type { BuiltInTool, ExtraBody, JsonSchema } from './request-types';

/** Marks a prompt-cache breakpoint. */
export interface AnthropicCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: '5m' | '1h';
}

/** A tool the model may call, defined by its input schema. */
export interface AnthropicCustomTool {
  readonly type?: 'custom' | null;
  readonly name: string;
  readonly description?: string;
  readonly input_schema: JsonSchema;
  readonly cache_control?: AnthropicCacheControl | null;
  readonly strict?: boolean;
}

/** An Anthropic tool: a custom one, or a server / client tool of Anthropic's (`web_search_…`, `bash_…`, `text_editor_…` …). */
export type AnthropicTool = AnthropicCustomTool | BuiltInTool;

/** Extended thinking: on with a token budget, adaptive, or off. */
export type AnthropicThinkingConfig =
  | { readonly type: 'enabled'; readonly budget_tokens: number; readonly display?: 'summarized' | 'omitted' | null }
  | { readonly type: 'adaptive'; readonly display?: 'summarized' | 'omitted' | null }
  | { readonly type: 'disabled' };

/** Which tool the model may or must call. */
export type AnthropicToolChoice =
  | { readonly type: 'auto'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'any'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'tool'; readonly name: string; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'none' };

/** A text block of the system prompt. */
export interface AnthropicSystemBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: AnthropicCacheControl | null;
  readonly citations?: readonly object[] | null;
}

/**
 * An Anthropic Messages request body, as the API documents it; `stream` is the client's (always
 * true). Messages are the API's `{role, content}` objects. A misspelt or mistyped field is a
 * compile error; a field these types do not know (a beta's) goes in `extraBody`.
 */
export interface AnthropicRequest {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly object[];
  readonly system?: string | readonly AnthropicSystemBlock[];
  readonly cache_control?: AnthropicCacheControl | null;
  readonly container?: string | null;
  readonly inference_geo?: string | null;
  readonly metadata?: { readonly user_id?: string | null };
  readonly output_config?: {
    readonly effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;
    readonly format?: { readonly type: 'json_schema'; readonly schema: JsonSchema } | null;
  };
  readonly service_tier?: 'auto' | 'standard_only';
  readonly stop_sequences?: readonly string[];
  readonly temperature?: number;
  readonly thinking?: AnthropicThinkingConfig;
  readonly tool_choice?: AnthropicToolChoice;
  readonly tools?: readonly AnthropicTool[];
  readonly top_k?: number;
  readonly top_p?: number;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody;
}
