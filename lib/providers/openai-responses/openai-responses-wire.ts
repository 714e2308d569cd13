/**
 * The OpenAI Responses streaming events, as far as partstream reads them: names for the fields,
 * every one optional and `unknown`, read through the `wire/read-json` helpers (a nested object
 * once `isJsonObject` said it is one); whatever is missing or of the wrong type leaves the event
 * to surface raw.
 */

/** An output item (`response.output_item.added` / `.done`). */
export interface ResponsesOutputItem {
  readonly id?: unknown;
  readonly type?: unknown;
  /** Function and custom tool calls: the id the tool result must answer. */
  readonly call_id?: unknown;
  readonly name?: unknown;
  /** Function calls: the argument JSON text. */
  readonly arguments?: unknown;
  /** Custom tool calls: the free-text input. */
  readonly input?: unknown;
  /** `incomplete` for a call cut off at `max_output_tokens`. */
  readonly status?: unknown;
  /** Reasoning items: the encrypted reasoning to replay. */
  readonly encrypted_content?: unknown;
  /** Reasoning items: the summary entries (`summary_text`), empty unless summaries were asked for. */
  readonly summary?: unknown;
  /** Reasoning items: the reasoning text entries (`reasoning_text`), where the model shares them. */
  readonly content?: unknown;
}

/** The `usage` object of a finished response. */
export interface ResponsesUsage {
  readonly input_tokens?: unknown;
  readonly output_tokens?: unknown;
  readonly total_tokens?: unknown;
  readonly input_tokens_details?: unknown;
  readonly output_tokens_details?: unknown;
}

/** The error object of a failed response or of an `error` event. */
export interface ResponsesError {
  readonly type?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
}

/** The response snapshot carried by `response.created` … `response.completed`. */
export interface ResponsesResponse {
  readonly id?: unknown;
  readonly model?: unknown;
  readonly status?: unknown;
  /** A `ResponsesUsage`. */
  readonly usage?: unknown;
  /** `{reason}` of an `incomplete` response. */
  readonly incomplete_details?: unknown;
  /** A failed response's `ResponsesError` (read by `providerErrorDetails`). */
  readonly error?: unknown;
}

/** One streaming event (the `data` JSON of an SSE frame). */
export interface ResponsesStreamEvent extends ResponsesError {
  readonly type?: unknown;
  readonly item_id?: unknown;
  /** The position of the item in the response's output. */
  readonly output_index?: unknown;
  readonly content_index?: unknown;
  readonly summary_index?: unknown;
  /** Text, reasoning, argument and custom-input deltas. */
  readonly delta?: unknown;
  /** The full text on `*.done` events of text and reasoning. */
  readonly text?: unknown;
  /** The full arguments on `response.function_call_arguments.done`. */
  readonly arguments?: unknown;
  /** The full input on `response.custom_tool_call_input.done`. */
  readonly input?: unknown;
  /** A `ResponsesOutputItem`. */
  readonly item?: unknown;
  /** A `ResponsesResponse`. */
  readonly response?: unknown;
  /** The `error` event's `ResponsesError` (older streams put code and message at the top level). */
  readonly error?: unknown;
}
