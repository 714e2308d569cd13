import type { ExtraBody, JsonSchema } from './request-types';

/** Ollama's model options (its runtime parameters), as its API documents them. */
export interface OllamaModelOptions {
  readonly numa?: boolean;
  readonly num_ctx?: number;
  readonly num_batch?: number;
  readonly num_gpu?: number;
  readonly main_gpu?: number;
  readonly low_vram?: boolean;
  readonly f16_kv?: boolean;
  readonly logits_all?: boolean;
  readonly vocab_only?: boolean;
  readonly use_mmap?: boolean;
  readonly use_mlock?: boolean;
  readonly embedding_only?: boolean;
  readonly num_thread?: number;
  readonly num_keep?: number;
  readonly num_predict?: number;
  readonly seed?: number;
  readonly temperature?: number;
  readonly top_k?: number;
  readonly top_p?: number;
  readonly min_p?: number;
  readonly tfs_z?: number;
  readonly typical_p?: number;
  readonly repeat_last_n?: number;
  readonly repeat_penalty?: number;
  readonly presence_penalty?: number;
  readonly frequency_penalty?: number;
  readonly mirostat?: number;
  readonly mirostat_tau?: number;
  readonly mirostat_eta?: number;
  readonly penalize_newline?: boolean;
  readonly stop?: readonly string[];
}

/** A function tool Ollama may call. */
export interface OllamaTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: JsonSchema };
}

/**
 * An Ollama `/api/chat` request body, as its API documents it; `stream` is the client's (always
 * true). Messages are Ollama's `{role, content, images?, tool_calls?, thinking?}` objects. A
 * misspelt or mistyped field is a compile error; a field these types do not know goes in `extraBody`.
 */
export interface OllamaRequest {
  readonly model: string;
  readonly messages: readonly object[];
  readonly tools?: readonly OllamaTool[];
  /** `json`, or a JSON Schema the answer must follow. */
  readonly format?: 'json' | JsonSchema;
  /** Model options (one the types do not know: send the whole `options` in `extraBody`). */
  readonly options?: OllamaModelOptions;
  /** Thinking on or off, or its level for the models that take one. */
  readonly think?: boolean | 'low' | 'medium' | 'high';
  /** How long the model stays loaded (`5m`, seconds, or -1). */
  readonly keep_alive?: string | number;
  readonly logprobs?: boolean;
  readonly top_logprobs?: number;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody;
}
