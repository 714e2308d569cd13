import { measureConcurrencyInProcess, type ConcurrencyContender, type ConcurrencyRun, type StreamMemory } from './concurrency-process';
import type { BenchFormat } from './generate-transcript';
import { stats, type Stats } from './measure';

export type { ConcurrencyRun, StreamMemory } from './concurrency-process';

/** How the concurrency section runs. */
export interface ConcurrencyOptions {
  readonly formats: readonly BenchFormat[];
  /** Streams open at once, one measurement per count (ascending). */
  readonly streamCounts: readonly number[];
  /** Fresh processes per contender at a stream count. */
  readonly runsAt: (streams: number) => number;
  /** The generator's `n` for every stream. */
  readonly perStreamN: number;
  readonly pieceSize: number;
  readonly seed: number;
  /** Streams run to the end before the measured ones, at most this many (fewer when fewer are measured). */
  readonly warmupStreams: number;
  readonly onRun?: (run: ConcurrencyRun) => void;
}

/**
 * Measures every format at every stream count, each run a fresh process per contender, the floor
 * and partstream alternating which goes first. The live-heap pass (per open stream, per delta
 * held) runs with the smallest count, where it is cheap.
 */
export async function measureConcurrency(options: ConcurrencyOptions): Promise<ConcurrencyRun[]> {
  const runs: ConcurrencyRun[] = [];
  const memoryAt = Math.min(...options.streamCounts);
  for (const streams of options.streamCounts) {
    for (let run = 0; run < options.runsAt(streams); run++) {
      for (const format of options.formats) {
        const order: ConcurrencyContender[] = run % 2 === 0 ? ['floor', 'partstream'] : ['partstream', 'floor'];
        for (const contender of order) {
          const row = await measureConcurrencyInProcess({
            format,
            contender,
            streams,
            perStreamN: options.perStreamN,
            seed: options.seed,
            pieceSize: options.pieceSize,
            warmupStreams: Math.min(streams, options.warmupStreams),
            memory: streams === memoryAt,
          });
          runs.push(row);
          options.onRun?.(row);
        }
      }
    }
  }
  return runs;
}

/** Medians (and spread) of one memory figure over the runs that measured it. */
export interface MemorySpread {
  readonly openedBytesPerStream: Stats;
  readonly beforeTextBytesPerStream: Stats;
  readonly bytesPerDelta: Stats;
  readonly bytesPerDeltaStringsAside: Stats;
}

/** One contender at one format and stream count, over its runs. */
export interface ContenderSummary {
  readonly deltasPerSecond: Stats;
  /** Deltas per second of process CPU time: hardly moved by other processes competing for the cores. */
  readonly deltasPerCpuSecond: Stats;
  readonly heapPeakBytes: Stats;
  readonly memory: MemorySpread | null;
}

/** partstream against the floor at one format and stream count. */
export interface ConcurrencySummary {
  readonly format: BenchFormat;
  readonly streams: number;
  readonly deltasPerStream: number;
  readonly runs: number;
  readonly partstream: ContenderSummary;
  readonly floor: ContenderSummary;
  /** partstream's median deltas/s ÷ the floor's (target ≥ 0.9). */
  readonly throughputRatio: number;
  /** The same from the fastest runs. */
  readonly throughputRatioFromMax: number;
  /** The same per CPU second. */
  readonly cpuThroughputRatio: number;
  /** partstream's median heap peak ÷ the floor's (target ≤ 1.5). */
  readonly heapPeakRatio: number;
}

function memorySpread(memories: readonly StreamMemory[]): MemorySpread | null {
  if (memories.length === 0) return null;
  const of = (field: keyof StreamMemory): Stats => stats(memories.map((m) => m[field]));
  return {
    openedBytesPerStream: of('openedBytesPerStream'),
    beforeTextBytesPerStream: of('beforeTextBytesPerStream'),
    bytesPerDelta: of('bytesPerDelta'),
    bytesPerDeltaStringsAside: of('bytesPerDeltaStringsAside'),
  };
}

function contenderSummary(runs: readonly ConcurrencyRun[]): ContenderSummary {
  return {
    deltasPerSecond: stats(runs.map((r) => r.deltasPerSecond)),
    deltasPerCpuSecond: stats(runs.map((r) => (r.streams * r.deltasPerStream) / (r.cpuMs / 1000))),
    heapPeakBytes: stats(runs.map((r) => r.heapPeakBytes)),
    memory: memorySpread(runs.flatMap((r) => (r.memory === null ? [] : [r.memory]))),
  };
}

/** Groups the runs by format and stream count (in the order first measured), partstream against the floor. */
export function summarizeConcurrency(runs: readonly ConcurrencyRun[]): ConcurrencySummary[] {
  const keys = [...new Set(runs.map((r) => `${r.format}\u0000${r.streams}`))];
  return keys.flatMap((key) => {
    const group = runs.filter((r) => `${r.format}\u0000${r.streams}` === key);
    const ours = group.filter((r) => r.contender === 'partstream');
    const floors = group.filter((r) => r.contender === 'floor');
    if (ours.length === 0 || floors.length === 0) return [];
    const partstream = contenderSummary(ours);
    const floor = contenderSummary(floors);
    return [
      {
        format: group[0].format,
        streams: group[0].streams,
        deltasPerStream: group[0].deltasPerStream,
        runs: Math.min(ours.length, floors.length),
        partstream,
        floor,
        throughputRatio: partstream.deltasPerSecond.median / floor.deltasPerSecond.median,
        throughputRatioFromMax: partstream.deltasPerSecond.max / floor.deltasPerSecond.max,
        cpuThroughputRatio: partstream.deltasPerCpuSecond.median / floor.deltasPerCpuSecond.median,
        heapPeakRatio: partstream.heapPeakBytes.median / floor.heapPeakBytes.median,
      },
    ];
  });
}
