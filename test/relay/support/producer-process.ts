// A producer process for the relay's cross-process tests, started with child_process.fork (through
// ts-node/register/transpile-only). It connects its own Redis client, makes a redisStore and
// relays hand-written OpenAI Chat streams; it reports to the parent over IPC. The job comes as
// JSON in argv[2]:
//   {mode: 'paced', library, url, name, responseId, words, delayMs, flushMs}
//       one response, one word per delayMs; reports {type: 'delta', count} after each callback,
//       then {type: 'end', outcome, relay, sourceCancelled}.
//   {mode: 'many', library, url, name, tag, responses, words, delayMs}
//       `responses` relays at once, ids `${tag}-${i}`; reports {type: 'opened'}, waits for a message
//       from the parent (any), then streams and reports {type: 'end', failures}.
//   {mode: 'provider', library, url, name, responseId, providerUrl}
//       one response from the loopback provider at providerUrl through streamOpenAIChat.

import { consumeStream } from '../../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../../lib/driver/stream-options';
import { streamOpenAIChat } from '../../../lib/clients/http-clients';
import { openRelay } from '../../../lib/relay/open-relay';
import { redisStore } from '../../../lib/relay/redis/redis-store';
import { connectRedis, type RedisLibrary } from './redis-clients';
import { FINISH, textChunk, word } from './openai-chat-sse';

interface Job {
  readonly mode: 'paced' | 'many' | 'provider';
  readonly library: RedisLibrary;
  readonly url: string;
  readonly name: string;
  readonly responseId?: string;
  readonly tag?: string;
  readonly responses?: number;
  readonly words?: number;
  readonly delayMs?: number;
  readonly flushMs?: number;
  readonly providerUrl?: string;
}

const job = JSON.parse(process.argv[2] as string) as Job;
const send = (message: unknown): void => {
  process.send?.(message);
};
const quiet = { onCompleteResponse: () => undefined, onError: () => undefined };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function summary(outcome: StreamOutcome): unknown {
  if (outcome.status === 'completed') return { status: 'completed', text: outcome.response.aiMessage.text };
  const error = outcome.status === 'failed' ? (outcome.error as Error & { kind?: string; code?: string }) : undefined;
  return { status: outcome.status, kind: error?.kind, code: error?.code, text: outcome.partial.aiMessage.text };
}

async function main(): Promise<void> {
  const redis = await connectRedis(job.library, job.url, job.name);
  const store = redisStore(redis.client, { heartbeatMs: 200, producerTimeoutMs: 1000 });
  if (job.mode === 'paced') {
    const relay = await openRelay(store, { responseId: job.responseId, flushMs: job.flushMs ?? 20, producerTimeoutMs: 1000 });
    let sourceCancelled = false;
    const words = job.words ?? 100;
    // A source that notes when its reader gives it up (return() before its end).
    const source = (): AsyncIterable<string> => {
      let j = 0;
      return {
        [Symbol.asyncIterator]: () => ({
          async next(): Promise<IteratorResult<string>> {
            if (j > words) return { done: true, value: undefined };
            if (j > 0) await sleep(job.delayMs ?? 10);
            const chunk = j < words ? textChunk(word('p', j)) : FINISH;
            j += 1;
            return { done: false, value: chunk };
          },
          async return(): Promise<IteratorResult<string>> {
            if (j <= words) sourceCancelled = true;
            j = words + 1;
            return { done: true, value: undefined };
          },
        }),
      };
    };
    let count = 0;
    send({ type: 'opened' });
    const outcome = await consumeStream(source(), { ...quiet, onPartialResponse: () => send({ type: 'delta', count: ++count }) }, { format: 'openai-chat', relay });
    const end = await relay.done;
    send({ type: 'end', outcome: summary(outcome), relay: end.status, sourceCancelled, count });
  } else if (job.mode === 'many') {
    const count = job.responses ?? 1;
    const relays = await Promise.all(Array.from({ length: count }, (_, i) => openRelay(store, { responseId: `${job.tag}-${i}`, producerTimeoutMs: 5000 })));
    send({ type: 'opened' });
    // The parent counts this process's connections before any relay streams, then says go.
    await new Promise((resolve) => process.once('message', resolve));
    const failures: string[] = [];
    await Promise.all(
      relays.map(async (relay, i) => {
        const source = async function* (): AsyncGenerator<string> {
          for (let j = 0; j < (job.words ?? 20); j += 1) {
            yield textChunk(word(`${job.tag}-${i}-`, j));
            await sleep(job.delayMs ?? 5);
          }
          yield FINISH;
        };
        const outcome = await consumeStream(source(), quiet, { format: 'openai-chat', relay });
        const end = await relay.done;
        if (outcome.status !== 'completed' || end.status !== 'stored') failures.push(`${relay.responseId}: ${outcome.status} / ${end.status}`);
      }),
    );
    send({ type: 'end', failures });
  } else {
    const relay = await openRelay(store, { responseId: job.responseId, producerTimeoutMs: 1000 });
    send({ type: 'opened' });
    let count = 0;
    const outcome = await streamOpenAIChat(
      { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      { ...quiet, onPartialResponse: () => send({ type: 'delta', count: ++count }) },
      { baseURL: job.providerUrl, apiKey: 'sk-test', relay, maxRetries: 0 },
    );
    const end = await relay.done;
    send({ type: 'end', outcome: summary(outcome as StreamOutcome), relay: end.status });
  }
  await store.close();
  await redis.close();
  // Wait for the parent to end this process (it reads CLIENT LIST meanwhile).
  process.on('disconnect', () => process.exit(0));
}

main().catch((error: unknown) => {
  send({ type: 'crash', message: error instanceof Error ? error.stack : String(error) });
  process.exit(1);
});
