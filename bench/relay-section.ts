// The relay section of `npm run bench` (SPEC §13, issue 24's performance targets), as ratios in
// one run: the producer relaying 10⁵ deltas into memoryStore and into Redis against the same
// stream without a relay (CPU time, in five fresh processes: the median of their ratios is
// judged; see relay-producer-process.ts), the XADDs per flush, the added latency
// producer callback → viewer callback on loopback HTTP, and the replay of a finished 10⁵-delta
// response from Redis against producing it without a relay. Redis is a private redis-server
// (skipped, with a note, when it is not installed).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { memoryStore } from '../lib/relay/memory-store';
import { openRelay } from '../lib/relay/open-relay';
import { redisStore } from '../lib/relay/redis/redis-store';
import { relay } from '../lib/relay/relay-response';
import { relayToNode } from '../lib/relay/relay-to-node';
import type { ResponseStore } from '../lib/relay/response-store';
import { findRedisServer, startRedisServer } from '../test/relay/support/redis-server';
import { chunkedSource } from './chunked-source';
import { measureRelayProducerInProcess, type RelayProducerResult } from './relay-producer-process';
import { generateTranscript } from './generate-transcript';
import { interleave } from './measure';
import type { Target } from './report';

const N = 100_000;
const CHUNK = 16 * 1024;
const FLUSH_MS = 20;
const LATENCY_DELTAS = 1000;
/** The producer rows run in this many fresh processes, each with this many timed runs per contender; the median ratio is judged. */
const PRODUCER_PROCESSES = 5;
const PRODUCER_REPS = 7;

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const sink: StreamingChatResponseHandler = { onPartialResponse: () => undefined, onCompleteResponse: () => undefined, onError: () => undefined };

function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

function completed(what: string): (outcome: unknown) => void {
  return (outcome) => {
    if ((outcome as { status?: string } | null)?.status !== 'completed') throw new Error(`The ${what} run did not complete`);
  };
}

/** Producer callback → viewer callback through relayToNode on a loopback HTTP server: p99 and p50 in ms. */
async function latency(store: ResponseStore): Promise<{ p50: number; p99: number }> {
  const server: Server = createServer((req, res) => void relayToNode(store, (req.url ?? '').slice(1), req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const relayed = await openRelay(store, { flushMs: FLUSH_MS });
    const produced: number[] = [];
    const viewed: number[] = [];
    const paced = async function* (): AsyncGenerator<string> {
      for (let i = 0; i < LATENCY_DELTAS; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"t${i} "}}]}\n\n`;
      }
      yield 'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    };
    const { port } = server.address() as AddressInfo;
    const viewing = fetch(`http://127.0.0.1:${port}/${relayed.responseId}`).then((response) =>
      consumeStream(response.body as ReadableStream<Uint8Array>, { ...sink, onPartialResponse: () => void viewed.push(performance.now()) }, { format: 'partstream' }),
    );
    await consumeStream(paced(), { ...sink, onPartialResponse: () => void produced.push(performance.now()) }, { format: 'openai-chat', relay: relayed });
    await viewing;
    if (viewed.length !== produced.length) throw new Error(`Expected the viewer to see ${produced.length} deltas, got ${viewed.length}`);
    const delays = produced.map((at, i) => (viewed[i] as number) - at).sort((a, b) => a - b);
    const q = (p: number): number => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] as number;
    return { p50: q(0.5), p99: q(0.99) };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Runs the relay section; `log` prints a line. Returns its targets. */
