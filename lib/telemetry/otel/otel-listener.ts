import {
  context as otelContext,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Counter,
  type Meter,
  type MeterProvider,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import type { ChatModelEndContext, ChatModelHttpAttemptContext, ChatModelListener, ChatModelRequestContext, HttpAttemptScope } from '../chat-model-listener';
import { inputContent, outputMessages } from './content-capture';
import { errorType } from './error-type';
import {
  captureFromEnv,
  DURATION_BUCKETS,
  LATEST_OPERATION_INPUT_TOKENS,
  LATEST_OPERATION_OUTPUT_TOKENS,
  LATEST_USAGE_COUNTERS,
  SEMCONV_LATEST,
  SEMCONV_V1_41,
  semconvFromEnv,
  TOKEN_BUCKETS,
  type SemconvNames,
} from './semconv-names';

/** Options of `openTelemetryListener`. */
export interface OpenTelemetryListenerOptions {
  /** The tracer provider; the global one of `@opentelemetry/api` by default (it follows one registered later). */
  readonly tracerProvider?: TracerProvider | undefined;
  /** The meter provider; the global one by default, looked up once per stream end (so one registered later is used). */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Record prompts and answers on the span (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.system_instructions`). Off unless set, or unless
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true`, `SPAN_ONLY` or `SPAN_AND_EVENT`.
   */
  readonly captureContent?: boolean | undefined;
  /** The longest text a captured part keeps (16 384 characters by default). */
  readonly contentMaxLength?: number | undefined;
  /** The attribute and metric names: `latest` when `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental`, else `v1.41`. */
  readonly semconv?: 'v1.41' | 'latest' | undefined;
  /** Whether a cancelled stream sets `error.type` `cancelled` and an Error status (true by default). */
  readonly cancelledAsError?: boolean | undefined;
}

const SPAN = Symbol('partstream.otel.span');
/** The caller's context of a stream whose span waits for its format to be recognised. */
const PARENT = Symbol('partstream.otel.parent');

/** The HTTP methods the conventions know; any other is `_OTHER` (and its span is named `HTTP`). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** The attributes an HTTP attempt's span starts with (HTTP client span conventions). */
function attemptAttributes(context: ChatModelHttpAttemptContext): Attributes {
  const method = KNOWN_METHODS.has(context.method) ? context.method : '_OTHER';
  const attributes: Attributes = { 'http.request.method': method, 'url.full': context.url };
  if (method === '_OTHER') attributes['http.request.method_original'] = context.method;
  try {
    const url = new URL(context.url);
    const host = url.hostname;
    attributes['server.address'] = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    attributes['server.port'] = url.port !== '' ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  } catch {
    // Not a URL: no server attributes rather than wrong ones.
  }
  if (context.resendCount > 0) attributes['http.request.resend_count'] = context.resendCount;
  return attributes;
}
// partstream's version, as in package.json and lib/clients/version.ts (not imported: clients import telemetry).
const VERSION = '0.3.0';

/** An environment variable, where there is an environment (read through `?.`). */
function readEnv(name: string): string | undefined {
  try {
    const value: unknown = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.[name];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The instruments of one meter provider. */
interface Instruments {
  readonly provider: MeterProvider;
  readonly duration: Histogram;
  readonly timeToFirstChunk: Histogram;
  readonly tokenUsage: Histogram | null;
  readonly usageCounters: Readonly<Record<keyof typeof LATEST_USAGE_COUNTERS, Counter>> | null;
  readonly operationInput: Histogram | null;
  readonly operationOutput: Histogram | null;
}

function createInstruments(provider: MeterProvider, names: SemconvNames): Instruments {
  const meter: Meter = provider.getMeter('partstream', VERSION, names.schemaUrl === undefined ? undefined : { schemaUrl: names.schemaUrl });
  const seconds = (name: string, description: string): Histogram => meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] } });
  const tokens = (name: string, description: string): Histogram => meter.createHistogram(name, { unit: '{token}', description, advice: { explicitBucketBoundaries: [...TOKEN_BUCKETS] } });
  const latest = names.tokenUsageMetric === null;
  return {
    provider,
    duration: seconds(names.durationMetric, 'GenAI operation duration.'),
    timeToFirstChunk: seconds(names.timeToFirstChunkMetric, 'Time from the request to the first chunk of the streamed response.'),
    tokenUsage: names.tokenUsageMetric === null ? null : tokens(names.tokenUsageMetric, 'Number of input and output tokens used.'),
    usageCounters: latest
      ? {
          inputTokenCount: meter.createCounter(LATEST_USAGE_COUNTERS.inputTokenCount, { unit: '{token}' }),
          outputTokenCount: meter.createCounter(LATEST_USAGE_COUNTERS.outputTokenCount, { unit: '{token}' }),
          cacheReadInputTokenCount: meter.createCounter(LATEST_USAGE_COUNTERS.cacheReadInputTokenCount, { unit: '{token}' }),
          cacheWriteInputTokenCount: meter.createCounter(LATEST_USAGE_COUNTERS.cacheWriteInputTokenCount, { unit: '{token}' }),
          reasoningTokenCount: meter.createCounter(LATEST_USAGE_COUNTERS.reasoningTokenCount, { unit: '{token}' }),
        }
      : null,
    operationInput: latest ? tokens(LATEST_OPERATION_INPUT_TOKENS, 'Input tokens of one operation.') : null,
    operationOutput: latest ? tokens(LATEST_OPERATION_OUTPUT_TOKENS, 'Output tokens of one operation.') : null,
  };
}

