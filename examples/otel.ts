/**
 * OpenTelemetry for every stream: register `openTelemetryListener()` once and each stream becomes
 * one CLIENT span named `chat {model}` with the GenAI semantic-convention attributes, plus the
 * duration, time-to-first-chunk and token-usage metrics. Here the SDK keeps spans and metrics in
 * memory and the example prints them (ids and timings left out, so the output is the same on
 * every run); in a service, register the Node SDK with an OTLP exporter instead.
 *
 * Run: npx ts-node --transpile-only examples/otel.ts
 */
import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { addChatModelListener, consumeStream, type StreamingChatResponseHandler } from 'partstream';
import { openTelemetryListener } from 'partstream/otel';

// 1. The SDK: spans and metrics kept in memory (an OTLP exporter in production).
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(meterProvider);

// 2. One listener for every stream of the process.
const remove = addChatModelListener(openTelemetryListener());

/** A short Anthropic stream, as the API sends it: text, usage, the stop reason. */
const body = (
  [
    [
      'message_start',
      {
        type: 'message_start',
        message: { id: 'msg_demo', type: 'message', role: 'assistant', model: 'claude-demo', content: [], usage: { input_tokens: 25, cache_read_input_tokens: 100, output_tokens: 1 } },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Low tide in Brest ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'is at 14:05.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 12 } }],
    ['message_stop', { type: 'message_stop' }],
  ] satisfies [string, object][]
)
  .map(([event, data]) => `event: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`)
  .join('');

const handler: StreamingChatResponseHandler = {
  onCompleteResponse: (response) => console.log(`answer: ${response.aiMessage.text}`),
  onError: (error) => console.log(`error: ${error.message}`),
};

async function main(): Promise<void> {
  // `telemetry` tells the listeners what a stream you fetched yourself cannot: the model asked for, the server.
  await consumeStream(new Response(body), handler, {
    format: 'anthropic',
    telemetry: { requestModel: 'claude-demo', serverAddress: 'api.anthropic.com', serverPort: 443 },
  });

  for (const span of spans.getFinishedSpans()) {
    console.log(`\nspan "${span.name}" (kind ${span.kind === SpanKind.CLIENT ? 'CLIENT' : span.kind}, status ${span.status.code === SpanStatusCode.UNSET ? 'unset' : 'error'})`);
    for (const [name, value] of Object.entries(span.attributes)) {
      if (name !== 'gen_ai.response.time_to_first_chunk') console.log(`  ${name} = ${JSON.stringify(value)}`);
    }
    console.log(`  events: ${span.events.map((event) => event.name).join(', ')}`);
  }

  await reader.forceFlush();
  const exported = metricExporter.getMetrics().at(-1);
  console.log('\nmetrics');
  for (const metric of exported?.scopeMetrics.flatMap((scope) => scope.metrics) ?? []) {
    for (const point of metric.dataPoints) {
      const histogram = point.value as Histogram;
      const type = point.attributes['gen_ai.token.type'];
      const value = metric.descriptor.unit === '{token}' ? `sum ${histogram.sum}` : `${histogram.count} point`;
      console.log(`  ${metric.descriptor.name} [${metric.descriptor.unit}]${type === undefined ? '' : ` ${String(type)}`}: ${value}`);
    }
  }
  remove();
  await meterProvider.shutdown();
}

void main();
