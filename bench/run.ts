import { writeFileSync } from 'fs';
import { cpus, loadavg, totalmem } from 'os';
import { join } from 'path';
import type { ChatResponse } from '../lib/handler/types';
import { consumeStream } from '../lib/providers/consume-stream';
import { buildReplay, FinalResponseSink, replayFloor, replayThroughChain } from './callback-replay';
import { chunkedSource } from './chunked-source';
import { BenchCorrectnessError, checkExtracted, checkResponse, expectationOf } from './check';
import { bytesOnlyFloor, parseFloor, type Extracted } from './floors';
import { generateTranscript, type BenchFormat, type Transcript } from './generate-transcript';
import { measureHeap, type HeapRow } from './heap';
import { collectGarbage, interleave, type Contender, type Timings } from './measure';
import { formatReport, type Machine, type Target, type TimingRow } from './report';
import { subjectOf, type Subject } from './subject';

// `npm run bench`: node --expose-gc -r ts-node/register/transpile-only bench/run.ts
// BENCH_QUICK=1 for a short smoke run (N = 10⁴ and 10⁵, fewer rounds, results.json untouched).

const QUICK = process.env.BENCH_QUICK === '1';
const CHUNK_SIZE = 16 * 1024;
const SEED = 0x5eed;
const FORMATS: readonly BenchFormat[] = ['openai-chat', 'anthropic'];
/** The size the targets are judged at, and the one the scaling is measured against. */
const SMALL = QUICK ? 10_000 : 100_000;
const LARGE = QUICK ? 100_000 : 1_000_000;

interface Rounds {
  readonly warmup: number;
  readonly reps: number;
}
const ROUNDS: Record<'small' | 'large' | 'callbackSmall' | 'callbackLarge', Rounds> = QUICK
  ? { small: { warmup: 1, reps: 3 }, large: { warmup: 1, reps: 3 }, callbackSmall: { warmup: 2, reps: 5 }, callbackLarge: { warmup: 1, reps: 3 } }
  : { small: { warmup: 2, reps: 7 }, large: { warmup: 1, reps: 5 }, callbackSmall: { warmup: 3, reps: 11 }, callbackLarge: { warmup: 2, reps: 9 } };

const E2E = 'partstream consumeStream';
const FLOOR = 'floor: eventsource-parser + JSON.parse + join';
const E2E_COLD = 'partstream consumeStream, full GC before each run';
const FLOOR_COLD = 'floor, full GC before each run';
const BYTES_ONLY = 'bytes-only floor (no JSON.parse)';
const CHAIN = 'MappingTracking → PartsBridge → SafeHandler';
const CHAIN_FLOOR = 'floor: push strings into arrays + join';

const timings: TimingRow[] = [];
const heapRows: HeapRow[] = [];
const transcripts: Record<string, { format: BenchFormat; n: number; bytes: number; frames: number; callbacks: number }> = {};

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function generate(format: BenchFormat, n: number): Transcript {
  const start = performance.now();
  const transcript = generateTranscript({ format, n, seed: SEED });
  transcripts[`${format}@${n}`] = { format, n, bytes: transcript.bytes.length, frames: transcript.frames, callbacks: transcript.steps.length };
  log(`  generated ${format} N=${n}: ${(transcript.bytes.length / 2 ** 20).toFixed(1)} MiB, ${transcript.frames} frames (${(performance.now() - start).toFixed(0)} ms)`);
  return transcript;
}

function endToEnd({ format, n, chunks, expectation }: Subject, name = E2E): Contender<ChatResponse> {
  return {
    name,
    async run() {
      const sink = new FinalResponseSink();
      const outcome = await consumeStream(chunkedSource(chunks), sink, { format });
      if (outcome.status !== 'completed') {
        throw new BenchCorrectnessError(`consumeStream ${format}: ${outcome.status}${outcome.status === 'failed' ? ` (${outcome.error.message})` : ''}`);
      }
      return sink.take();
    },
    check: (response) => checkResponse(`${name} ${format} N=${n}`, response, expectation),
  };
}

function floor(name: string, { format, n, chunks, expectation }: Subject): Contender<Extracted> {
  return {
    name,
    run: () => parseFloor(format, chunkedSource(chunks)),
    check: (extracted) => checkExtracted(`${name} ${format} N=${n}`, extracted, expectation),
  };
}

