// `read` of the Redis store: the batch that holds `after + 1` (XREVRANGE, trimmed), the rest of the
// stored log in pages (XRANGE from the last id returned), then the live entries from the process's
// one blocking XREAD loop, again from the last id returned. Each step starts exactly after the
// previous one's last entry, so nothing is skipped or given twice.

import { RelayError, type RelayBatch } from '../response-store';
import { LiveFeed } from './live-feed';
import { batchFromEntry } from './log-entry';
import type { RelayRedisClient, RelayStreamEntry } from './relay-redis-client';
import { logEntryId } from './stream-ids';
import { TAIL_COUNT, type StreamTail } from './stream-tail';
import { trimBatch } from './trim-batch';

/** What a read needs of its store. */
export interface LogReadContext {
  readonly command: RelayRedisClient;
  readonly tail: StreamTail;
  /** Runs a command, retrying a failed connection for a short while; a lasting failure is `RelayError('store')`. */
  retrying<T>(what: string, run: () => Promise<T>, signal: AbortSignal): Promise<T>;
  /** Registers a live feed so that closing the store ends it; returns the unregistration. */
  track(feed: LiveFeed): () => void;
  readonly closed: boolean;
}

function closedError(): RelayError {
  return new RelayError('closed', 'The response store is closed');
}

/** The batches of log `key` holding sequences after `after`, as `ResponseStore#read` describes. */
export async function* readLog(context: LogReadContext, key: string, responseId: string, after: number, signal: AbortSignal): AsyncGenerator<RelayBatch> {
  if (context.closed) throw closedError();
  if (signal.aborted) return;
  const { command } = context;
  if (!(await context.retrying('EXISTS', () => command.exists(key), signal))) {
    throw new RelayError('unknown', `No response ${responseId} in the store (unknown or expired)`);
  }
  let next = after + 1;
  let cursor = '0-0';
  /** Set once the terminal batch was reached (given, or wholly before `after`). */
  let ended = false;

  /**
   * The batch of `entry` from `next` on, or null when it lies wholly before `next` (a read that
   * starts beyond it); moves the cursor past it. A jump past `next` is a broken log.
   */
  const accept = (entry: RelayStreamEntry): RelayBatch | null => {
    const batch = batchFromEntry(key, entry);
    cursor = entry.id;
    ended = batch.terminal;
    if (batch.last < next) return null;
    if (batch.first > next) throw new RelayError('store', `The response log ${key} jumps from sequence ${next - 1} to a batch at ${batch.first}`);
    const from = next;
    next = batch.last + 1;
    return trimBatch(batch, from);
  };

  // The batch holding `after + 1` is the last one whose id (its first sequence) is at or before it.
  const [holder] = await context.retrying('XREVRANGE', () => command.xRevRange(key, logEntryId(next), '-', 1), signal);
  if (holder !== undefined) {
    const batch = accept(holder);
    if (batch !== null) yield batch;
    if (ended) return;
  }

  for (;;) {
    // Catch-up: stored batches after the cursor, a page at a time.
    for (;;) {
      if (context.closed) throw closedError();
      if (signal.aborted) return;
      const from = cursor;
      const page = await context.retrying('XRANGE', () => command.xRange(key, `(${from}`, '+', TAIL_COUNT), signal);
      for (const entry of page) {
        const batch = accept(entry);
        if (batch !== null) yield batch;
        if (ended) return;
      }
      if (page.length < TAIL_COUNT) break;
    }
    if (context.closed) throw closedError();
    if (signal.aborted) return;

    // Live: from the last id returned, through the process's blocking XREAD loop.
    const feed = new LiveFeed();
    const untrack = context.track(feed);
    const unsubscribe = context.tail.subscribe(key, cursor, feed);
    feed.onDetach = unsubscribe;
    try {
      for (;;) {
        const state = await feed.wait(signal);
        if (state === 'aborted') return;
        if (state === 'closed') throw closedError();
        if (state === 'failed') throw new RelayError('store', `Reading the response log ${key} failed`, { cause: feed.failure });
        if (state === 'behind') break;
        for (const entry of feed.take()) {
          const batch = accept(entry);
          if (batch !== null) yield batch;
          if (ended) return;
        }
      }
    } finally {
      unsubscribe();
      untrack();
    }
  }
}
