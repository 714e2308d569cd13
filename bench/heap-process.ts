import { fork } from 'child_process';
import { join } from 'path';
import { consumeStream } from '../lib/driver/consume-stream';
import { FinalResponseSink } from './callback-replay';
import { chunkedSource } from './chunked-source';
import { BenchCorrectnessError } from './check';
import { generateTranscript, type BenchFormat } from './generate-transcript';
import { measureHeap, type HeapRow } from './heap';
import { collectGarbage } from './measure';
import { subjectOf } from './subject';

/** What a heap measurement process is asked to measure. */
export interface HeapJob {
  readonly format: BenchFormat;
  readonly n: number;
  readonly seed: number;
  readonly chunkSize: number;
  /** Size of the streams run first, so that the code is optimized before the measured one. */
  readonly warmupN: number;
}

const WARMUP_STREAMS = 3;

/**
 * Measures the heap of one stream in a process of its own (this file, forked with
 * `--expose-gc`). When the heap is measured matters: how much uncollected garbage a stream's
 * peak includes depends on when V8 runs its next major collection, which depends on everything
 * the process did before. A fresh process that only generated the stream and ran a few warm-up
 * streams gives every format and size the same start.
 */
export function measureHeapInProcess(job: HeapJob): Promise<HeapRow> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'], cwd: join(__dirname, '..') });
    let row: HeapRow | null = null;
    child.on('message', (message: { readonly row?: HeapRow; readonly error?: string }) => {
      if (message.error !== undefined) reject(new BenchCorrectnessError(`heap process ${job.format} N=${job.n}: ${message.error}`));
      else if (message.row !== undefined) row = message.row;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (row !== null) resolve(row);
      else reject(new Error(`heap process ${job.format} N=${job.n} exited with code ${code} and no result`));
    });
    child.send(job);
  });
}

async function runJob(job: HeapJob): Promise<HeapRow> {
  const warmup = subjectOf(generateTranscript({ format: job.format, n: job.warmupN, seed: job.seed }), job.chunkSize);
  const subject = subjectOf(generateTranscript({ format: job.format, n: job.n, seed: job.seed }), job.chunkSize);
  for (let i = 0; i < WARMUP_STREAMS; i++) {
    const sink = new FinalResponseSink();
    const outcome = await consumeStream(chunkedSource(warmup.chunks), sink, { format: job.format });
    if (outcome.status !== 'completed') throw new BenchCorrectnessError(`warm-up stream: ${outcome.status}`);
    sink.take();
  }
  collectGarbage();
  return measureHeap(subject);
}

if (require.main === module) {
  process.once('message', (job: HeapJob) => {
    runJob(job).then(
      (row) => process.send?.({ row }, () => process.exit(0)),
      (error: unknown) => process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
    );
  });
}
