import { createClient } from 'redis';
import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { memoryStore } from '../lib/relay/memory-store';
import { openRelay } from '../lib/relay/open-relay';
import { fromNodeRedis } from '../lib/relay/redis/from-node-redis';
import { redisStore } from '../lib/relay/redis/redis-store';
import { relay } from '../lib/relay/relay-response';
import type { ResponseStore } from '../lib/relay/response-store';
import { findRedisServer, startRedisServer, type RedisServer } from '../test/relay/support/redis-server';
import { chunkedSource } from './chunked-source';
import { generateTranscript } from './generate-transcript';
import { interleave, type Contender } from './measure';
import type { Target } from './report';

// The relay section of `npm run bench` (BENCH_ONLY=relay), also `npm run bench:relay` alone.
// The targets of SPEC §13 (design/relay.md (d)), measured as ratios in one run:
// 1. a producer relaying into memoryStore costs ≤ 1.15× the same stream without a relay (10⁵ deltas, CPU time);
// 2. into Redis (a private redis-server, when the binary is there) ≤ 1.35×, with at most one XADD
//    per flush: XADDs per run (INFO commandstats) ≤ ⌈events ÷ flushCount⌉;
// 3. producer callback → viewer callback on loopback: p99 ≤ flushMs + 10 ms (deltas paced 1 per ms).

const N = Number(process.env.BENCH_RELAY_N ?? 100_000);
const CHUNK = 16 * 1024;
const FLUSH_MS = 20;
const FLUSH_COUNT = 64;
const ROUNDS = { warmup: 2, reps: 7 };

const sink: StreamingChatResponseHandler = { onPartialResponse: () => undefined, onCompleteResponse: () => undefined, onError: () => undefined };

function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

function fail(what: string): never {
  throw new Error(`The ${what} run did not complete`);
}

/** A private redis-server and a store on it, or null without the binary. */
interface RedisBench {
  readonly server: RedisServer;
  readonly store: ResponseStore;
  close(): Promise<void>;
}

async function startRedis(log: (line: string) => void): Promise<RedisBench | null> {
  const binary = findRedisServer();
  if (binary === null) {
    log('relay: no redis-server binary (REDIS_SERVER or /usr/bin/redis-server): the Redis ratio is not measured');
    return null;
  }
  const server = await startRedisServer(binary);
  const client = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  const store = redisStore(fromNodeRedis(client));
  return {
    server,
    store,
    close: async () => {
      await store.close();
      client.destroy();
      await server.stop();
    },
  };
}

async function xaddCalls(server: RedisServer): Promise<number> {
  const info = String(await server.admin(['INFO', 'commandstats']));
  const match = /cmdstat_xadd:calls=(\d+)/.exec(info);
  return match === null ? 0 : Number(match[1]);
}

