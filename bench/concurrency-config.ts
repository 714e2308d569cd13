import type { ConcurrencyOptions, ConcurrencySummary } from './concurrency';
import type { BenchFormat } from './generate-transcript';
import type { Target } from './report';

/** The concurrency section's settings, from the environment. */
export type ConcurrencyConfig = Omit<ConcurrencyOptions, 'onRun'>;

const ALL_FORMATS: readonly BenchFormat[] = ['openai-chat', 'anthropic', 'openai-responses', 'gemini', 'ollama'];
/** Formats whose concurrency targets are judged; the others are reported against the same limits. */
const JUDGED: readonly BenchFormat[] = ['openai-chat', 'anthropic'];
/** ≈ 2,050 deltas a stream in every format (text, reasoning and argument fragments). */
const PER_STREAM_N = 1_650;
const PIECE_SIZE = 512;
const WARMUP_STREAMS = 100;

function positiveIntegers(name: string, value: string | undefined, fallback: readonly number[]): number[] {
  if (value === undefined || value.trim() === '') return [...fallback];
  const numbers = value.split(',').map((part) => Number(part.trim()));
  if (numbers.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${name} must be positive integers separated by commas, got ${JSON.stringify(value)}`);
  return numbers;
}

function formatsOf(value: string | undefined): BenchFormat[] {
  if (value === undefined || value.trim() === '') return [...JUDGED];
  return value.split(',').map((part) => {
    const found = ALL_FORMATS.find((format) => format === part.trim());
    if (found === undefined) throw new Error(`BENCH_CONC_FORMATS takes ${ALL_FORMATS.join(', ')}; got ${JSON.stringify(part)}`);
    return found;
  });
}

/**
 * Reads BENCH_CONC_STREAMS (stream counts, default 1000,10000; BENCH_QUICK: 100,1000),
 * BENCH_CONC_RUNS (runs at every count but the largest, default 3), BENCH_CONC_LARGE_RUNS (at the
 * largest, default 1) and BENCH_CONC_FORMATS (default openai-chat,anthropic). Throws on a value it
 * cannot read.
 */
export function concurrencyConfig(env: NodeJS.ProcessEnv, quick: boolean, seed: number): ConcurrencyConfig {
  const streamCounts = positiveIntegers('BENCH_CONC_STREAMS', env.BENCH_CONC_STREAMS, quick ? [100, 1_000] : [1_000, 10_000]).sort((a, b) => a - b);
  const [runs] = positiveIntegers('BENCH_CONC_RUNS', env.BENCH_CONC_RUNS, [quick ? 2 : 3]);
  const [largeRuns] = positiveIntegers('BENCH_CONC_LARGE_RUNS', env.BENCH_CONC_LARGE_RUNS, [1]);
  const largest = streamCounts[streamCounts.length - 1];
  return {
    formats: formatsOf(env.BENCH_CONC_FORMATS),
    streamCounts: [...new Set(streamCounts)],
    runsAt: (streams) => (streams === largest && streamCounts.length > 1 ? largeRuns : runs),
    perStreamN: PER_STREAM_N,
    pieceSize: PIECE_SIZE,
    seed,
    warmupStreams: WARMUP_STREAMS,
  };
}

/**
 * The issue's concurrency targets: at the largest count, throughput ≥ 0.9× the floor's and heap
 * peak ≤ 1.5× the floor's; per open stream before text ≤ 20 KiB and per delta held ≤ 16 B less
 * the strings (from the live-heap pass). Judged for Chat and Anthropic, reported for the others
 * and for the smaller counts' throughput.
 */
export function concurrencyTargets(summaries: readonly ConcurrencySummary[], largest: number): Target[] {
  const out: Target[] = [];
  for (const s of summaries) {
    const reported = !JUDGED.includes(s.format) ? { reportedOnly: true } : {};
    const atLargest = s.streams === largest;
    out.push({
      name: `concurrent throughput ÷ floor, ${s.format} ×${s.streams}`,
      value: s.throughputRatio,
      valueFromMins: s.throughputRatioFromMax,
      limit: 0.9,
      atLeast: true,
      pass: s.throughputRatio >= 0.9,
      ...(atLargest ? reported : { reportedOnly: true }),
    });
    if (atLargest) out.push({ name: `concurrent heap peak ÷ floor, ${s.format} ×${s.streams}`, value: s.heapPeakRatio, limit: 1.5, pass: s.heapPeakRatio <= 1.5, ...reported });
    const memory = s.partstream.memory;
    if (memory !== null) {
      const perStream = memory.beforeTextBytesPerStream.median / 1024;
      out.push({ name: `KiB per open stream before text, ${s.format} ×${s.streams}`, value: perStream, limit: 20, pass: perStream <= 20, ...reported });
      const perDelta = memory.bytesPerDeltaStringsAside.median;
      out.push({ name: `bytes per delta held less flat strings, ${s.format} ×${s.streams}`, value: perDelta, limit: 16, pass: perDelta <= 16, ...reported });
    }
  }
  return out;
}
