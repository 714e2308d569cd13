// The OpenTelemetry section of `npm run bench` (SPEC §14, issue 26's performance target), also run
// alone by `npm run bench:otel` (BENCH_ONLY=otel): one stream of 10⁵ text deltas with the
// OpenTelemetry listener and a registered SDK (in-memory span exporter, a metric reader, the
// AsyncLocalStorage context manager) against the same stream without the listener, interleaved in
// one process, CPU time. Through consumeStream for two formats, and through the OpenAI Chat client
// (its attempt span, the fetch run inside it). Nothing is done per token: the target is ≤ 1.02×.

import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { streamOpenAIChat } from '../lib/clients/http-clients';
import { consumeStream, type StreamOutcome } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { openTelemetryListener } from '../lib/otel';
import type { ChatModelListener } from '../lib/telemetry/chat-model-listener';
import { chunkedSource } from './chunked-source';
import { generateTranscript, splitBytes, type BenchFormat } from './generate-transcript';
import { interleave } from './measure';
import type { Target } from './report';

class QuietReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const N = Number(process.env.BENCH_OTEL_N ?? 100_000);
const FORMATS: readonly BenchFormat[] = ['openai-chat', 'anthropic'];
const TARGET = 1.02;

class Sink implements StreamingChatResponseHandler {
  chars = 0;
  onPartialResponse(partial: { text: string }): void {
    this.chars += partial.text.length;
  }
  onCompleteResponse(): void {}
  onError(error: Error): void {
    throw error;
  }
}

function check(outcome: unknown): void {
  const status = (outcome as { status?: unknown } | null)?.status;
  if (status !== 'completed') throw new Error(`Expected the stream to complete, got ${String(status)}`);
}

/** The same bytes as a fetch Response, for the client rows (no network: the cost measured is partstream's). */
function respond(chunks: readonly Uint8Array[]): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at < chunks.length) controller.enqueue(chunks[at++] as Uint8Array);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** Runs the OpenTelemetry section; `log` prints a line. Returns its targets. */
export async function measureOtel(log: (line: string) => void): Promise<Target[]> {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const meterProvider = new MeterProvider({ readers: [new QuietReader()] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const otel = openTelemetryListener();
  const targets: Target[] = [];
  const finish = (outcome: StreamOutcome): StreamOutcome => {
    spans.reset();
    return outcome;
  };
  try {
    const rows: { name: string; run: (listeners: readonly ChatModelListener[]) => Promise<StreamOutcome> }[] = [];
    for (const format of FORMATS) {
      const chunks = splitBytes(new Uint8Array(generateTranscript({ format, n: N }).bytes), 16 * 1024);
      rows.push({ name: `consumeStream ${format}`, run: async (listeners) => finish(await consumeStream(chunkedSource(chunks), new Sink(), { format, listeners })) });
      if (format === 'openai-chat') {
        rows.push({
          name: 'streamOpenAIChat',
          run: async (listeners) =>
            finish(await streamOpenAIChat({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, new Sink(), { apiKey: 'sk-bench', listeners, fetch: async () => respond(chunks) })),
        });
      }
    }
    for (const row of rows) {
      const timings = await interleave(
        [
          { name: 'without', run: () => row.run([]), check },
          { name: 'otel', run: () => row.run([otel]), check },
        ],
        { warmup: 3, reps: 15, gc: 'minor', settleEachRound: true },
      );
      const without = timings.get('without')!;
      const withOtel = timings.get('otel')!;
      const ratio = withOtel.cpu.median / without.cpu.median;
      log(
        `  otel: ${row.name} n=${N}: without ${without.cpu.median.toFixed(1)} ms CPU, with the OpenTelemetry listener ${withOtel.cpu.median.toFixed(1)} ms → ` +
          `${ratio.toFixed(3)}× (wall ${(withOtel.wall.median / without.wall.median).toFixed(3)}×)`,
      );
      targets.push({
        name: `otel: ${row.name} with the OpenTelemetry listener and an SDK ÷ without, N=${N}`,
        value: ratio,
        valueFromMins: withOtel.cpu.min / without.cpu.min,
        limit: TARGET,
        pass: ratio <= TARGET,
      });
    }
  } finally {
    trace.disable();
    metrics.disable();
    context.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  }
  return targets;
}