export async function measureRelay(log: (line: string) => void): Promise<Target[]> {
  const parts = chunks(generateTranscript({ format: 'openai-chat', n: N }).bytes);
  const targets: Target[] = [];
  const binary = findRedisServer();
  const server = binary === null ? null : await startRedisServer(binary);
  if (server === null) log('  relay: redis-server is not installed: the Redis rows are skipped (apt-get install -y redis-server)');
  const client = server === null ? null : createClient({ url: server.url });
  await client?.connect();
  const redis = client === null ? null : redisStore(client);
  try {
    const memory = memoryStore();
    const runs: RelayProducerResult[] = [];
    for (let process = 0; process < PRODUCER_PROCESSES; process++) {
      runs.push(await measureRelayProducerInProcess({ n: N, chunkSize: CHUNK, flushMs: FLUSH_MS, reps: PRODUCER_REPS, redisUrl: server?.url ?? null }));
    }
    const ratios = (of: (run: RelayProducerResult) => number | null): number[] => runs.map((run) => (of(run) ?? NaN) / run.plain);
    const intoMemory = ratios((run) => run.memory);
    log(
      `  relay: producer, ${N} deltas, CPU medians in ${PRODUCER_PROCESSES} processes: ${runs.map((run) => `without relay ${run.plain.toFixed(0)} ms, into memoryStore ${run.memory.toFixed(0)} ms`).join('; ')} (${intoMemory.map((r) => `${r.toFixed(2)}×`).join(', ')})`,
    );
    targets.push({
      name: `relay: producer into memoryStore ÷ without relay, N=${N}, median of ${PRODUCER_PROCESSES} processes`,
      value: medianOf(intoMemory),
      limit: 1.15,
      pass: medianOf(intoMemory) <= 1.15,
    });
    if (server !== null) {
      const intoRedis = ratios((run) => run.redis);
      const xaddCount = runs.reduce((sum, run) => sum + run.xadds, 0);
      const flushes = runs.reduce((sum, run) => sum + run.flushes, 0);
      log(
        `  relay: into Redis ${runs.map((run) => `${(run.redis ?? NaN).toFixed(0)} ms`).join(', ')} CPU (${intoRedis.map((r) => `${r.toFixed(2)}×`).join(', ')}), ${xaddCount} XADDs for ${flushes} flushes`,
      );
      targets.push({
        name: `relay: producer into Redis ÷ without relay, N=${N}, median of ${PRODUCER_PROCESSES} processes`,
        value: medianOf(intoRedis),
        limit: 1.35,
        pass: medianOf(intoRedis) <= 1.35,
      });
      targets.push({ name: 'relay: XADDs per flush (Redis)', value: xaddCount / flushes, limit: 1, pass: xaddCount <= flushes });
    }

    for (const [name, store] of [['memoryStore', memory], ...(redis === null ? [] : [['Redis', redis]])] as [string, ResponseStore][]) {
      const { p50, p99 } = await latency(store);
      log(`  relay: added latency producer → viewer on loopback HTTP (${name}, ${LATENCY_DELTAS} deltas at ~1/ms, flushMs ${FLUSH_MS}): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
      targets.push({ name: `relay: latency p99 (ms), ${name}`, value: p99, limit: FLUSH_MS + 10, pass: p99 <= FLUSH_MS + 10 });
    }

    if (redis !== null) {
      const relayed = await openRelay(redis);
      completed('the 10⁵-delta producer')(await consumeStream(chunkedSource(parts), sink, { format: 'openai-chat', relay: relayed }));
      await relayed.done;
      const replays = await interleave(
        [
          { name: 'produce without relay', run: () => consumeStream(chunkedSource(parts), sink, { format: 'openai-chat' }), check: completed('without relay') },
          {
            name: 'replay from Redis',
            run: async () => consumeStream((await relay(redis, relayed.responseId)).body as ReadableStream<Uint8Array>, sink, { format: 'partstream' }),
            check: completed('replay'),
          },
        ],
        { warmup: 1, reps: 5, gc: 'full' },
      );
      const replay = replays.get('replay from Redis')?.wall.median ?? NaN;
      const floor = replays.get('produce without relay')?.wall.median ?? NaN;
      log(`  relay: replay of a finished ${N}-delta response from Redis to final: ${replay.toFixed(0)} ms wall (${(replay / floor).toFixed(2)}× producing it without relay, ${floor.toFixed(0)} ms)`);
      targets.push({ name: `relay: replay from Redis, N=${N} (ms, "about a second")`, value: replay, limit: 1000, pass: replay <= 1000, reportedOnly: true });
    }
  } finally {
    await redis?.close();
    client?.destroy();
    await server?.stop();
  }
  return targets;
}
