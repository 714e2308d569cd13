// The Gemini request shapes `toGeminiContents` builds, written from the API reference. Arrays are
// plain, so that a value of these types can be passed where Google's SDK (`@google/genai`) wants
// its `Content` (checked by test/replay/sdk-types.typecheck.ts).

/**
 * A Gemini `Part`: text (a thought when `thought` is set), a function call or response, or inline
 * or file data; `thoughtSignature` on the part it came with. Every field is optional, as in the
 * API: a part of Gemini's own that partstream does not model (`executableCode`, `toolCall` …)
 * goes back as it came, typed as this.
 */
export interface GeminiPartParam {
  readonly text?: string | undefined;
  readonly thought?: boolean | undefined;
  readonly thoughtSignature?: string | undefined;
  readonly functionCall?: { readonly id?: string | undefined; readonly name: string; readonly args: Record<string, unknown> } | undefined;
  readonly functionResponse?: { readonly id?: string | undefined; readonly name: string; readonly response: Record<string, unknown> } | undefined;
  readonly inlineData?: { readonly mimeType: string; readonly data: string } | undefined;
  readonly fileData?: { readonly mimeType: string; readonly fileUri: string } | undefined;
}

/** A Gemini `Content`: a role and its parts. */
export interface GeminiContentParam {
  readonly role: 'user' | 'model';
  readonly parts: GeminiPartParam[];
}

/** The request fields `toGeminiContents` returns. */
export interface GeminiContentsInput {
  readonly systemInstruction?: { readonly parts: Array<{ readonly text: string }> } | undefined;
  readonly contents: GeminiContentParam[];
}