function bytesOnly(chunks: readonly Uint8Array[]): Contender<number> {
  let expected: number | null = null;
  return {
    name: BYTES_ONLY,
    run: () => bytesOnlyFloor(chunkedSource(chunks)),
    check(length) {
      expected ??= length;
      if (length !== expected) throw new BenchCorrectnessError(`${BYTES_ONLY}: ${length} data characters, earlier ${expected}`);
    },
  };
}

function record(section: TimingRow['section'], format: BenchFormat, n: number, results: Map<string, Timings>, floorName: string, callbacks?: number): void {
  const floorTimings = results.get(floorName);
  if (floorTimings === undefined) throw new Error(`No timings for ${floorName}`);
  for (const [contender, { wall, cpu }] of results) {
    timings.push({
      section,
      format,
      n,
      contender,
      medianMs: wall.median,
      minMs: wall.min,
      maxMs: wall.max,
      runs: wall.samples.length,
      ratioToFloor: wall.median / floorTimings.wall.median,
      minRatioToFloor: wall.min / floorTimings.wall.min,
      cpuMedianMs: cpu.median,
      cpuRatioToFloor: cpu.median / floorTimings.cpu.median,
      ...(callbacks === undefined ? {} : { nsPerCallback: (wall.median * 1e6) / callbacks }),
    });
  }
}

/**
 * consumeStream against the floor (and, at the target size, the bytes-only floor), interleaved, in the steady state (a minor GC before each run); at the target size also
 * consumeStream against the floor with a full GC before each run (the first stream after idling).
 */
async function timeEndToEnd(subject: Subject, rounds: Rounds, targetSize: boolean): Promise<void> {
  const { format, n, chunks } = subject;
  const progress = (what: string) => (round: number) => log(`  ${what} ${format} N=${n}: round ${round + 1}/${rounds.warmup + rounds.reps}`);
  const contenders: Contender<unknown>[] = [endToEnd(subject), floor(FLOOR, subject)];
  if (targetSize) contenders.push(bytesOnly(chunks));
  record('end-to-end', format, n, await interleave(contenders, { ...rounds, gc: 'minor', onRound: progress('end-to-end') }), FLOOR);
  if (!targetSize) return;
  const cold = [endToEnd(subject, E2E_COLD), floor(FLOOR_COLD, subject)];
  record('end-to-end', format, n, await interleave(cold, { ...rounds, gc: 'full', onRound: progress('end-to-end after a full GC') }), FLOOR_COLD);
}

/** The handler chain alone, replaying pre-built callbacks, against pushing their strings into arrays. */
async function timeCallbackPath(transcript: Transcript, rounds: Rounds): Promise<void> {
  const { format, n } = transcript;
  const replay = buildReplay(transcript);
  const expectation = expectationOf(transcript);
  const contenders: Contender<unknown>[] = [
    {
      name: CHAIN,
      run: () => replayThroughChain(replay),
      check: (response) => checkResponse(`${CHAIN} ${format} N=${n}`, response as ChatResponse, expectation),
    },
    {
      name: CHAIN_FLOOR,
      run: () => replayFloor(replay),
      check: (extracted) => checkExtracted(`${CHAIN_FLOOR} ${format} N=${n}`, extracted as Extracted, expectation),
    },
  ];
  const results = await interleave(contenders, { ...rounds, gc: 'minor' });
  record('callback path', format, n, results, CHAIN_FLOOR, replay.calls.length);
  log(`  callback path ${format} N=${n}: done`);
}

/**
 * One format at one size: the callback path first (it needs the generator's steps), then — with
 * only the bytes and the hashes kept, so that the bench's own live heap stays small while streams
 * are timed — end-to-end against the floors, then the heap.
 */
async function measure(format: BenchFormat, n: number, targetSize: boolean): Promise<void> {
  let transcript: Transcript | null = generate(format, n);
  await timeCallbackPath(transcript, targetSize ? ROUNDS.callbackSmall : ROUNDS.callbackLarge);
  const subject = subjectOf(transcript, CHUNK_SIZE);
  transcript = null;
  collectGarbage();
  await timeEndToEnd(subject, targetSize ? ROUNDS.small : ROUNDS.large, targetSize);
  const heap = await measureHeap(subject);
  heapRows.push(heap);
  log(`  heap ${format} N=${n}: peak ${(heap.peakBytes / 2 ** 20).toFixed(1)} MiB, live ${(heap.peakLiveBytes / 2 ** 20).toFixed(1)} MiB`);
}

