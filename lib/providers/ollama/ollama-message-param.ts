// The Ollama `/api/chat` message shapes `toOllamaMessages` builds, written from the API docs.
// Arrays are plain, so that a value of these types can be passed where the `ollama` package wants
// its `Message` (checked by test/replay/sdk-types.typecheck.ts).

/** A tool call of an assistant message: the function's name and its arguments as an object. */
export interface OllamaToolCallParam {
  readonly function: { readonly name: string; readonly arguments: Record<string, unknown> };
}

/** An Ollama `/api/chat` message, as the converter builds it. */
export interface OllamaMessageParam {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  /** Base64 images of a user message. */
  readonly images?: string[] | undefined;
  /** The thinking text of an assistant message. */
  readonly thinking?: string | undefined;
  readonly tool_calls?: OllamaToolCallParam[] | undefined;
  /** The tool whose result a `tool` message holds. */
  readonly tool_name?: string | undefined;
}

/** The request fields `toOllamaMessages` returns. */
export interface OllamaMessagesInput {
  readonly messages: OllamaMessageParam[];
}
