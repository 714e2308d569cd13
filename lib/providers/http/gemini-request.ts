import type { ExtraBody, JsonSchema } from './request-types';

/** A function the model may call. */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  /** The arguments as an OpenAPI schema subset … */
  readonly parameters?: JsonSchema;
  /** … or as JSON Schema. */
  readonly parametersJsonSchema?: unknown;
  readonly response?: JsonSchema;
  readonly responseJsonSchema?: unknown;
  readonly behavior?: 'BLOCKING' | 'NON_BLOCKING';
}

/** A Gemini tool: function declarations, or a built-in (`googleSearch`, `codeExecution`, `urlContext` …). */
export interface GeminiTool {
  readonly functionDeclarations?: readonly GeminiFunctionDeclaration[];
  readonly googleSearch?: object;
  readonly googleSearchRetrieval?: object;
  readonly codeExecution?: object;
  readonly urlContext?: object;
  readonly googleMaps?: object;
  readonly fileSearch?: object;
  readonly computerUse?: object;
}

/** How the model thinks (Gemini 2.5: a token budget; Gemini 3: a level). */
export interface GeminiThinkingConfig {
  readonly includeThoughts?: boolean;
  readonly thinkingBudget?: number;
  readonly thinkingLevel?: 'THINKING_LEVEL_UNSPECIFIED' | 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
}

/** Sampling and output settings. */
export interface GeminiGenerationConfig {
  readonly stopSequences?: readonly string[];
  readonly responseMimeType?: string;
  readonly responseSchema?: JsonSchema;
  readonly responseJsonSchema?: unknown;
  readonly responseModalities?: readonly ('TEXT' | 'IMAGE' | 'AUDIO')[];
  readonly candidateCount?: number;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly seed?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly responseLogprobs?: boolean;
  readonly logprobs?: number;
  readonly enableEnhancedCivicAnswers?: boolean;
  readonly speechConfig?: object;
  readonly thinkingConfig?: GeminiThinkingConfig;
  readonly imageConfig?: { readonly aspectRatio?: string; readonly imageSize?: string };
  readonly mediaResolution?: 'MEDIA_RESOLUTION_UNSPECIFIED' | 'MEDIA_RESOLUTION_LOW' | 'MEDIA_RESOLUTION_MEDIUM' | 'MEDIA_RESOLUTION_HIGH';
}

/** A safety filter's threshold for one harm category. */
export interface GeminiSafetySetting {
  readonly category: string;
  readonly threshold: 'HARM_BLOCK_THRESHOLD_UNSPECIFIED' | 'BLOCK_LOW_AND_ABOVE' | 'BLOCK_MEDIUM_AND_ABOVE' | 'BLOCK_ONLY_HIGH' | 'BLOCK_NONE' | 'OFF';
}

/**
 * A Gemini `generateContent` request: the `model` (`gemini-2.5-flash` or `models/gemini-2.5-flash`)
 * plus the body fields as the API documents them. Contents are the API's `{role, parts}` objects.
 * A misspelt or mistyped field is a compile error; a field these types do not know goes in `extraBody`.
 */
export interface GeminiRequest {
  readonly model: string;
  readonly contents: readonly object[];
  readonly systemInstruction?: object;
  readonly tools?: readonly GeminiTool[];
  readonly toolConfig?: {
    readonly functionCallingConfig?: { readonly mode?: 'MODE_UNSPECIFIED' | 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED'; readonly allowedFunctionNames?: readonly string[] };
    readonly retrievalConfig?: object;
  };
  readonly safetySettings?: readonly GeminiSafetySetting[];
  readonly generationConfig?: GeminiGenerationConfig;
  /** The name of cached content to use as context (`cachedContents/…`). */
  readonly cachedContent?: string;
  /** Vertex AI's billing labels. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Fields the types do not know, sent as given (see `ExtraBody`). */
  readonly extraBody?: ExtraBody;
}