/** Producer overhead into memoryStore and Redis, against the same stream without a relay. */
async function overhead(log: (line: string) => void): Promise<Target[]> {
  const transcript = generateTranscript({ format: 'openai-chat', n: N });
  const parts = chunks(transcript.bytes);
  const redis = await startRedis(log);
  let events = 0;
  const relayed = (name: string, store: () => ResponseStore): Contender<unknown> => ({
    name,
    run: async () => {
      const opened = await openRelay(store(), { flushMs: FLUSH_MS, flushCount: FLUSH_COUNT });
      const outcome = await consumeStream(chunkedSource(parts), sink, { format: 'openai-chat', relay: opened });
      const end = await opened.done;
      if (end.status !== 'stored') return null;
      events = end.lastSequence;
      return outcome;
    },
    check: (outcome) => {
      if ((outcome as { status: string } | null)?.status !== 'completed') fail(name);
      // Untimed: the logs of earlier runs would fill the server.
      if (redis !== null && name.includes('Redis')) void redis.server.admin(['FLUSHALL', 'ASYNC']);
    },
  });
  const contenders: Contender<unknown>[] = [
    {
      name: 'without relay',
      run: () => consumeStream(chunkedSource(parts), sink, { format: 'openai-chat' }),
      check: (outcome) => void ((outcome as { status: string }).status === 'completed' || fail('without relay')),
    },
    relayed('relay into memoryStore', () => memoryStore()),
  ];
  if (redis !== null) contenders.push(relayed('relay into Redis', () => redis.store));
  try {
    const before = redis === null ? 0 : await xaddCalls(redis.server);
    const timings = await interleave(contenders, { ...ROUNDS, gc: 'full', onRound: (round) => log(`  relay overhead: round ${round + 1}/${ROUNDS.warmup + ROUNDS.reps}`) });
    const xadds = redis === null ? 0 : ((await xaddCalls(redis.server)) - before) / (ROUNDS.warmup + ROUNDS.reps);
    const plain = timings.get('without relay')?.cpu;
    const out: Target[] = [];
    for (const [name, limit] of [
      ['relay into memoryStore', 1.15],
      ['relay into Redis', 1.35],
    ] as const) {
      const cpu = timings.get(name)?.cpu;
      if (cpu === undefined || plain === undefined) continue;
      const ratio = cpu.median / plain.median;
      log(`relay: ${N} deltas, without relay ${plain.median.toFixed(1)} ms CPU (${plain.min.toFixed(1)}–${plain.max.toFixed(1)}), ${name} ${cpu.median.toFixed(1)} ms CPU (${cpu.min.toFixed(1)}–${cpu.max.toFixed(1)}): ${ratio.toFixed(3)}× (target ≤ ${limit}×)`);
      out.push({ name: `producer with a ${name} ÷ without, N=${N} (CPU)`, value: ratio, valueFromMins: cpu.min / plain.min, limit, pass: ratio <= limit });
    }
    if (redis !== null) {
      const bound = Math.ceil(events / FLUSH_COUNT);
      log(`relay: ${xadds.toFixed(0)} XADDs per run for ${events} events (flushCount ${FLUSH_COUNT}: at most ${bound})`);
      out.push({ name: `XADDs per run into Redis ÷ ⌈events ÷ flushCount⌉ (${events} events)`, value: xadds / bound, limit: 1, pass: xadds <= bound });
    }
    return out;
  } finally {
    await redis?.close();
  }
}

/** Producer callback → viewer callback through memoryStore, deltas paced 1 per ms. */
async function latency(log: (line: string) => void): Promise<Target> {
  const store = memoryStore();
  const relayed = await openRelay(store, { flushMs: FLUSH_MS });
  const count = 2000;
  const produced: number[] = [];
  const viewed: number[] = [];
  async function* paced(): AsyncGenerator<string> {
    for (let i = 0; i < count; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      yield `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"t${i} "}}]}\n\n`;
    }
    yield 'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
  }
  const viewing = relay(store, relayed.responseId).then((response) =>
    consumeStream(response, { onPartialResponse: () => void viewed.push(performance.now()), onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'partstream' }),
  );
  await consumeStream(paced(), { onPartialResponse: () => void produced.push(performance.now()), onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'openai-chat', relay: relayed });
  await viewing;
  if (viewed.length !== produced.length) throw new Error(`The viewer saw ${viewed.length} deltas of ${produced.length}`);
  const delays = produced.map((at, i) => (viewed[i] as number) - at).sort((a, b) => a - b);
  const p = (q: number): number => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] as number;
  const limit = FLUSH_MS + 10;
  log(`relay: latency, ${count} deltas at 1/ms, flushMs ${FLUSH_MS}: p50 ${p(0.5).toFixed(2)} ms, p99 ${p(0.99).toFixed(2)} ms (target p99 ≤ ${limit} ms)`);
  return { name: `relay latency producer → viewer, p99 ms (flushMs ${FLUSH_MS})`, value: p(0.99), limit, pass: p(0.99) <= limit };
}

/** The relay's targets, measured in one run (`log` reports progress and each result). */
export async function measureRelay(log: (line: string) => void): Promise<Target[]> {
  return [...(await overhead(log)), await latency(log)];
}

if (require.main === module) {
  void measureRelay((line) => console.log(line)).then((targets) => {
    if (targets.some((t) => !t.pass)) process.exitCode = 1;
  });
}