/** `server.*` and the other sampling-relevant attributes, set when the span starts. */
function startAttributes(context: ChatModelRequestContext): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': context.operation,
    'gen_ai.provider.name': context.provider,
  };
  if (context.requestModel !== null) attributes['gen_ai.request.model'] = context.requestModel;
  if (context.server !== null) {
    attributes['server.address'] = context.server.address;
    attributes['server.port'] = context.server.port;
  }
  return attributes;
}

/**
 * A `ChatModelListener` that records each stream as one OpenTelemetry CLIENT span named
 * `{gen_ai.operation.name} {gen_ai.request.model}` (a child of the caller's active context,
 * ended exactly once when the outcome is decided) and its metrics once per stream, as the GenAI
 * semantic conventions v1.41 name them (SPEC §14). Each request of an HTTP client (retries and
 * redirect hops included) is a child CLIENT span named by its method, ended when its response
 * headers arrive, with its `fetch` run inside it; each retry is a `partstream.retry` event. Register
 * it with `addChatModelListener`, or pass it in a stream's `listeners`. Nothing is recorded per
 * token; prompts and answers only with `captureContent`.
 */
export function openTelemetryListener(options: OpenTelemetryListenerOptions = {}): ChatModelListener {
  if (typeof options !== 'object' || options === null) throw new TypeError(`Expected options to be an object, got ${options === null ? 'null' : typeof options}`);
  const names = (options.semconv ?? semconvFromEnv(readEnv('OTEL_SEMCONV_STABILITY_OPT_IN'))) === 'latest' ? SEMCONV_LATEST : SEMCONV_V1_41;
  const capture = options.captureContent ?? captureFromEnv(readEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'));
  const maxLength = options.contentMaxLength ?? 16384;
  const cancelledAsError = options.cancelledAsError ?? true;
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('partstream', VERSION, names.schemaUrl === undefined ? undefined : { schemaUrl: names.schemaUrl });
  let instruments: Instruments | null = null;
  /** The instruments of the meter provider in force now: made again when the global provider changed. */
  const currentInstruments = (): Instruments => {
    const provider = options.meterProvider ?? metrics.getMeterProvider();
    if (instruments === null || instruments.provider !== provider) instruments = createInstruments(provider, names);
    return instruments;
  };

  /** Starts the stream's span, a child of `parent`, and keeps it in the stream's attribute map. */
  const begin = (context: ChatModelRequestContext, parent: Context): Span => {
    const span = tracer.startSpan(
      context.requestModel === null ? context.operation : `${context.operation} ${context.requestModel}`,
      { kind: SpanKind.CLIENT, startTime: context.startTime, attributes: startAttributes(context) },
      parent,
    );
    if (span.isRecording()) {
      const body = context.request;
      const read = context.providerTelemetry?.requestAttributes;
      const attributes: Attributes =
        read !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...(read(body as Readonly<Record<string, unknown>>) as Attributes) } : {};
      attributes['gen_ai.request.stream'] = true;
      if (context.conversationId !== null) attributes['gen_ai.conversation.id'] = context.conversationId;
      span.setAttributes(attributes);
    }
    context.attributes.set(SPAN, span);
    return span;
  };

  /** The stream's span; started now when it waited for the format (a format never recognised starts it as `auto`). */
  const spanOf = (context: ChatModelRequestContext): Span | undefined => {
    const span = context.attributes.get(SPAN) as Span | undefined;
    if (span !== undefined) return span;
    const parent = context.attributes.get(PARENT) as Context | undefined;
    if (parent === undefined) return undefined;
    context.attributes.delete(PARENT);
    return begin(context, parent);
  };

  const end = (context: ChatModelEndContext): void => {
    const span = spanOf(context);
    if (span === undefined) return;
    context.attributes.delete(SPAN);
    const outcome = context.outcome;
    const response = outcome.status === 'completed' ? outcome.response : outcome.partial;
    const metadata = response.metadata;
    const type = outcome.status === 'cancelled' && !cancelledAsError ? null : errorType(outcome);
    const usage = metadata.tokenUsage;
    const timeToFirstChunk = context.timings.timeToFirstChunkMs;
    if (span.isRecording()) {
      const attributes: Attributes = {};
      if (metadata.id !== null) attributes['gen_ai.response.id'] = metadata.id;
      if (metadata.modelName !== null) attributes['gen_ai.response.model'] = metadata.modelName;
      if (outcome.status !== 'completed') attributes['gen_ai.response.finish_reasons'] = ['error'];
      else if (metadata.providerFinishReason !== null) attributes['gen_ai.response.finish_reasons'] = [metadata.providerFinishReason];
      if (metadata.finishReason !== null) attributes['partstream.response.finish_reason'] = metadata.finishReason;
      if (timeToFirstChunk !== null) attributes['gen_ai.response.time_to_first_chunk'] = timeToFirstChunk / 1000;
      if (usage !== null) {
        if (usage.inputTokenCount !== null) attributes['gen_ai.usage.input_tokens'] = usage.inputTokenCount;
        if (usage.outputTokenCount !== null) attributes['gen_ai.usage.output_tokens'] = usage.outputTokenCount;
        if (usage.cacheReadInputTokenCount !== null) attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cacheReadInputTokenCount;
        if (usage.cacheWriteInputTokenCount !== null) attributes[names.cacheWriteInputTokens] = usage.cacheWriteInputTokenCount;
        if (usage.reasoningTokenCount !== null) attributes['gen_ai.usage.reasoning.output_tokens'] = usage.reasoningTokenCount;
      }
      const providerMetadata = metadata.providerMetadata;
      if (providerMetadata !== null && context.provider === 'openai') {
        if (typeof providerMetadata.service_tier === 'string') attributes['openai.response.service_tier'] = providerMetadata.service_tier;
        if (typeof providerMetadata.system_fingerprint === 'string') attributes['openai.response.system_fingerprint'] = providerMetadata.system_fingerprint;
      }
      attributes['partstream.stream.format'] = context.format;
      attributes['partstream.stream.outcome'] = outcome.status;
      if (context.retries > 0) attributes['partstream.http.retry_count'] = context.retries;
      if (context.handlerErrors > 0) attributes['partstream.handler.error_count'] = context.handlerErrors;
      if (context.unmappedEvents > 0) attributes['partstream.stream.unmapped_events'] = context.unmappedEvents;
      if (type !== null) attributes['error.type'] = type;
      if (capture) {
        const input = inputContent(context.providerTelemetry, context.request, maxLength);
        if (input.system !== null) attributes['gen_ai.system_instructions'] = input.system;
        if (input.input !== null) attributes['gen_ai.input.messages'] = input.input;
        attributes['gen_ai.output.messages'] = outputMessages(response, outcome.status === 'completed', names.finishReasonInMessages, maxLength);
      }
      span.setAttributes(attributes);
      if (type !== null) {
        // An HTTP error's message is secret-free (SPEC §11) and carries no content; others say only their type.
        const message = outcome.status === 'failed' && type === String((outcome.error as { status?: unknown }).status) ? outcome.error.message.slice(0, 1024) : type;
        span.setStatus({ code: SpanStatusCode.ERROR, message });
      }
    } else if (type !== null) {
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    // The span's end and the duration metric are the same two clock readings.
    span.end(context.startTime + context.timings.durationMs);

    const metric: Attributes = startAttributes(context);
    if (metadata.modelName !== null) metric['gen_ai.response.model'] = metadata.modelName;
    if (type !== null) metric['error.type'] = type;
    const recorders = currentInstruments();
    recorders.duration.record(context.timings.durationMs / 1000, metric);
    if (timeToFirstChunk !== null) recorders.timeToFirstChunk.record(timeToFirstChunk / 1000, metric);
    const input = usage?.inputTokenCount ?? null;
    const output = usage?.outputTokenCount ?? null;
    if (recorders.tokenUsage !== null) {
      if (input !== null) recorders.tokenUsage.record(input, { ...metric, 'gen_ai.token.type': 'input' });
      if (output !== null) recorders.tokenUsage.record(output, { ...metric, 'gen_ai.token.type': 'output' });
    }
    const counters = recorders.usageCounters;
    if (counters !== null) {
      const counted: Attributes = { ...metric, 'gen_ai.token.modality': 'unknown' };
      for (const field of Object.keys(counters) as (keyof typeof counters)[]) {
        const value = usage?.[field] ?? null;
        if (value !== null || field === 'inputTokenCount' || field === 'outputTokenCount') counters[field].add(value ?? 0, counted);
      }
      if (input !== null) recorders.operationInput?.record(input, metric);
      if (output !== null) recorders.operationOutput?.record(output, metric);
    }
  };

  return {
    onRequest(context) {
      // `auto`: the span starts (at `startTime` all the same) once the format, and so the
      // provider, is known — the sampler sees the right gen_ai.provider.name.
      if (context.format === 'auto') context.attributes.set(PARENT, otelContext.active());
      else begin(context, otelContext.active());
    },
    onFirstChunk(context) {
      spanOf(context)?.addEvent('partstream.first_chunk', context.startTime + context.timeToFirstChunkMs);
    },
    onHttpAttempt(context): HttpAttemptScope | undefined {
      const parent = spanOf(context);
      if (parent === undefined) return undefined;
      const attributes = attemptAttributes(context);
      const method = attributes['http.request.method'] as string;
      const inStream = trace.setSpan(otelContext.active(), parent);
      const span = tracer.startSpan(method === '_OTHER' ? 'HTTP' : method, { kind: SpanKind.CLIENT, attributes }, inStream);
      const active = trace.setSpan(inStream, span);
      return {
        // The fetch runs with the attempt's span active: an instrumented fetch nests its span under it.
        wrap: (send) => otelContext.with(active, send),
        end: (result) => {
          if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
          if (result.errorType !== null) {
            span.setAttribute('error.type', result.errorType);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
    onRetry(context) {
      const attributes: Attributes = { 'partstream.retry.number': context.retry, 'error.type': context.errorType, 'partstream.retry.delay': context.delayMs / 1000 };
      if (context.status !== null) attributes['http.response.status_code'] = context.status;
      spanOf(context)?.addEvent('partstream.retry', attributes);
    },
    onResponse: end,
    onError: end,
    onCancel: end,
  };
}
