// The shapes of an OpenAI Chat Completions stream (`data: <chunk>` frames, then `data: [DONE]`),
// as far as the mapper reads them. Every field is optional: compatible servers (DeepSeek, vLLM,
// OpenRouter, Azure, Ollama's OpenAI endpoint) omit or null what they do not use, so the mapper
// checks each value's type where it reads it.

/** One `tool_calls[]` element of a delta: the first one of a call carries id and name. */
export interface ChatToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly type?: string;
  readonly function?: {
    readonly name?: string | null;
    readonly arguments?: string | null;
  } | null;
}

/** One entry of OpenRouter's `reasoning_details` (fields beyond these are kept as sent). */
export interface OpenRouterReasoningDetail {
  readonly type?: 'reasoning.text' | 'reasoning.summary' | 'reasoning.encrypted' | string;
  readonly text?: string | null;
  readonly summary?: string | null;
  readonly data?: string | null;
  readonly signature?: string | null;
  readonly format?: string | null;
  readonly index?: number;
}

/** The `delta` of a streamed choice. */
export interface ChatDelta {
  readonly role?: string | null;
  readonly content?: string | null;
  /** DeepSeek's reasoning text. */
  readonly reasoning_content?: string | null;
  /** vLLM's, OpenRouter's and Ollama's reasoning text. */
  readonly reasoning?: string | null;
  /** OpenRouter's structured reasoning (`reasoning.text`, `reasoning.summary`, `reasoning.encrypted` entries). */
  readonly reasoning_details?: readonly OpenRouterReasoningDetail[] | null;
  readonly refusal?: string | null;
  readonly tool_calls?: readonly ChatToolCallDelta[] | null;
  /** The deprecated single-function call of the `functions` API. */
  readonly function_call?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

/** One element of a chunk's `choices`. */
export interface ChatChoiceDelta {
  readonly index?: number;
  readonly delta?: ChatDelta | null;
  readonly finish_reason?: string | null;
}

/** The usage object of the final chunk (`stream_options.include_usage`) or of the finish chunk. */
export interface ChatUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
}

/** An error object sent in the stream. */
export interface ChatStreamErrorBody {
  readonly message?: string;
  readonly type?: string;
  readonly code?: string | number | null;
}

/** One `chat.completion.chunk`. */
export interface ChatCompletionChunk {
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly ChatChoiceDelta[];
  readonly usage?: ChatUsage | null;
  readonly error?: ChatStreamErrorBody | string | null;
  /** `"error"` on the flat error objects some compatible servers send. */
  readonly object?: string;
}
