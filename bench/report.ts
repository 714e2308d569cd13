import type { BenchFormat } from './generate-transcript';
import type { ColdStart } from './cold-start';
import type { HeapRow } from './heap';
import type { Stats } from './measure';
import { table } from './markdown-table';
import { concurrencyLines } from './report-concurrency';
import type { ConcurrencySummary } from './concurrency';

/** One contender's timings in one section, format and size. */
export interface TimingRow {
  readonly section: 'end-to-end' | 'callback path';
  readonly format: BenchFormat;
  readonly n: number;
  readonly contender: string;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly runs: number;
  /** Median ÷ the floor's median for this section, format and size. */
  readonly ratioToFloor: number;
  /** Fastest run ÷ the floor's fastest run: steadier than the medians on a busy machine. */
  readonly minRatioToFloor: number;
  /** Median CPU time of the process (user + system, GC threads included). */
  readonly cpuMedianMs: number;
  /** Median CPU time ÷ the floor's: hardly moved by other processes competing for the cores. */
  readonly cpuRatioToFloor: number;
  /** Callback path: median nanoseconds per callback. */
  readonly nsPerCallback?: number;
}

/** One of the targets, judged on the medians. */
export interface Target {
  readonly name: string;
  readonly value: number;
  /** The same ratio from the fastest runs, when it is a ratio of timings. */
  readonly valueFromMins?: number;
  readonly limit: number;
  readonly pass: boolean;
  /** Shown with pass/FAIL against the limit but not judged: never listed as a missed target. */
  readonly reportedOnly?: boolean;
  /** The limit is a minimum (the value must be at least it); by default it is a maximum. */
  readonly atLeast?: boolean;
}

/** The machine a run measured. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly date: string;
  readonly loadAverageAtStart: readonly number[];
  readonly loadAverageAtEnd: readonly number[];
}

/** Everything the printed report shows. */
export interface ReportInput {
  readonly machine: Machine;
  readonly quick: boolean;
  readonly chunkSize: number;
  readonly sizes: readonly [number, number];
  /** Timed runs per contender in each section (after untimed warm-up rounds). */
  readonly reps: { readonly endToEnd: number; readonly cold: number; readonly callbackPath: number };
  readonly timings: readonly TimingRow[];
  readonly heap: readonly HeapRow[];
  readonly targets: readonly Target[];
  /** The package's load time in a fresh process, when that section ran. */
  readonly coldStart?: ColdStart | null;
  /** The concurrency section, when it ran. */
  readonly concurrency?: readonly ConcurrencySummary[];
}

/** Milliseconds, to 3 significant figures or so. */
export function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function timingTable(rows: readonly TimingRow[], perCallback: boolean): string {
  const headers = ['format', 'N', 'contender', 'median ms', 'min–max ms', ...(perCallback ? ['ns/callback'] : []), '× floor', 'fastest ÷ floor fastest', 'CPU ms', 'CPU × floor'];
  return table(
    headers,
    rows.map((t) => [
      t.format,
      count(t.n),
      t.contender,
      ms(t.medianMs),
      `${ms(t.minMs)}–${ms(t.maxMs)}`,
      ...(perCallback ? [(t.nsPerCallback ?? 0).toFixed(0)] : []),
      `${t.ratioToFloor.toFixed(2)}×`,
      `${t.minRatioToFloor.toFixed(2)}×`,
      ms(t.cpuMedianMs),
      `${t.cpuRatioToFloor.toFixed(2)}×`,
    ]),
    headers.map((_, i) => i !== 0 && i !== 2),
  );
}

