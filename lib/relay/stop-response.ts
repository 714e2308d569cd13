import { describeValue } from '../parts/describe-value';
import { cancelledBatch } from './reaper-event';
import { checkRelayId, randomRelayId } from './relay-ids';
import { RelayError, type RelayBatch, type ResponseStore, type StopRequest } from './response-store';

/** Options of `stopResponse`. */
export interface StopResponseOptions {
  /** Why, as the viewers' `providerMetadata.partstream.stop.reason` will say (null by default). */
  readonly reason?: string | undefined;
  /** Who, as `stop.by` will say (`'stop'` by default). */
  readonly by?: string | undefined;
  /** Wait until the log's terminal is stored (true by default). */
  readonly wait?: boolean | undefined;
  /** How long to wait for it (2000 ms by default). */
  readonly timeoutMs?: number | undefined;
}

/** What `stopResponse` found: `stopped` (the log ends with `cancelled`), `already-ended`, or `unknown`; `lastSequence` is the terminal's sequence once known. */
export interface StopResult {
  readonly status: 'stopped' | 'already-ended' | 'unknown';
  readonly lastSequence: number;
}

/** True when the terminal batch's last event is a `cancelled` one. */
function endsCancelled(batch: RelayBatch): boolean {
  const at = batch.text.lastIndexOf(`id: ${batch.last}\n`);
  return at !== -1 && batch.text.startsWith('event: cancelled\n', at + `id: ${batch.last}\n`.length);
}

/**
 * Stops response `responseId` from any process (SPEC §13): the stop is stored durably on the
 * response (the first one wins) and wakes its producer, which cancels its provider request and
 * ends the log with `cancelled` and the partial as persisted. A response whose producer is no
 * longer alive is ended here, with the same fenced `cancelled`. With `wait` (the default) it
 * resolves once the terminal is in the log (or after `timeoutMs`). An id that is not a relay id is
 * a `TypeError`.
 */
export async function stopResponse(store: ResponseStore, responseId: string, options: StopResponseOptions = {}): Promise<StopResult> {
  checkRelayId(responseId, 'responseId');
  if (options === null || typeof options !== 'object') throw new TypeError(`Expected stopResponse options to be an object, got ${describeValue(options)}`);
  const timeoutMs = options.timeoutMs ?? 2000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new TypeError(`Expected timeoutMs to be a positive number, got ${describeValue(timeoutMs)}`);
  const info = await store.info(responseId);
  if (info === null) return { status: 'unknown', lastSequence: 0 };
  if (info.state === 'ended') return { status: 'already-ended', lastSequence: info.last };
  const request: StopRequest = Object.freeze({ stopId: randomRelayId(), by: options.by ?? 'stop', reason: options.reason ?? null, at: new Date().toISOString() });
  await store.requestStop(responseId, request);
  if (!(await store.alive(info.producerId))) await endForTheDead(store, responseId, request);
  if (options.wait === false) return { status: 'stopped', lastSequence: 0 };
  const terminal = await waitForTerminal(store, responseId, info.last, timeoutMs);
  if (terminal === null) {
    // The producer did not end the log in time: if it is gone by now, end it here.
    if (!(await store.alive(info.producerId))) {
      await endForTheDead(store, responseId, request);
      const now = await store.info(responseId);
      return { status: 'stopped', lastSequence: now?.last ?? 0 };
    }
    return { status: 'stopped', lastSequence: 0 };
  }
  return { status: endsCancelled(terminal) ? 'stopped' : 'already-ended', lastSequence: terminal.last };
}

/** Appends `cancelled` at `last + 1` for a response whose producer is gone; losing the race to another writer is fine. */
async function endForTheDead(store: ResponseStore, responseId: string, request: StopRequest): Promise<void> {
  const info = await store.info(responseId);
  if (info === null || info.state === 'ended') return;
  try {
    await store.append(responseId, cancelledBatch(responseId, info.last + 1, request));
  } catch (error) {
    if (!(RelayError.isInstance(error) && error.kind === 'fenced')) throw error;
  }
}

/** The terminal batch once the log has it, or null after `timeoutMs`. */
async function waitForTerminal(store: ResponseStore, responseId: string, after: number, timeoutMs: number): Promise<RelayBatch | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    for await (const batch of store.read(responseId, after, controller.signal)) if (batch.terminal) return batch;
    return null;
  } catch (error) {
    if (RelayError.isInstance(error) && (error.kind === 'unknown' || error.kind === 'lost')) return null;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
