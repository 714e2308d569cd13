/**
 * Gemini `streamGenerateContent?alt=sse` chunks (`GenerateContentResponse`), as far as
 * partstream reads them: names for the fields, every one optional and `unknown`, read through
 * the `wire/read-json` helpers (a nested object once `isJsonObject` said it is one).
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
  /** A `GeminiFunctionCall`. */
  readonly functionCall?: unknown;
}

/** One candidate of a chunk. */
export interface GeminiCandidate {
  readonly index?: unknown;
  /** `{parts}`. */
  readonly content?: unknown;
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

/** One chunk (the `data` JSON of an SSE frame), or an error body. */
export interface GeminiChunk {
  readonly candidates?: unknown;
  /** A `GeminiUsageMetadata`. */
  readonly usageMetadata?: unknown;
  readonly modelVersion?: unknown;
  readonly responseId?: unknown;
  /** `{blockReason, …}` when the prompt was blocked. */
  readonly promptFeedback?: unknown;
  /** An error body's `{code, message, status}` (read by `providerErrorDetails`). */
  readonly error?: unknown;
}
