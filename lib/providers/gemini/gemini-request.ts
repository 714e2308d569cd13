import type { ExtraBody, JsonSchema } from '../kit/request-types';
import type { GeminiPartParam } from './gemini-content-param';

/** A function the model may call. */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string | undefined;
  /** The arguments as an OpenAPI schema subset … */
  readonly parameters?: JsonSchema | undefined;
  /** … or as JSON Schema. */
  readonly parametersJsonSchema?: unknown;
  readonly response?: JsonSchema | undefined;
  readonly responseJsonSchema?: unknown;
  readonly behavior?: 'BLOCKING' | 'NON_BLOCKING' | undefined;
}

/** A Gemini tool: function declarations, or a built-in (`googleSearch`, `codeExecution`, `urlContext` …). */
export interface GeminiTool {
  readonly functionDeclarations?: readonly GeminiFunctionDeclaration[] | undefined;
  readonly googleSearch?: object | undefined;
  readonly googleSearchRetrieval?: object | undefined;
  readonly codeExecution?: object | undefined;
  readonly urlContext?: object | undefined;
  readonly googleMaps?: object | undefined;
  readonly fileSearch?: object | undefined;
  readonly computerUse?: object | undefined;
}

/** How the model thinks (Gemini 2.5: a token budget; Gemini 3: a level). */
export interface GeminiThinkingConfig {
  readonly includeThoughts?: boolean | undefined;
  readonly thinkingBudget?: number | undefined;
  readonly thinkingLevel?: 'THINKING_LEVEL_UNSPECIFIED' | 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH' | undefined;
}

/** Sampling and output settings. */
export interface GeminiGenerationConfig {
  readonly stopSequences?: readonly string[] | undefined;
  readonly responseMimeType?: string | undefined;
  readonly responseSchema?: JsonSchema | undefined;
  readonly responseJsonSchema?: unknown;
  readonly responseModalities?: readonly ('TEXT' | 'IMAGE' | 'AUDIO')[] | undefined;
  readonly candidateCount?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
  readonly temperature?: number | undefined;
  readonly topP?: number | undefined;
  readonly topK?: number | undefined;
  readonly seed?: number | undefined;
  readonly presencePenalty?: number | undefined;
  readonly frequencyPenalty?: number | undefined;
  readonly responseLogprobs?: boolean | undefined;
  readonly logprobs?: number | undefined;
  readonly enableEnhancedCivicAnswers?: boolean | undefined;
  readonly speechConfig?: object | undefined;
  readonly thinkingConfig?: GeminiThinkingConfig | undefined;
  readonly imageConfig?: { readonly aspectRatio?: string | undefined; readonly imageSize?: string | undefined } | undefined;
  readonly mediaResolution?: 'MEDIA_RESOLUTION_UNSPECIFIED' | 'MEDIA_RESOLUTION_LOW' | 'MEDIA_RESOLUTION_MEDIUM' | 'MEDIA_RESOLUTION_HIGH' | undefined;
}

/** A safety filter's threshold for one harm category. */
export interface GeminiSafetySetting {
  readonly category: string;
  readonly threshold: 'HARM_BLOCK_THRESHOLD_UNSPECIFIED' | 'BLOCK_LOW_AND_ABOVE' | 'BLOCK_MEDIUM_AND_ABOVE' | 'BLOCK_ONLY_HIGH' | 'BLOCK_NONE' | 'OFF';
}

/**
 * A Gemini `Part` as the API takes it: one `toGeminiContents` builds, or any part of the API's
 * fields (one data field each: `text`, `inlineData`, `functionCall`, `executableCode` …). A
 * misspelt field is a compile error.
 */
export type GeminiRequestPart =
  | GeminiPartParam
  | {
      readonly text?: string | undefined;
      readonly thought?: boolean | undefined;
      readonly thoughtSignature?: string | undefined;
      readonly inlineData?: object | undefined;
      readonly fileData?: object | undefined;
      readonly functionCall?: object | undefined;
      readonly functionResponse?: object | undefined;
      readonly executableCode?: object | undefined;
      readonly codeExecutionResult?: object | undefined;
      readonly toolCall?: object | undefined;
      readonly toolResponse?: object | undefined;
      readonly videoMetadata?: object | undefined;
      readonly mediaResolution?: object | undefined;
      readonly partMetadata?: Readonly<Record<string, unknown>> | undefined;
    };

/**
 * A Gemini `Content` as the API takes it: a `user` or `model` turn (the API's only roles; `user`
 * when left out) and its parts. A misspelt role or part field is a compile error. (Google's SDK
 * types `role` as any string: a `Content` typed so needs narrowing to pass.)
 */
export interface GeminiRequestContent {
  readonly role?: 'user' | 'model' | undefined;
  readonly parts?: readonly GeminiRequestPart[] | undefined;
}

/**
 * A Gemini `generateContent` request: the `model` (`gemini-2.5-flash` or `models/gemini-2.5-flash`)
 * plus the body fields as the API documents them. Contents are the API's `{role, parts}` objects (`GeminiRequestContent`).
 * A misspelt or mistyped field is a compile error; a field these types do not know goes in `extraBody`.
 */
export interface GeminiRequest {
  readonly model: string;
  readonly contents: readonly GeminiRequestContent[];
  /** The system prompt: a content whose role is ignored (its parts' text). */
  readonly systemInstruction?: GeminiRequestContent | undefined;
  readonly tools?: readonly GeminiTool[] | undefined;
  readonly toolConfig?:
    | {
        readonly functionCallingConfig?:
          { readonly mode?: 'MODE_UNSPECIFIED' | 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED' | undefined; readonly allowedFunctionNames?: readonly string[] | undefined } | undefined;
        readonly retrievalConfig?: object | undefined;
      }
    | undefined;
  readonly safetySettings?: readonly GeminiSafetySetting[] | undefined;
  readonly generationConfig?: GeminiGenerationConfig | undefined;
  /** The name of cached content to use as context (`cachedContents/…`). */
  readonly cachedContent?: string | undefined;
  /** Vertex AI's billing labels. */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody | undefined;
}
