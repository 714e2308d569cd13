import type { OpenAIResponsesInputContent, OpenAIResponsesInputItem } from './openai-responses-input-param';
import type { OpenAIReasoningEffort, OpenAIServiceTier } from '../openai-chat/openai-chat-request';
import type { BuiltInTool, ExtraBody, JsonSchema, TypedBlock, WithOtherFields } from '../kit/request-types';

/** A function the model may call, in the Responses API's flat form. */
export interface OpenAIResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string | null | undefined;
  readonly parameters: JsonSchema | null;
  readonly strict: boolean | null;
}

/** A Responses tool: a function, or a built-in one (`web_search`, `file_search`, `code_interpreter`, `mcp`, `custom` …). */
export type OpenAIResponsesTool = OpenAIResponsesFunctionTool | BuiltInTool;

/** The output's text format: text, any JSON object, or JSON following a schema. */
export type OpenAIResponsesTextFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: JsonSchema; readonly description?: string | undefined; readonly strict?: boolean | null | undefined };

/** The types of the Responses API's input items besides messages (`function_call`, `reasoning`, `mcp_call` …). */
export type OpenAIResponsesItemType =
  | 'reasoning'
  | 'function_call'
  | 'function_call_output'
  | 'custom_tool_call'
  | 'custom_tool_call_output'
  | 'image_generation_call'
  | 'web_search_call'
  | 'file_search_call'
  | 'computer_call'
  | 'computer_call_output'
  | 'tool_search_call'
  | 'tool_search_output'
  | 'additional_tools'
  | 'compaction'
  | 'compaction_trigger'
  | 'code_interpreter_call'
  | 'local_shell_call'
  | 'local_shell_call_output'
  | 'shell_call'
  | 'shell_call_output'
  | 'apply_patch_call'
  | 'apply_patch_call_output'
  | 'mcp_list_tools'
  | 'mcp_approval_request'
  | 'mcp_approval_response'
  | 'mcp_call'
  | 'item_reference'
  | 'program'
  | 'program_output';

/** The content part types of a Responses message (`output_text` and `refusal` in assistant output messages). */
export type OpenAIResponsesContentType = 'input_text' | 'input_image' | 'input_file' | 'input_audio' | 'output_text' | 'refusal';

/**
 * A Responses input item as the API takes it (`ResponseInputItem`): what
 * `toOpenAIResponsesInput` builds; a message of one of the API's roles (its content a string or
 * parts of the API's types); an item of one of the API's types; or a reference to a stored item
 * by `id`. A misspelt role, item type or part type is a compile error; the items' other fields
 * pass as the API documents them.
 */
export type OpenAIResponsesRequestItem =
  | OpenAIResponsesInputItem
  | WithOtherFields<{
      readonly type?: 'message' | undefined;
      readonly role: 'user' | 'assistant' | 'system' | 'developer';
      readonly content: string | readonly (OpenAIResponsesInputContent | TypedBlock<OpenAIResponsesContentType>)[];
    }>
  | { readonly type?: 'item_reference' | null | undefined; readonly id: string }
  | TypedBlock<OpenAIResponsesItemType>;

/**
 * An OpenAI Responses request body, as the API documents it; `stream` is the client's (always
 * true). `input` is a string or the API's input items (`OpenAIResponsesRequestItem`). A misspelt or mistyped field is a compile
 * error; a field these types do not know goes in `extraBody`.
 */
export interface OpenAIResponsesRequest {
  readonly model: string;
  readonly input?: string | readonly OpenAIResponsesRequestItem[] | undefined;
  readonly instructions?: string | null | undefined;
  readonly background?: boolean | null | undefined;
  readonly conversation?: string | { readonly id: string } | null | undefined;
  /** Extra output to include, e.g. `reasoning.encrypted_content` for stateless reasoning replay. */
  readonly include?: readonly string[] | null | undefined;
  readonly max_output_tokens?: number | null | undefined;
  readonly max_tool_calls?: number | null | undefined;
  readonly metadata?: Readonly<Record<string, string>> | null | undefined;
  readonly parallel_tool_calls?: boolean | null | undefined;
  readonly previous_response_id?: string | null | undefined;
  readonly prompt?: { readonly id: string; readonly variables?: Readonly<Record<string, unknown>> | null | undefined; readonly version?: string | null | undefined } | null | undefined;
  readonly prompt_cache_key?: string | null | undefined;
  readonly prompt_cache_retention?: 'in_memory' | '24h' | null | undefined;
  readonly reasoning?:
    | {
        readonly effort?: OpenAIReasoningEffort | null | undefined;
        readonly summary?: 'auto' | 'concise' | 'detailed' | null | undefined;
        /** @deprecated The API's older name of `summary`. */
        readonly generate_summary?: 'auto' | 'concise' | 'detailed' | null | undefined;
      }
    | null
    | undefined;
  readonly safety_identifier?: string | null | undefined;
  readonly service_tier?: OpenAIServiceTier | null | undefined;
  readonly store?: boolean | null | undefined;
  readonly stream_options?: { readonly include_obfuscation?: boolean | undefined } | null | undefined;
  readonly temperature?: number | null | undefined;
  readonly text?: { readonly format?: OpenAIResponsesTextFormat | undefined; readonly verbosity?: 'low' | 'medium' | 'high' | null | undefined } | undefined;
  readonly tool_choice?: 'none' | 'auto' | 'required' | BuiltInTool | undefined;
  readonly tools?: readonly OpenAIResponsesTool[] | undefined;
  readonly top_logprobs?: number | null | undefined;
  readonly top_p?: number | null | undefined;
  readonly truncation?: 'auto' | 'disabled' | null | undefined;
  /** @deprecated The API's older end-user id; see `safety_identifier` and `prompt_cache_key`. */
  readonly user?: string | undefined;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody | undefined;
}
