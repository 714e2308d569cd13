// The shapes of an OpenAI Chat Completions stream (`data: <chunk>` frames, then `data: [DONE]`),
// as far as the mapper reads them: names for the fields, every one optional and `unknown`
// (compatible servers — DeepSeek, vLLM, OpenRouter, Azure, Ollama's OpenAI endpoint — omit or
// null what they do not use), read through the `wire/read-json` helpers: a nested object once
// `isJsonObject` said it is one.

/** One `tool_calls[]` element of a delta: the first one of a call carries id and name. */
export interface ChatToolCallDelta {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly type?: unknown;
  /** `{name, arguments}`. */
  readonly function?: unknown;
}

/** The `delta` of a streamed choice. */
export interface ChatDelta {
  readonly role?: unknown;
  readonly content?: unknown;
  /** DeepSeek's reasoning text. */
  readonly reasoning_content?: unknown;
  /** vLLM's, OpenRouter's and Ollama's reasoning text. */
  readonly reasoning?: unknown;
  /** OpenRouter's structured reasoning (`reasoning.text`, `reasoning.summary`, `reasoning.encrypted` entries). */
  readonly reasoning_details?: unknown;
  readonly refusal?: unknown;
  /** `ChatToolCallDelta`s. */
  readonly tool_calls?: unknown;
  /** The deprecated single-function call of the `functions` API: `{name, arguments}`. */
  readonly function_call?: unknown;
}

/** One element of a chunk's `choices`. */
export interface ChatChoiceDelta {
  readonly index?: unknown;
  /** A `ChatDelta`. */
  readonly delta?: unknown;
  readonly finish_reason?: unknown;
}

/** One `chat.completion.chunk`. */
export interface ChatCompletionChunk {
  readonly id?: unknown;
  readonly model?: unknown;
  /** `ChatChoiceDelta`s. */
  readonly choices?: unknown;
  /** The usage object of the final chunk (`stream_options.include_usage`) or of the finish chunk. */
  readonly usage?: unknown;
  /** An error object (or text) sent in the stream (read by `providerErrorDetails`). */
  readonly error?: unknown;
  /** `"error"` on the flat error objects some compatible servers send. */
  readonly object?: unknown;
}
