import type { ConcurrencySummary, ContenderSummary } from './concurrency';
import { table } from './markdown-table';
import type { Stats } from './measure';

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Median with the range over the runs, through `format`; just the median when there was one run. */
function spread(value: Stats, format: (x: number) => string): string {
  if (value.samples.length === 1) return format(value.median);
  return `${format(value.median)} (${format(value.min)}–${format(value.max)})`;
}

const kilo = (x: number): string => `${(x / 1000).toFixed(0)} k`;
const mebi = (x: number): string => (x / 2 ** 20).toFixed(0);
const kib = (x: number): string => (x / 1024).toFixed(1);
const bytes = (x: number): string => x.toFixed(1);

function memoryRows(s: ConcurrencySummary): string[][] {
  const rows: string[][] = [];
  for (const [name, c] of [
    ['partstream', s.partstream],
    ['floor', s.floor],
  ] as [string, ContenderSummary][]) {
    const m = c.memory;
    if (m === null) continue;
    rows.push([
      s.format,
      count(s.streams),
      name,
      spread(m.openedBytesPerStream, kib),
      spread(m.beforeTextBytesPerStream, kib),
      spread(m.bytesPerDelta, bytes),
      spread(m.bytesPerDeltaStringsAside, bytes),
    ]);
  }
  return rows;
}

/** The concurrency section of the printed report (nothing when it did not run). */
export function concurrencyLines(summaries: readonly ConcurrencySummary[]): string[] {
  if (summaries.length === 0) return [];
  const throughputHeaders = ['format', 'streams', 'deltas each', 'runs', 'partstream deltas/s', 'floor deltas/s', 'ratio', 'fastest ÷ fastest', 'per CPU s ratio'];
  const throughput = table(
    throughputHeaders,
    summaries.map((s) => [
      s.format,
      count(s.streams),
      count(s.deltasPerStream),
      String(s.runs),
      spread(s.partstream.deltasPerSecond, kilo),
      spread(s.floor.deltasPerSecond, kilo),
      `${s.throughputRatio.toFixed(2)}×`,
      `${s.throughputRatioFromMax.toFixed(2)}×`,
      `${s.cpuThroughputRatio.toFixed(2)}×`,
    ]),
    throughputHeaders.map((_, i) => i !== 0),
  );
  const heapHeaders = ['format', 'streams', 'partstream heap peak MiB', 'floor heap peak MiB', 'ratio'];
  const heap = table(
    heapHeaders,
    summaries.map((s) => [s.format, count(s.streams), spread(s.partstream.heapPeakBytes, mebi), spread(s.floor.heapPeakBytes, mebi), `${s.heapPeakRatio.toFixed(2)}×`]),
    heapHeaders.map((_, i) => i !== 0),
  );
  const memoryHeaders = ['format', 'streams', 'contender', 'KiB/stream opened', 'KiB/stream before text', 'B/delta held', 'B/delta less flat strings'];
  const memory = table(
    memoryHeaders,
    summaries.flatMap(memoryRows),
    memoryHeaders.map((_, i) => i > 2),
  );
  return [
    'Concurrency: every stream open at once, each fed its bytes in pieces with a setImmediate between pieces (all streams take turns),',
    'read by partstream (consumeStream, do-nothing handler) or by the floor (the same decoding, JSON.parse, push + join); each run a fresh',
    'process per contender, after a warm-up; every result checked. Medians (min–max over the runs).',
    throughput,
    '',
    'Heap peak: V8 used heap above the pre-run baseline, sampled every turn of the event loop (uncollected garbage included).',
    heap,
    '',
    'Live heap per stream (all held at the same point, full GC): opened and waiting for bytes; after the opening frames, before the first delta;',
    'and per delta held at mid-stream, above the before-text state. JSON.parse internalizes short strings (≤ 10 characters), so the',
    "floor's delta strings are shared and the raw figure is already nearly free of strings; the last column takes each delta's flat string",
    'size (16 + characters, 8-aligned) off, a lower bound on what is left once the strings are aside (negative when they are shared).',
    memory,
    '',
  ];
}
