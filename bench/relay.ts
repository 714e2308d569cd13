import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { memoryStore } from '../lib/relay/memory-store';
import { openRelay } from '../lib/relay/open-relay';
import { relay } from '../lib/relay/relay-response';
import { chunkedSource } from './chunked-source';
import { generateTranscript } from './generate-transcript';
import { interleave } from './measure';

// `npm run bench:relay`: node --expose-gc -r ts-node/register/transpile-only bench/relay.ts
// Two targets of SPEC §13 (design/relay.md (d)), measured in one run:
// 1. a producer relaying into memoryStore costs ≤ 1.15× the same stream without a relay (10⁵ deltas, CPU time);
// 2. producer callback → viewer callback on loopback: p99 ≤ flushMs + 10 ms (deltas paced 1 per ms).

const N = Number(process.env.BENCH_RELAY_N ?? 100_000);
const CHUNK = 16 * 1024;
const FLUSH_MS = 20;

const sink: StreamingChatResponseHandler = { onPartialResponse: () => undefined, onCompleteResponse: () => undefined, onError: () => undefined };

function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

async function overhead(): Promise<number> {
  const transcript = generateTranscript({ format: 'openai-chat', n: N });
  const parts = chunks(transcript.bytes);
  const timings = await interleave(
    [
      {
        name: 'without relay',
        run: () => consumeStream(chunkedSource(parts), sink, { format: 'openai-chat' }),
        check: (outcome) => void ((outcome as { status: string }).status === 'completed' || fail('without relay')),
      },
      {
        name: 'relay into memoryStore',
        run: async () => {
          const relayed = await openRelay(memoryStore());
          const outcome = await consumeStream(chunkedSource(parts), sink, { format: 'openai-chat', relay: relayed });
          const end = await relayed.done;
          return end.status === 'stored' ? outcome : null;
        },
        check: (outcome) => void ((outcome as { status: string } | null)?.status === 'completed' || fail('relay')),
      },
    ],
    { warmup: 2, reps: 7, gc: 'full' },
  );
  const plain = timings.get('without relay')?.cpu.median ?? NaN;
  const relayed = timings.get('relay into memoryStore')?.cpu.median ?? NaN;
  console.log(`producer, ${N} deltas: without relay ${plain.toFixed(1)} ms CPU, with relay ${relayed.toFixed(1)} ms CPU: ${(relayed / plain).toFixed(3)}× (target ≤ 1.15×)`);
  return relayed / plain;
}

function fail(what: string): never {
  throw new Error(`The ${what} run did not complete`);
}

async function latency(): Promise<number> {
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
  const delays = produced.map((at, i) => (viewed[i] ?? NaN) - at).sort((a, b) => a - b);
  const p = (q: number): number => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] as number;
  console.log(`latency, ${count} deltas at 1/ms, flushMs ${FLUSH_MS}: p50 ${p(0.5).toFixed(2)} ms, p99 ${p(0.99).toFixed(2)} ms (target p99 ≤ ${FLUSH_MS + 10} ms)`);
  return p(0.99);
}

void (async () => {
  const ratio = await overhead();
  const p99 = await latency();
  if (!(ratio <= 1.15) || !(p99 <= FLUSH_MS + 10)) process.exitCode = 1;
})();
