import type { BedrockAssistantBlock, BedrockMessageParam, BedrockTextBlock, BedrockUserBlock } from './bedrock-message-param';
import type { ExtraBody, JsonSchema } from '../kit/request-types';

/** A tool the model may call: its name, description and input schema (`{ json: <JSON Schema> }`). */
export interface BedrockToolSpec {
  readonly toolSpec: {
    readonly name: string;
    readonly description?: string | undefined;
    readonly inputSchema: { readonly json: JsonSchema };
    readonly strict?: boolean | undefined;
  };
}

/** A tool of `toolConfig.tools`: a tool spec, a system tool (`{ systemTool: { name } }`) or a cache point. */
export type BedrockTool = BedrockToolSpec | { readonly systemTool: { readonly name: string } } | { readonly cachePoint: { readonly type: 'default' } };

/** Which tool the model may or must call. */
export type BedrockToolChoice = { readonly auto: Record<string, never> } | { readonly any: Record<string, never> } | { readonly tool: { readonly name: string } };

/** A block of `system`: text, a guardrail's content to check, or a cache point. */
export type BedrockSystemBlock = BedrockTextBlock | { readonly guardContent: Readonly<Record<string, unknown>> } | { readonly cachePoint: { readonly type: 'default' } };

/** A message as Converse takes it: what `toBedrockMessages` builds, or a turn of any of the API's content blocks. */
export type BedrockRequestMessage =
  BedrockMessageParam | { readonly role: 'user' | 'assistant'; readonly content: ReadonlyArray<BedrockUserBlock | BedrockAssistantBlock | Readonly<Record<string, unknown>>> };

/**
 * A Bedrock `ConverseStream` request, as the API documents it: `modelId` (a model or inference
 * profile id, or an ARN: of a model, an inference profile, a provisioned throughput or a Prompt
 * management prompt) goes in the URL, every other field in the JSON body. A field these types do
 * not know (a newer one) goes in `extraBody`.
 */
export interface ConverseStreamRequest {
  readonly modelId: string;
  readonly messages?: readonly BedrockRequestMessage[] | undefined;
  readonly system?: readonly BedrockSystemBlock[] | undefined;
  readonly inferenceConfig?:
    | {
        readonly maxTokens?: number | undefined;
        readonly temperature?: number | undefined;
        readonly topP?: number | undefined;
        readonly stopSequences?: readonly string[] | undefined;
      }
    | undefined;
  readonly toolConfig?: { readonly tools: readonly BedrockTool[]; readonly toolChoice?: BedrockToolChoice | undefined } | undefined;
  readonly guardrailConfig?:
    | {
        readonly guardrailIdentifier: string;
        readonly guardrailVersion: string;
        readonly trace?: 'enabled' | 'disabled' | 'enabled_full' | undefined;
        readonly streamProcessingMode?: 'sync' | 'async' | undefined;
      }
    | undefined;
  /** Model-specific request fields beyond `inferenceConfig` (e.g. Claude's `thinking`). */
  readonly additionalModelRequestFields?: Readonly<Record<string, unknown>> | undefined;
  /** JSON pointers of model-specific response fields to return (in `messageStop.additionalModelResponseFields`). */
  readonly additionalModelResponseFieldPaths?: readonly string[] | undefined;
  /** Values of a Prompt management prompt's variables (`{ name: { text } }`). */
  readonly promptVariables?: Readonly<Record<string, { readonly text: string }>> | undefined;
  /** Key-value pairs to filter invocation logs by. */
  readonly requestMetadata?: Readonly<Record<string, string>> | undefined;
  readonly performanceConfig?: { readonly latency?: 'standard' | 'optimized' | undefined } | undefined;
  readonly serviceTier?: { readonly type: 'priority' | 'default' | 'flex' | 'reserved' } | undefined;
  readonly outputConfig?: Readonly<Record<string, unknown>> | undefined;
  /** Fields merged into the body as they are, after the typed ones. */
  readonly extraBody?: ExtraBody | undefined;
}
