// The OpenAI Responses input items `toOpenAIResponsesInput` builds, written from the API
// reference. Properties are readonly, arrays plain, so that a value of these types can be passed
// where OpenAI's SDK wants its `ResponseInputItem` (test/replay/sdk-types.typecheck.ts).

/** A content part of a user message: text, an image (URL or `data:` URL), or a file. */
export type OpenAIResponsesInputContent =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'input_image'; readonly image_url: string; readonly detail: 'auto' }
  | { readonly type: 'input_file'; readonly file_url: string }
  | { readonly type: 'input_file'; readonly filename: string; readonly file_data: string };

/** An annotation of an output text, as the API returned it. */
export type OpenAIResponsesAnnotation =
  | { readonly type: 'url_citation'; readonly url: string; readonly title: string; readonly start_index: number; readonly end_index: number }
  | { readonly type: 'file_citation'; readonly file_id: string; readonly filename: string; readonly index: number }
  | { readonly type: 'container_file_citation'; readonly container_id: string; readonly file_id: string; readonly filename: string; readonly start_index: number; readonly end_index: number }
  | { readonly type: 'file_path'; readonly file_id: string; readonly index: number };

/** A message given by role and content (the API's "easy" input message); assistant text without an item id goes back this way. */
export interface OpenAIResponsesEasyMessage {
  readonly type?: 'message' | undefined;
  readonly role: 'user' | 'assistant';
  readonly content: string | OpenAIResponsesInputContent[];
}

/** An assistant `message` output item, sent back with its id. */
export interface OpenAIResponsesOutputMessage {
  readonly type: 'message';
  readonly id: string;
  readonly role: 'assistant';
  readonly status: 'completed';
  readonly content: Array<{ readonly type: 'output_text'; readonly text: string; readonly annotations: OpenAIResponsesAnnotation[] }>;
}

/** A `reasoning` item with its id, its summaries and its encrypted content. */
export interface OpenAIResponsesReasoningItem {
  readonly type: 'reasoning';
  readonly id: string;
  readonly summary: Array<{ readonly type: 'summary_text'; readonly text: string }>;
  readonly encrypted_content?: string | undefined;
}

/** A `function_call` item: JSON arguments as the model sent them. */
export interface OpenAIResponsesFunctionCall {
  readonly type: 'function_call';
  readonly id?: string | undefined;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A `custom_tool_call` item: the free-text input as the model sent it. */
export interface OpenAIResponsesCustomToolCall {
  readonly type: 'custom_tool_call';
  readonly id?: string | undefined;
  readonly call_id: string;
  readonly name: string;
  readonly input: string;
}

/** The result of a function call (`function_call_output`) or of a custom tool call (`custom_tool_call_output`). */
export interface OpenAIResponsesCallOutput {
  readonly type: 'function_call_output' | 'custom_tool_call_output';
  readonly call_id: string;
  readonly output: string;
}

/**
 * An output item of OpenAI's that partstream does not model (an `unknown` part), sent back as
 * it came. Its static type names the web search call the API documents; at run time it is
 * whatever item OpenAI sent (`web_search_call`, `mcp_call`, `code_interpreter_call` …).
 */
export interface OpenAIResponsesPassthroughItem {
  readonly type: 'web_search_call';
  readonly id: string;
  readonly status: 'in_progress' | 'searching' | 'completed' | 'failed';
  readonly action:
    | { readonly type: 'search'; readonly query?: string | undefined }
    | { readonly type: 'open_page'; readonly url?: string | null | undefined }
    | { readonly type: 'find_in_page'; readonly pattern: string; readonly url: string };
}

/** One OpenAI Responses input item (`ResponseInputItem`), as the converter builds it. */
export type OpenAIResponsesInputItem =
  | OpenAIResponsesEasyMessage
  | OpenAIResponsesOutputMessage
  | OpenAIResponsesReasoningItem
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesCustomToolCall
  | OpenAIResponsesCallOutput
  | OpenAIResponsesPassthroughItem;

/** The request fields `toOpenAIResponsesInput` returns. */
export interface OpenAIResponsesInput {
  readonly instructions?: string | undefined;
  readonly input: OpenAIResponsesInputItem[];
}
