/**
 * Ollama `/api/chat` NDJSON lines, as far as partstream reads them. Every field is optional and
 * checked value by value before use.
 */

/** One requested tool call. */
export interface OllamaToolCall {
  readonly id?: unknown;
  /** `{name, arguments}`: arguments an object (serialised to JSON text, key order kept) or, from some servers, JSON text. */
  readonly function?: unknown;
}

/** The assistant message fragment a line carries. */
export interface OllamaMessage {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly thinking?: unknown;
  readonly tool_calls?: unknown;
}

/** One parsed line of the stream. */
export interface OllamaLine {
  readonly model?: unknown;
  /** An `OllamaMessage` once checked to be an object. */
  readonly message?: unknown;
  readonly done?: unknown;
  readonly done_reason?: unknown;
  readonly prompt_eval_count?: unknown;
  readonly eval_count?: unknown;
  /** An error line: a message string (or an object with one). */
  readonly error?: unknown;
}
