/**
 * Gemini `streamGenerateContent?alt=sse` chunks (`GenerateContentResponse`), as far as
 * partstream reads them. Every field is optional and checked value by value before use.
 */

/** One streamed argument value of a function call (Vertex `streamFunctionCallArguments`). */
export interface GeminiPartialArg {
  /** Where the value goes, e.g. `$.recipe.ingredients[0].name`. */
  readonly jsonPath?: unknown;
  /** A string value, or the next piece of one while `willContinue` is true. */
  readonly stringValue?: unknown;
  readonly numberValue?: unknown;
  readonly boolValue?: unknown;
  readonly nullValue?: unknown;
  /** True while more pieces of this string value follow. */
  readonly willContinue?: unknown;
}

/** A `functionCall` part: whole (`args`) or streamed (`partialArgs` while `willContinue`). */
export interface GeminiFunctionCall {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly args?: unknown;
  readonly partialArgs?: unknown;
  /** True while more chunks of this call follow; an empty `functionCall {}` ends it. */
  readonly willContinue?: unknown;
}

/** One content part. Only text, thought text and function calls are mapped. */
export interface GeminiPart {
  readonly text?: unknown;
  readonly thought?: unknown;
  readonly thoughtSignature?: unknown;
  readonly functionCall?: GeminiFunctionCall;
}

/** One candidate of a chunk. */
export interface GeminiCandidate {
  readonly index?: unknown;
  readonly content?: { readonly parts?: unknown };
  readonly finishReason?: unknown;
}

/** The cumulative token counts a chunk carries. */
export interface GeminiUsageMetadata {
  readonly promptTokenCount?: unknown;
  readonly candidatesTokenCount?: unknown;
  readonly thoughtsTokenCount?: unknown;
  readonly toolUsePromptTokenCount?: unknown;
  readonly cachedContentTokenCount?: unknown;
  readonly totalTokenCount?: unknown;
}

/** The error object of a Gemini error body. */
export interface GeminiError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly status?: unknown;
}

/** One chunk (the `data` JSON of an SSE frame), or an error body. */
export interface GeminiChunk {
  readonly candidates?: unknown;
  readonly usageMetadata?: GeminiUsageMetadata;
  readonly modelVersion?: unknown;
  readonly responseId?: unknown;
  readonly promptFeedback?: { readonly blockReason?: unknown };
  readonly error?: GeminiError;
}
