import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A metric reader the test collects from by hand. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** One metric point, as compared in the tests. */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Record<string, unknown>;
  /** Histogram: count and sum; counter: the value. */
  readonly count?: number;
  readonly sum?: number;
  readonly value?: number;
  readonly boundaries?: readonly number[];
}

/** The OpenTelemetry SDK, registered globally: spans in memory and a reader collected by hand. */
export interface OtelSdk {
  readonly spans: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Every finished span, in the order they ended. */
  finished(): ReadableSpan[];
  /** The finished stream spans (those with `gen_ai.operation.name`). */
  streams(): ReadableSpan[];
  /** The finished HTTP attempt spans (those with `http.request.method`). */
  attempts(): ReadableSpan[];
  points(): Promise<Point[]>;
  shutdown(): Promise<void>;
}

function toPoints(metric: MetricData): Point[] {
  return (metric.dataPoints as DataPoint<unknown>[]).map((point) => {
    const base = { name: metric.descriptor.name, unit: metric.descriptor.unit, attributes: { ...point.attributes } };
    const value = point.value;
    if (typeof value === 'number') return { ...base, value };
    const histogram = value as Histogram;
    return { ...base, count: histogram.count, sum: histogram.sum, boundaries: histogram.buckets.boundaries };
  });
}

/** Registers the SDK as the global providers (with an AsyncLocalStorage context manager). */
export function registerSdk(options: { traces?: boolean; metrics?: boolean } = {}): OtelSdk {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  if (options.traces !== false) {
    trace.setGlobalTracerProvider(tracerProvider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  if (options.metrics !== false) metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans,
    tracerProvider,
    meterProvider,
    finished: () => spans.getFinishedSpans(),
    streams: () => spans.getFinishedSpans().filter((span) => span.attributes['gen_ai.operation.name'] !== undefined),
    attempts: () => spans.getFinishedSpans().filter((span) => span.attributes['http.request.method'] !== undefined),
    points: async () => {
      const collected = await reader.collect();
      return collected.resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.flatMap(toPoints));
    },
    shutdown: async () => {
      trace.disable();
      metrics.disable();
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
