import { fork } from 'child_process';
import { join } from 'path';
import { getHeapStatistics } from 'v8';
import { consumeStream } from '../lib/driver/consume-stream';
import { FinalResponseSink } from './callback-replay';
import { BenchCorrectnessError, checkExtracted, checkResponse, expectationOf, type Expectation } from './check';
import { ConcurrentFeeder, piecesWithCuts } from './concurrent-feed';
import { floorDeltas, parseFloor } from './floors';
import { generateTranscript, type BenchFormat } from './generate-transcript';
import { collectGarbage, heapUsed } from './measure';

/** Who reads the streams: partstream's `consumeStream`, or the parse floor (same decoding, `JSON.parse`, push + join). */
export type ConcurrencyContender = 'partstream' | 'floor';

/** What one concurrency process is asked to measure. */
export interface ConcurrencyJob {
  readonly format: BenchFormat;
  readonly contender: ConcurrencyContender;
  /** Streams open at once. */
  readonly streams: number;
  /** The generator's `n` for each stream (all streams carry the same bytes). */
  readonly perStreamN: number;
  readonly seed: number;
  /** Bytes per piece; a `setImmediate` separates a stream's pieces. */
  readonly pieceSize: number;
  /** Streams run to the end (concurrently) before anything is measured. */
  readonly warmupStreams: number;
  /** Also measure the live heap per open stream and per delta held (a second, paused pass). */
  readonly memory: boolean;
}

/** Live heap of the streams, from a pass that holds all of them at the same points (after a full GC each time). */
export interface StreamMemory {
  /** Per stream, opened and waiting for its first byte. */
  readonly openedBytesPerStream: number;
  /** Per stream, after the opening frames (role, message start, block start), before the first delta. */
  readonly beforeTextBytesPerStream: number;
  /** Deltas each stream had received at the mid-stream hold. */
  readonly deltasHeldPerStream: number;
  /** Live heap per delta held, above the before-text state. */
  readonly bytesPerDelta: number;
  /** The same less each delta string's own flat size (16-byte header + characters, 8-aligned). */
  readonly bytesPerDeltaStringsAside: number;
}

/** One process's measurements. */
export interface ConcurrencyRun {
  readonly format: BenchFormat;
  readonly contender: ConcurrencyContender;
  readonly streams: number;
  readonly deltasPerStream: number;
  readonly wallMs: number;
  /** CPU time of the process (user + system, GC threads included). */
  readonly cpuMs: number;
  readonly deltasPerSecond: number;
  /** Largest V8 used heap above the baseline while all the streams ran (sampled every turn of the event loop). */
  readonly heapPeakBytes: number;
  readonly memory: StreamMemory | null;
}

/**
 * Runs one concurrency measurement in a fresh process (this file, forked with `--expose-gc`), so
 * that neither the JIT nor the collector carries state from another contender's run.
 */
export function measureConcurrencyInProcess(job: ConcurrencyJob): Promise<ConcurrencyRun> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'], cwd: join(__dirname, '..') });
    let row: ConcurrencyRun | null = null;
    let failure: string | null = null;
    child.on('message', (message: { readonly row?: ConcurrencyRun; readonly error?: string }) => {
      if (message.error !== undefined) failure = message.error;
      else if (message.row !== undefined) row = message.row;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (row !== null) resolve(row);
      else if (failure !== null) reject(new BenchCorrectnessError(`concurrency process ${job.contender} ${job.format} ×${job.streams}: ${failure}`));
      else reject(new Error(`concurrency process ${job.contender} ${job.format} ×${job.streams} exited with code ${code} and no result`));
    });
    child.send(job);
  });
}

/** The flat size of a delta string as V8 lays it out (64-bit, no pointer compression): 16-byte header, 1 or 2 bytes per code unit. */
function flatStringSize(text: string): number {
  // eslint-disable-next-line no-control-regex
  const width = /[^\u0000-\u00ff]/.test(text) ? 2 : 1;
  return (16 + text.length * width + 7) & ~7;
}

/** Byte offsets just after each frame (SSE: a blank line; NDJSON: a newline). */
function frameEnds(format: BenchFormat, bytes: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    if (format === 'ollama' || (i > 0 && bytes[i - 1] === 0x0a)) ends.push(i + 1);
  }
  return ends;
}

/** Where the live-heap pass holds the streams, and what they have received by the middle. */
export interface Cuts {
  /** End of the last frame before the first delta. */
  readonly opening: number;
  /** End of the first frame past the middle of the bytes. */
  readonly middle: number;
  readonly deltasAtMiddle: number;
  readonly stringBytesAtMiddle: number;
}

