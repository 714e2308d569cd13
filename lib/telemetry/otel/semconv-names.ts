/**
 * The GenAI semantic-convention names partstream emits, one table per mode (copied here, not
 * imported: the names are incubating). `v1.41` is semantic-conventions v1.41.0, the default;
 * `latest` is what `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental` asks for (the
 * semantic-conventions-genai migration guide from v1.41.0).
 */
export interface SemconvNames {
  readonly schemaUrl: string | undefined;
  readonly cacheWriteInputTokens: string;
  readonly durationMetric: string;
  readonly timeToFirstChunkMetric: string;
  /** v1.41: one histogram with `gen_ai.token.type`; latest: null (counters and per-operation histograms instead). */
  readonly tokenUsageMetric: string | null;
  /** Whether output messages carry `finish_reason` (dropped in latest). */
  readonly finishReasonInMessages: boolean;
}

export const SEMCONV_V1_41: SemconvNames = Object.freeze({
  schemaUrl: 'https://opentelemetry.io/schemas/1.41.0',
  cacheWriteInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  durationMetric: 'gen_ai.client.operation.duration',
  timeToFirstChunkMetric: 'gen_ai.client.operation.time_to_first_chunk',
  tokenUsageMetric: 'gen_ai.client.token.usage',
  finishReasonInMessages: true,
});

export const SEMCONV_LATEST: SemconvNames = Object.freeze({
  schemaUrl: undefined,
  cacheWriteInputTokens: 'gen_ai.usage.cache_write.input_tokens',
  durationMetric: 'gen_ai.client.inference.duration',
  timeToFirstChunkMetric: 'gen_ai.client.inference.time_to_first_chunk',
  tokenUsageMetric: null,
  finishReasonInMessages: false,
});

/** Latest mode's usage counters, by `TokenUsage` field. */
export const LATEST_USAGE_COUNTERS = Object.freeze({
  inputTokenCount: 'gen_ai.client.inference.usage.input_tokens',
  outputTokenCount: 'gen_ai.client.inference.usage.output_tokens',
  cacheReadInputTokenCount: 'gen_ai.client.inference.usage.cache_read.input_tokens',
  cacheWriteInputTokenCount: 'gen_ai.client.inference.usage.cache_write.input_tokens',
  reasoningTokenCount: 'gen_ai.client.inference.usage.reasoning.output_tokens',
} as const);

/** Latest mode's per-operation token histograms. */
export const LATEST_OPERATION_INPUT_TOKENS = 'gen_ai.client.inference.operation.input_tokens';
export const LATEST_OPERATION_OUTPUT_TOKENS = 'gen_ai.client.inference.operation.output_tokens';

/** Explicit bucket boundaries the conventions advise for the duration and time-to-first-chunk histograms (seconds). */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]);

/** Explicit bucket boundaries the conventions advise for token histograms. */
export const TOKEN_BUCKETS: readonly number[] = Object.freeze([1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]);

/** The mode an environment asks for: `latest` when `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental`. */
export function semconvFromEnv(value: string | undefined): 'v1.41' | 'latest' {
  if (value === undefined) return 'v1.41';
  return value.split(',').some((entry) => entry.trim() === 'gen_ai_latest_experimental') ? 'latest' : 'v1.41';
}

/** Whether `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` turns span content on (`true`, `SPAN_ONLY`, `SPAN_AND_EVENT`). */
export function captureFromEnv(value: string | undefined): boolean {
  if (value === undefined) return false;
  const normal = value.trim().toLowerCase();
  return normal === 'true' || normal === 'span_only' || normal === 'span_and_event';
}
