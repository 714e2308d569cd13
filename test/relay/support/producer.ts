import { consumeStream } from '../../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../../lib/driver/stream-options';
import type { Relay } from '../../../lib/relay/open-relay';
import type { RelayBatch, ResponseStore } from '../../../lib/relay/response-store';
import { OWN_TRANSCRIPTS, type OwnTranscript } from '../../support/own-transcripts';
import { loggingHandler, type LoggedCallback } from './callback-log';
import { source } from './sources';

/** The rich hand-written OpenAI Chat transcript: reasoning, text, parallel tool calls. */
export const RICH_CHAT = OWN_TRANSCRIPTS.find((t) => t.file === 'own/openai-chat/reasoning-parallel-tools.sse') as OwnTranscript;

/** Produces `transcript` through `relay`; the producer's outcome and callback log. */
export async function produce(transcript: OwnTranscript, relay: Relay): Promise<{ outcome: StreamOutcome; log: LoggedCallback[] }> {
  const handler = loggingHandler();
  const outcome = await consumeStream(source(transcript.bytes), handler, { format: transcript.format, relay });
  return { outcome, log: handler.log };
}

/** Every batch of a log, read to its terminal (or to the batch that holds sequence `upTo`). */
export async function storedBatches(store: ResponseStore, responseId: string, upTo = Infinity): Promise<RelayBatch[]> {
  const out: RelayBatch[] = [];
  if (upTo < 1) return out;
  for await (const batch of store.read(responseId, 0, new AbortController().signal)) {
    out.push(batch);
    if (batch.last >= upTo) break;
  }
  return out;
}

/** A store that records every append and can be made to fail or hang (a wrapper over `inner`). */
export function instrumentedStore(inner: ResponseStore, behaviour: { fail?: (attempt: number, batch: RelayBatch) => 'before' | 'after' | null; hang?: boolean } = {}) {
  const appends: RelayBatch[] = [];
  let attempt = 0;
  const store: ResponseStore = {
    producerId: inner.producerId,
    open: (id, producer, options) => inner.open(id, producer, options),
    append: async (id, batch) => {
      appends.push(batch);
      const failure = behaviour.fail?.(attempt++, batch) ?? null;
      if (behaviour.hang === true) return new Promise<void>(() => undefined);
      if (failure === 'before') throw new Error('connection reset');
      await inner.append(id, batch);
      if (failure === 'after') throw new Error('connection reset after the write');
    },
    read: (id, after, signal) => inner.read(id, after, signal),
    info: (id) => inner.info(id),
    alive: (producerId) => inner.alive(producerId),
    requestStop: (id, request) => inner.requestStop(id, request),
    subscribeStops: (producerId, onStop) => inner.subscribeStops(producerId, onStop),
    retain: (id, ms) => inner.retain(id, ms),
    close: () => inner.close(),
  };
  return { store, appends };
}