/** The opening and middle cuts of a stream's bytes (both at frame ends), with the deltas and their flat string bytes up to the middle. */
export async function cutsOf(format: BenchFormat, bytes: Uint8Array): Promise<Cuts> {
  const ends = frameEnds(format, bytes);
  let opening = 0;
  for (const end of ends) {
    if ((await floorDeltas(format, bytes.subarray(0, end))).length > 0) break;
    opening = end;
  }
  const middle = ends.find((end) => end >= bytes.length / 2) ?? bytes.length;
  const deltas = await floorDeltas(format, bytes.subarray(0, middle));
  return { opening, middle, deltasAtMiddle: deltas.length, stringBytesAtMiddle: deltas.reduce((sum, d) => sum + flatStringSize(d), 0) };
}

/** Reads one stream through the contender and checks what it yields against the generator. */
export function readStream(contender: ConcurrencyContender, format: BenchFormat, source: AsyncIterable<Uint8Array>, expectation: Expectation): Promise<void> {
  if (contender === 'floor') return parseFloor(format, source).then((extracted) => checkExtracted(`floor ${format}`, extracted, expectation));
  const sink = new FinalResponseSink();
  return consumeStream(source, sink, { format }).then((outcome) => {
    if (outcome.status !== 'completed') throw new BenchCorrectnessError(`consumeStream ${format}: ${outcome.status}`);
    checkResponse(`partstream ${format}`, sink.take(), expectation);
  });
}

/** Samples the used heap once per turn of the event loop until stopped. */
function heapSampler(): { stop(): number } {
  let peak = heapUsed();
  let running = true;
  const tick = (): void => {
    if (!running) return;
    const used = getHeapStatistics().used_heap_size;
    if (used > peak) peak = used;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return Math.max(peak, heapUsed());
    },
  };
}

/** Opens `streams` streams at once, each fed `pieces` through `feeder`; resolves when all have been read and checked. */
function openAll(job: ConcurrencyJob, streams: number, feeder: ConcurrentFeeder, pieces: readonly Uint8Array[], expectation: Expectation): Promise<void[]> {
  const all: Promise<void>[] = [];
  for (let i = 0; i < streams; i++) all.push(readStream(job.contender, job.format, feeder.source(pieces), expectation));
  return Promise.all(all);
}

async function measureMemory(job: ConcurrencyJob, bytes: Uint8Array, expectation: Expectation): Promise<StreamMemory> {
  const cuts = await cutsOf(job.format, bytes);
  const { pieces, cutIndexes } = piecesWithCuts(bytes, job.pieceSize, [cuts.opening, cuts.middle]);
  const [openingPieces, middlePieces] = cutIndexes;
  const feeder = new ConcurrentFeeder();
  const live = (): number => {
    collectGarbage();
    return heapUsed();
  };
  const baseline = live();
  feeder.holdAt(0);
  const done = openAll(job, job.streams, feeder, pieces, expectation);
  await feeder.whenParked(job.streams);
  const opened = live();
  feeder.release(openingPieces);
  await feeder.whenParked(job.streams);
  const beforeText = live();
  feeder.release(middlePieces);
  await feeder.whenParked(job.streams);
  const middle = live();
  feeder.release();
  await done;
  const perDelta = (middle - beforeText) / (job.streams * cuts.deltasAtMiddle);
  return {
    openedBytesPerStream: (opened - baseline) / job.streams,
    beforeTextBytesPerStream: (beforeText - baseline) / job.streams,
    deltasHeldPerStream: cuts.deltasAtMiddle,
    bytesPerDelta: perDelta,
    bytesPerDeltaStringsAside: perDelta - cuts.stringBytesAtMiddle / cuts.deltasAtMiddle,
  };
}

async function runJob(job: ConcurrencyJob): Promise<ConcurrencyRun> {
  const transcript = generateTranscript({ format: job.format, n: job.perStreamN, seed: job.seed });
  const expectation = expectationOf(transcript);
  const { bytes } = transcript;
  const deltasPerStream = transcript.steps.length;
  const { pieces } = piecesWithCuts(bytes, job.pieceSize, []);
  await openAll(job, job.warmupStreams, new ConcurrentFeeder(), pieces, expectation);
  collectGarbage();
  const baseline = heapUsed();
  const sampler = heapSampler();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await openAll(job, job.streams, new ConcurrentFeeder(), pieces, expectation);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const heapPeakBytes = sampler.stop() - baseline;
  collectGarbage();
  const memory = job.memory ? await measureMemory(job, bytes, expectation) : null;
  return {
    format: job.format,
    contender: job.contender,
    streams: job.streams,
    deltasPerStream,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    deltasPerSecond: (job.streams * deltasPerStream) / (wallMs / 1000),
    heapPeakBytes,
    memory,
  };
}

if (require.main === module) {
  process.once('message', (job: ConcurrencyJob) => {
    runJob(job).then(
      (row) => process.send?.({ row }, () => process.exit(0)),
      (error: unknown) => process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
    );
  });
}
