import type { OpenAIReasoningEffort, OpenAIServiceTier } from './openai-chat-request';
import type { BuiltInTool, ExtraBody, JsonSchema } from './request-types';

/** A function the model may call, in the Responses API's flat form. */
export interface OpenAIResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string | null;
  readonly parameters: JsonSchema | null;
  readonly strict: boolean | null;
}

/** A Responses tool: a function, or a built-in one (`web_search`, `file_search`, `code_interpreter`, `mcp`, `custom` …). */
export type OpenAIResponsesTool = OpenAIResponsesFunctionTool | BuiltInTool;

/** The output's text format: text, any JSON object, or JSON following a schema. */
export type OpenAIResponsesTextFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: JsonSchema; readonly description?: string; readonly strict?: boolean | null };

/**
 * An OpenAI Responses request body, as the API documents it; `stream` is the client's (always
 * true). `input` is a string or the API's input items. A misspelt or mistyped field is a compile
 * error; a field these types do not know goes in `extraBody`.
 */
export interface OpenAIResponsesRequest {
  readonly model: string;
  readonly input?: string | readonly object[];
  readonly instructions?: string | null;
  readonly background?: boolean | null;
  readonly conversation?: string | { readonly id: string } | null;
  /** Extra output to include, e.g. `reasoning.encrypted_content` for stateless reasoning replay. */
  readonly include?: readonly string[] | null;
  readonly max_output_tokens?: number | null;
  readonly max_tool_calls?: number | null;
  readonly metadata?: Readonly<Record<string, string>> | null;
  readonly parallel_tool_calls?: boolean | null;
  readonly previous_response_id?: string | null;
  readonly prompt?: { readonly id: string; readonly variables?: Readonly<Record<string, unknown>> | null; readonly version?: string | null } | null;
  readonly prompt_cache_key?: string | null;
  readonly prompt_cache_retention?: 'in_memory' | '24h' | null;
  readonly reasoning?: {
    readonly effort?: OpenAIReasoningEffort | null;
    readonly summary?: 'auto' | 'concise' | 'detailed' | null;
    /** @deprecated The API's older name of `summary`. */
    readonly generate_summary?: 'auto' | 'concise' | 'detailed' | null;
  } | null;
  readonly safety_identifier?: string | null;
  readonly service_tier?: OpenAIServiceTier | null;
  readonly store?: boolean | null;
  readonly stream_options?: { readonly include_obfuscation?: boolean } | null;
  readonly temperature?: number | null;
  readonly text?: { readonly format?: OpenAIResponsesTextFormat; readonly verbosity?: 'low' | 'medium' | 'high' | null };
  readonly tool_choice?: 'none' | 'auto' | 'required' | BuiltInTool;
  readonly tools?: readonly OpenAIResponsesTool[];
  readonly top_logprobs?: number | null;
  readonly top_p?: number | null;
  readonly truncation?: 'auto' | 'disabled' | null;
  /** @deprecated The API's older end-user id; see `safety_identifier` and `prompt_cache_key`. */
  readonly user?: string;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody;
}