function coldStartLines(cold: ColdStart | null): string[] {
  if (cold === null) return [];
  const range = (s: Stats): string => `${ms(s.min)}–${ms(s.max)}`;
  const headers = ['process', 'load ms (in process)', 'min–max', 'load CPU ms', 'process ms', 'min–max', '+ floor ms', '× floor'];
  const rows = [
    ...cold.loads.map((row) => [
      row.how === 'require' ? `node -e "require('${row.package}')"` : `node --input-type=module -e "await import('${row.package}')"`,
      ms(row.inProcess.median),
      range(row.inProcess),
      ms(row.inProcessCpu.median),
      ms(row.process.median),
      range(row.process),
      ms(row.overFloorMs),
      `${row.ratioToFloor.toFixed(2)}×`,
    ]),
    ['node -e "0" (floor of require)', '', '', '', ms(cold.floor.median), range(cold.floor), '', ''],
    ['node --input-type=module -e "0" (floor of import)', '', '', '', ms(cold.importFloor.median), range(cold.importFloor), '', ''],
  ];
  return [
    `Cold start: fresh Node processes loading one package each (partstream's build: require → ${cold.module}, import → ${cold.importModule}; the official SDKs for comparison),`,
    `against processes that load nothing; ${cold.runs} runs each, the order rotating every round; ${cold.build}. "In process": performance.now() and process.cpuUsage() around the load.`,
    table(
      headers,
      rows,
      headers.map((_, i) => i !== 0),
    ),
    `Loading partstream with require() adds ${ms(cold.differenceMs)} ms to a process (medians), ${cold.ratio.toFixed(2)}× the floor.`,
    '',
  ];
}

/** The report `npm run bench` prints: machine, timing tables, heap table and targets (Markdown tables). */
export function formatReport(input: ReportInput): string {
  const { machine } = input;
  const heapHeaders = ['format', 'N', 'peak heap MiB', 'peak live MiB', 'final message MiB', 'held with message MiB', 'retained after MiB', 'peak limit MiB'];
  const heapTable = table(
    heapHeaders,
    input.heap.map((h) => [h.format, count(h.n), mib(h.peakBytes), mib(h.peakLiveBytes), mib(h.finalMessageBytes), mib(h.heldWithMessageBytes), mib(h.retainedAfterBytes), mib(h.limitBytes)]),
    heapHeaders.map((_, i) => i !== 0),
  );
  const targetTable = table(
    ['target', 'value', 'from fastest runs', 'limit', ''],
    input.targets.map((t) => [
      t.name,
      t.value.toFixed(2),
      t.valueFromMins === undefined ? '' : t.valueFromMins.toFixed(2),
      `${t.atLeast === true ? '≥ ' : ''}${t.limit.toFixed(2)}`,
      `${t.pass ? 'pass' : 'FAIL'}${t.reportedOnly === true ? ' (reported, not judged)' : ''}`,
    ]),
    [false, true, true, true, false],
  );
  const [small, large] = input.sizes;
  return [
    `partstream bench — ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), Node ${machine.node}, ${machine.date}${input.quick ? ' — BENCH_QUICK' : ''}`,
    `Load average (1/5/15 min): ${machine.loadAverageAtStart.join(' ')} at the start, ${machine.loadAverageAtEnd.join(' ')} at the end. Other processes competing for the cores inflate wall-clock times; the CPU columns are then the steadier comparison.`,
    `Bytes in ${input.chunkSize / 1024} KiB chunks at N=${count(small)} and N=${count(large)}; every result checked against the generator's SHA-256 hashes.`,
    `Medians of ${input.reps.endToEnd} runs end-to-end (${input.reps.cold} after a full GC) and ${input.reps.callbackPath} on the callback path; in each section both sizes and all contenders run interleaved.`,
    'A minor GC precedes each run, and the minor GC after it (its result still held) is timed with it: the steady state of a process that keeps',
    'streaming, where each run pays for collecting its own young garbage. The "full GC before each run" rows show the first stream after an idle',
    "period: the full GC lets the previous stream's hidden classes die, and V8 deoptimizes the code compiled against them.",
    '',
    'End-to-end (bytes → final ChatResponse, do-nothing handler) vs the parse floor',
    timingTable(
      input.timings.filter((t) => t.section === 'end-to-end'),
      false,
    ),
    '',
    'Callback path (pre-built callbacks → final message) vs pushing the strings into arrays',
    timingTable(
      input.timings.filter((t) => t.section === 'callback path'),
      true,
    ),
    '',
    'Heap above the pre-run baseline. Peak: V8 used heap sampled every chunk and every 256 callbacks (uncollected garbage included).',
    'Peak live: after a full GC at 64 points of the stream. Final message: its text, reasoning and arguments as flat strings.',
    heapTable,
    '',
    ...coldStartLines(input.coldStart ?? null),
    ...concurrencyLines(input.concurrency ?? []),
    'Targets (judged on the medians; the rows marked "reported" are shown against the limit but not judged)',
    targetTable,
  ].join('\n');
}
