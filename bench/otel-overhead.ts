import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { openTelemetryListener } from '../lib/otel';
import type { ChatModelListener } from '../lib/telemetry/chat-model-listener';
import { chunkedSource } from './chunked-source';
import { generateTranscript, splitBytes, type BenchFormat } from './generate-transcript';
import { interleave } from './measure';

// `npm run bench:otel`: node --expose-gc -r ts-node/register/transpile-only bench/otel-overhead.ts
// One stream of 10⁵ text deltas (BENCH_OTEL_N to change it) through consumeStream, with the
// OpenTelemetry listener and a registered SDK (in-memory span exporter, a metric reader) against
// the same stream with no listener, interleaved in one process. SPEC §14 wants nothing per token:
// the ratio should be within noise of 1 (target ≤ 1.02).

class QuietReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const N = Number(process.env.BENCH_OTEL_N ?? 100_000);
const FORMATS: readonly BenchFormat[] = ['openai-chat', 'anthropic'];
const TARGET = 1.02;

const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new QuietReader()] }));
const otel = openTelemetryListener();

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

async function run(chunks: readonly Uint8Array[], format: BenchFormat, listeners: readonly ChatModelListener[]): Promise<string> {
  const outcome = await consumeStream(chunkedSource(chunks), new Sink(), { format, listeners });
  spans.reset();
  return outcome.status;
}

async function main(): Promise<void> {
  let missed = false;
  for (const format of FORMATS) {
    const transcript = generateTranscript({ format, n: N });
    const chunks = splitBytes(new Uint8Array(transcript.bytes), 16 * 1024);
    const check = (status: unknown): void => {
      if (status !== 'completed') throw new Error(`Expected the stream to complete, got ${String(status)}`);
    };
    const timings = await interleave(
      [
        { name: 'without', run: () => run(chunks, format, []), check },
        { name: 'otel', run: () => run(chunks, format, [otel]), check },
      ],
      { warmup: 3, reps: 15, gc: 'minor', settleEachRound: true },
    );
    const without = timings.get('without')!;
    const withOtel = timings.get('otel')!;
    const ratio = withOtel.cpu.median / without.cpu.median;
    missed ||= ratio > TARGET;
    console.log(
      `${format} n=${N}: without ${without.cpu.median.toFixed(1)} ms CPU, with the OpenTelemetry listener ${withOtel.cpu.median.toFixed(1)} ms CPU → ` +
        `${ratio.toFixed(3)}× (target ≤ ${TARGET}×; wall ${(withOtel.wall.median / without.wall.median).toFixed(3)}×)`,
    );
  }
  if (missed) process.exitCode = 1;
}

void main();
