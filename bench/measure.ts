import { getHeapStatistics } from 'v8';

/** Median and range of a set of timings, in milliseconds. */
export interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly samples: readonly number[];
}

/** The median (mean of the middle two for an even count), min and max of `samples`. */
export function stats(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new RangeError('Expected at least one sample, got none');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples };
}

/**
 * Which collection runs before each timed run. `minor` clears the young generation only: the
 * steady state of a process that keeps streaming. `full` also lets the hidden classes (maps) of
 * the previous run's objects die, and V8 then deoptimizes the code compiled against them: what
 * the first stream after an idle period meets.
 */
export type GcBeforeRun = 'minor' | 'full';

/** Runs a garbage collection (by default a full one, twice); needs `node --expose-gc`. */
export function collectGarbage(type: GcBeforeRun = 'full'): void {
  const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
  if (gc === undefined) {
    throw new Error('The benchmark needs the garbage collector exposed: run it with `node --expose-gc` (npm run bench does).');
  }
  if (type === 'minor') {
    gc({ type: 'minor' });
    return;
  }
  gc();
  gc();
}

/** Bytes of the V8 heap in use now. */
export function heapUsed(): number {
  return getHeapStatistics().used_heap_size;
}

/** Keeps the largest heap size seen across calls to `sample`, relative to a baseline. */
export class HeapPeak {
  private peak = 0;

  constructor(private readonly baseline: number) {}

  /** Reads the heap size now. */
  sample(): void {
    const used = getHeapStatistics().used_heap_size;
    if (used > this.peak) this.peak = used;
  }

  /** The peak minus the baseline, in bytes (0 when never above it). */
  get bytes(): number {
    return Math.max(0, this.peak - this.baseline);
  }
}

/** A measured contender: `run` does the work once (its result is checked by `check`, untimed). */
export interface Contender<R> {
  readonly name: string;
  run(): Promise<R> | R;
  check(result: R): void;
}

/** Timings of one contender: wall-clock, and the process's CPU time (user + system, all threads). */
export interface Timings {
  readonly wall: Stats;
  /** Steadier than wall-clock time when other processes compete for the cores. */
  readonly cpu: Stats;
}

/** How `interleave` runs its rounds. */
export interface InterleaveOptions {
  /** Untimed rounds first. */
  readonly warmup: number;
  /** Timed rounds. */
  readonly reps: number;
  /** The collection before each run. */
  readonly gc: GcBeforeRun;
  /**
   * Start every round with a full GC and one untimed run of each contender. Without it, the old
   * generation fills with earlier runs' garbage (what a run keeps is promoted, and the minor GCs
   * never free it) until a major GC lands inside some timed run, charging one contender with
   * everyone's garbage, in proportion to the live heap. With it, no timed run meets more than the
   * garbage of the one pass before it. Keep a stream of the measured code alive meanwhile: a full
   * GC with none alive lets its hidden classes die (see `GcBeforeRun`).
   */
  readonly settleEachRound?: boolean;
  readonly onRound?: (round: number) => void;
}

/**
 * Times the contenders interleaved — A B C A B C … — after `warmup` untimed rounds, and checks
 * every result. Before each run comes a garbage collection of the given kind; each run's time
 * includes a minor collection after it, with its result still held, so that every run pays for
 * clearing its own young garbage and promoting what it keeps (a short run would otherwise fit in
 * the young generation and leave its collection to whoever runs next). Returns the timings (ms)
 * by contender name, which must be unique.
 */
export async function interleave(contenders: readonly Contender<unknown>[], options: InterleaveOptions): Promise<Map<string, Timings>> {
  const names = new Set(contenders.map(({ name }) => name));
  if (names.size !== contenders.length) throw new Error(`Contender names must be unique: ${contenders.map(({ name }) => name).join(', ')}`);
  const wall = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  const cpu = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < options.warmup + options.reps; round++) {
    // Rotate the starting contender each round so that no one always runs right after another.
    const order = contenders.map((_, k) => contenders[(round + k) % contenders.length]);
    if (options.settleEachRound === true) {
      collectGarbage('full');
      for (const contender of order) contender.check(await contender.run());
    }
    for (const contender of order) {
      collectGarbage(options.gc);
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const result = await contender.run();
      collectGarbage('minor');
      const elapsed = performance.now() - start;
      const cpuUsed = process.cpuUsage(cpuStart);
      contender.check(result);
      if (round >= options.warmup) {
        wall.get(contender.name)?.push(elapsed);
        cpu.get(contender.name)?.push((cpuUsed.user + cpuUsed.system) / 1000);
      }
    }
    options.onRound?.(round);
  }
  return new Map(contenders.map(({ name }) => [name, { wall: stats(wall.get(name) ?? []), cpu: stats(cpu.get(name) ?? []) }]));
}

/** Bytes a string takes as a flat V8 string: 1 per code unit when all are Latin-1, else 2. */
export function flatStringBytes(text: string | null): number {
  if (text === null) return 0;
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}
