import { producerLostBatch } from './reaper-event';
import { RelayError, type RelayBatch, type ResponseStore } from './response-store';

/** Options of `readLog`. */
export interface ReadLogOptions {
  /** How long a read waits for a batch before it asks whether the producer is alive (5000 ms). */
  readonly producerTimeoutMs?: number | undefined;
  /** How long a log ended by a reaper is kept (10 min). */
  readonly retainMs?: number | undefined;
}

const TIMED_OUT = Symbol('timed out');

/**
 * `store.read` with the liveness watchdog every read shares (SPEC §13): when no batch came for
 * `producerTimeoutMs` and the log has not ended, it asks `store.alive(owner)`; for a dead owner
 * it appends, fenced at `last + 1`, the terminal `error` `{kind: 'truncated', code:
 * 'producer_lost'}` by `'reaper'` — the first reaper wins, the others (and every read) then read
 * that terminal. A live producer that is only silent is waited for.
 */
export async function* readLog(store: ResponseStore, responseId: string, after: number, signal: AbortSignal, options: ReadLogOptions = {}): AsyncGenerator<RelayBatch> {
  const timeoutMs = options.producerTimeoutMs ?? 5000;
  const iterator = store.read(responseId, after, signal)[Symbol.asyncIterator]();
  try {
    let pending = iterator.next();
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
      });
      let result: IteratorResult<RelayBatch> | typeof TIMED_OUT;
      try {
        result = await Promise.race([pending, timeout]);
      } finally {
        clearTimeout(timer);
      }
      if (result === TIMED_OUT) {
        if (signal.aborted) return;
        await reapIfLost(store, responseId, options.retainMs ?? 600_000);
        continue;
      }
      if (result.done === true) return;
      yield result.value;
      if (result.value.terminal) return;
      pending = iterator.next();
    }
  } finally {
    void iterator.return?.()?.catch?.(() => undefined);
  }
}

/** Appends the `producer_lost` terminal when the log is still open and its producer is dead; a lost race is fine. */
async function reapIfLost(store: ResponseStore, responseId: string, retainMs: number): Promise<void> {
  const info = await store.info(responseId);
  if (info === null || info.state === 'ended') return;
  if (await store.alive(info.producerId)) return;
  try {
    await store.append(responseId, producerLostBatch(responseId, info.producerId, info.last + 1));
    await store.retain(responseId, retainMs);
  } catch (error) {
    // Another reaper (or the producer itself) wrote first: every read gets that terminal.
    if (!(RelayError.isInstance(error) && error.kind === 'fenced')) throw error;
  }
}