function find(section: TimingRow['section'], format: BenchFormat, n: number, contender: string): TimingRow {
  const row = timings.find((t) => t.section === section && t.format === format && t.n === n && t.contender === contender);
  if (row === undefined) throw new Error(`No ${section} timing for ${contender} ${format} N=${n}`);
  return row;
}

function scaling(name: string, small: TimingRow, large: TimingRow): Target {
  const value = large.medianMs / small.medianMs;
  return { name, value, valueFromMins: large.minMs / small.minMs, limit: 11, pass: value <= 11 };
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const format of FORMATS) {
    const e2e = find('end-to-end', format, SMALL, E2E);
    out.push({ name: `end-to-end ÷ floor, ${format} N=${SMALL}`, value: e2e.ratioToFloor, valueFromMins: e2e.minRatioToFloor, limit: 1.2, pass: e2e.ratioToFloor <= 1.2 });
    // The rows measured after a full GC (the first stream after idling) are reported, not judged:
    // the target is the steady state of a service that keeps streaming.
    out.push(scaling(`end-to-end time(${LARGE}) ÷ time(${SMALL}), ${format}`, e2e, find('end-to-end', format, LARGE, E2E)));
    out.push(
      scaling(`callback path time(${LARGE}) ÷ time(${SMALL}), ${format}`, find('callback path', format, SMALL, CHAIN), find('callback path', format, LARGE, CHAIN)),
    );
  }
  for (const heap of heapRows) {
    out.push({ name: `heap peak (MiB), ${heap.format} N=${heap.n}`, value: heap.peakBytes / 2 ** 20, limit: heap.limitBytes / 2 ** 20, pass: heap.peakBytes <= heap.limitBytes });
    // "Nothing retained": 1 MiB of slack for code, inline caches and lazily compiled functions.
    out.push({
      name: `heap retained after the stream (MiB), ${heap.format} N=${heap.n}`,
      value: heap.retainedAfterBytes / 2 ** 20,
      limit: 1,
      pass: heap.retainedAfterBytes <= 2 ** 20,
    });
  }
  return out;
}

function loadAverage(): number[] {
  return loadavg().map((load) => Number(load.toFixed(2)));
}

async function main(): Promise<void> {
  collectGarbage();
  const startedAt = performance.now();
  const date = new Date().toISOString();
  const loadAverageAtStart = loadAverage();
  log(`partstream bench${QUICK ? ' (BENCH_QUICK)' : ''}: N=${SMALL} and N=${LARGE}, ${FORMATS.join(' and ')}`);
  for (const format of FORMATS) {
    await measure(format, SMALL, true);
    collectGarbage();
    await measure(format, LARGE, false);
    collectGarbage();
  }
  const machine: Machine = {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${process.arch}`,
    date,
    loadAverageAtStart,
    loadAverageAtEnd: loadAverage(),
  };
  const targetList = targets();
  process.stdout.write(
    `${formatReport({
      machine,
      quick: QUICK,
      chunkSize: CHUNK_SIZE,
      sizes: [SMALL, LARGE],
      reps: [ROUNDS.small.reps, ROUNDS.large.reps],
      timings,
      heap: heapRows,
      targets: targetList,
    })}\n`,
  );
  const durationSeconds = Math.round((performance.now() - startedAt) / 1000);
  if (QUICK) {
    log(`BENCH_QUICK: results.json left as it was (${durationSeconds} s)`);
  } else {
    const results = {
      machine,
      config: { chunkSize: CHUNK_SIZE, seed: SEED, sizes: [SMALL, LARGE], rounds: ROUNDS },
      transcripts,
      timings,
      heap: heapRows,
      targets: targetList,
      durationSeconds,
    };
    const file = join(__dirname, 'results.json');
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${file} (${durationSeconds} s)`);
  }
  const missed = targetList.filter((t) => !t.pass);
  if (missed.length > 0) log(`targets missed: ${missed.map((t) => t.name).join('; ')}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
