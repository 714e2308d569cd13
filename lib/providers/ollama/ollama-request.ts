import type { ExtraBody, JsonSchema } from '../kit/request-types';
import type { OllamaMessageParam } from './ollama-message-param';

/** Ollama's model options (its runtime parameters), as its API documents them. */
export interface OllamaModelOptions {
  readonly numa?: boolean | undefined;
  readonly num_ctx?: number | undefined;
  readonly num_batch?: number | undefined;
  readonly num_gpu?: number | undefined;
  readonly main_gpu?: number | undefined;
  readonly low_vram?: boolean | undefined;
  readonly f16_kv?: boolean | undefined;
  readonly logits_all?: boolean | undefined;
  readonly vocab_only?: boolean | undefined;
  readonly use_mmap?: boolean | undefined;
  readonly use_mlock?: boolean | undefined;
  readonly embedding_only?: boolean | undefined;
  readonly num_thread?: number | undefined;
  readonly num_keep?: number | undefined;
  readonly num_predict?: number | undefined;
  readonly seed?: number | undefined;
  readonly temperature?: number | undefined;
  readonly top_k?: number | undefined;
  readonly top_p?: number | undefined;
  readonly min_p?: number | undefined;
  readonly tfs_z?: number | undefined;
  readonly typical_p?: number | undefined;
  readonly repeat_last_n?: number | undefined;
  readonly repeat_penalty?: number | undefined;
  readonly presence_penalty?: number | undefined;
  readonly frequency_penalty?: number | undefined;
  readonly mirostat?: number | undefined;
  readonly mirostat_tau?: number | undefined;
  readonly mirostat_eta?: number | undefined;
  readonly penalize_newline?: boolean | undefined;
  readonly stop?: readonly string[] | undefined;
}

/** A function tool Ollama may call. */
export interface OllamaTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string | undefined; readonly parameters?: JsonSchema | undefined } | undefined;
}

/**
 * An Ollama `/api/chat` message as its API takes it: what `toOllamaMessages` builds, or a message
 * of one of its roles (images as base64 text or bytes). A misspelt role or field is a compile
 * error. (Ollama's SDK types `role` as any string: a `Message` typed so needs narrowing to pass.)
 */
export type OllamaRequestMessage =
  | OllamaMessageParam
  | {
      readonly role: 'system' | 'user' | 'assistant' | 'tool';
      readonly content: string;
      readonly thinking?: string | undefined;
      readonly images?: readonly (string | Uint8Array)[] | undefined;
      readonly tool_calls?: readonly { readonly function: { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> } }[] | undefined;
      readonly tool_name?: string | undefined;
    };

/**
 * An Ollama `/api/chat` request body, as its API documents it; `stream` is the client's (always
 * true). Messages are Ollama's `{role, content, images?, tool_calls?, thinking?}` objects (`OllamaRequestMessage`). A
 * misspelt or mistyped field is a compile error; a field these types do not know goes in `extraBody`.
 */
export interface OllamaRequest {
  readonly model: string;
  readonly messages: readonly OllamaRequestMessage[];
  readonly tools?: readonly OllamaTool[] | undefined;
  /** `json`, or a JSON Schema the answer must follow. */
  readonly format?: 'json' | JsonSchema | undefined;
  /** Model options (one the types do not know: send the whole `options` in `extraBody`). */
  readonly options?: OllamaModelOptions | undefined;
  /** Thinking on or off, or its level for the models that take one. */
  readonly think?: boolean | 'low' | 'medium' | 'high' | undefined;
  /** How long the model stays loaded (`5m`, seconds, or -1). */
  readonly keep_alive?: string | number | undefined;
  readonly logprobs?: boolean | undefined;
  readonly top_logprobs?: number | undefined;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody | undefined;
}
