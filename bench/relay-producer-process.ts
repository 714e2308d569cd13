// The producer rows of the relay section, measured in a process of their own (this file, forked
// with `--expose-gc`): the same 10⁵-delta stream without a relay, relayed into a memoryStore and
// relayed into Redis, interleaved, as CPU medians. How much a relay adds depends on what V8
// made of the shared pipeline in that process (inlining, the order code was optimized in), which
// changes from process to process by more than the relay costs; the section runs several of
// these processes and judges the median of their ratios.

import { fork } from 'child_process';
import { join } from 'path';
import { createClient } from 'redis';
import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { memoryStore } from '../lib/relay/memory-store';
import { openRelay } from '../lib/relay/open-relay';
import { relayKeys } from '../lib/relay/redis/redis-keys';
import { redisStore } from '../lib/relay/redis/redis-store';
import type { ResponseStore } from '../lib/relay/response-store';
import { BenchCorrectnessError } from './check';
import { chunkedSource } from './chunked-source';
import { generateTranscript } from './generate-transcript';
import { interleave } from './measure';

/** What a producer measurement process is asked to measure. */
export interface RelayProducerJob {
  readonly n: number;
  readonly chunkSize: number;
  readonly flushMs: number;
  readonly reps: number;
  /** The private redis-server to relay into; null: the memoryStore row only. */
  readonly redisUrl: string | null;
}

/** CPU medians (ms) of one process, and the Redis log's XADDs and entries (flushes) over its runs. */
export interface RelayProducerResult {
  readonly plain: number;
  readonly memory: number;
  readonly redis: number | null;
  readonly xadds: number;
  readonly flushes: number;
}

const sink: StreamingChatResponseHandler = { onPartialResponse: () => undefined, onCompleteResponse: () => undefined, onError: () => undefined };

/** Runs `job` in a fresh process. */
export function measureRelayProducerInProcess(job: RelayProducerJob): Promise<RelayProducerResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'], cwd: join(__dirname, '..') });
    let result: RelayProducerResult | null = null;
    child.on('message', (message: { readonly result?: RelayProducerResult; readonly error?: string }) => {
      if (message.error !== undefined) reject(new BenchCorrectnessError(`relay producer process: ${message.error}`));
      else if (message.result !== undefined) result = message.result;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result !== null) resolve(result);
      else reject(new Error(`relay producer process exited with code ${code} and no result`));
    });
    child.send(job);
  });
}

function completed(what: string): (outcome: unknown) => void {
  return (outcome) => {
    if ((outcome as { status?: string } | null)?.status !== 'completed') throw new BenchCorrectnessError(`The ${what} run did not complete`);
  };
}

async function runJob(job: RelayProducerJob): Promise<RelayProducerResult> {
  const bytes = generateTranscript({ format: 'openai-chat', n: job.n }).bytes;
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += job.chunkSize) parts.push(bytes.subarray(at, at + job.chunkSize));
  const client = job.redisUrl === null ? null : createClient({ url: job.redisUrl });
  // XADD counts and log lengths are asked on a connection of their own, outside the store's.
  const admin = job.redisUrl === null ? null : createClient({ url: job.redisUrl });
  await Promise.all([client?.connect(), admin?.connect()]);
  const redis = client === null ? null : redisStore(client);
  const memory = memoryStore();
  let xadds = 0;
  let flushes = 0;
  const countXadds = async (): Promise<number> => {
    const info = (await admin?.sendCommand(['INFO', 'commandstats'])) as string | undefined;
    return Number(/cmdstat_xadd:calls=(\d+)/.exec(info ?? '')?.[1] ?? 0);
  };
  /** Relays the stream into `store`: the outcome (null when the log's terminal was not stored) and the response id. */
  const produce = async (store: ResponseStore): Promise<{ outcome: unknown; responseId: string }> => {
    const relayed = await openRelay(store, { flushMs: job.flushMs });
    const outcome = await consumeStream(chunkedSource(parts), sink, { format: 'openai-chat', relay: relayed });
    const end = await relayed.done;
    return { outcome: end.status === 'stored' ? outcome : null, responseId: relayed.responseId };
  };
  try {
    const timings = await interleave(
      [
        { name: 'without relay', run: () => consumeStream(chunkedSource(parts), sink, { format: 'openai-chat' }), check: completed('without relay') },
        { name: 'into memoryStore', run: async () => (await produce(memory)).outcome, check: completed('memoryStore') },
        ...(redis === null
          ? []
          : [
              {
                name: 'into Redis',
                run: async () => {
                  const before = await countXadds();
                  const { outcome, responseId } = await produce(redis);
                  xadds += (await countXadds()) - before;
                  // One log entry per flush (a batch): XLEN counts them.
                  flushes += Number(await admin?.sendCommand(['XLEN', relayKeys('ps').log(responseId)]));
                  return outcome;
                },
                check: completed('Redis'),
              },
            ]),
      ],
      { warmup: 1, reps: job.reps, gc: 'full' },
    );
    const median = (name: string): number => timings.get(name)?.cpu.median ?? NaN;
    return { plain: median('without relay'), memory: median('into memoryStore'), redis: redis === null ? null : median('into Redis'), xadds, flushes };
  } finally {
    await redis?.close();
    client?.destroy();
    admin?.destroy();
  }
}

if (require.main === module) {
  process.once('message', (job: RelayProducerJob) => {
    runJob(job).then(
      (result) => process.send?.({ result }, () => process.exit(0)),
      (error: unknown) => process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
    );
  });
}
