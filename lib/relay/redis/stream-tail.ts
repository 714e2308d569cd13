// One blocking `XREAD` loop per store: every live read of the process (and its stop subscriptions)
// waits in the same `XREAD COUNT … BLOCK … STREAMS k1 … kn id1 … idn` on the one blocking
// connection, each from the last entry id it was given. An idle process therefore costs one
// blocked command, whatever the number of readers, and no entry is skipped or given twice.

import type { RelayRedisClient, RelayStreamEntry } from './relay-redis-client';
import { compareStreamIds, isStreamId } from './stream-ids';

/** What a subscription is told. Entries are always the ones right after its cursor, in order. */
export interface TailListener {
  entries(entries: readonly RelayStreamEntry[]): void;
  /** The server answered something that is not a stream entry; the subscription gets nothing more. */
  fail(error: Error): void;
}

interface Subscription {
  readonly key: string;
  /** The id of the last entry handed to the listener (or where it started). */
  cursor: string;
  readonly listener: TailListener;
}

/** Entries per stream and per `XREAD`. */
export const TAIL_COUNT = 512;

const MAX_RETRY_DELAY_MS = 1000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The multiplexed blocking reader of one store. */
export class StreamTail {
  readonly #command: RelayRedisClient;
  readonly #blockMs: number;
  readonly #subscriptions = new Map<string, Set<Subscription>>();
  #blocking: RelayRedisClient | null = null;
  /** The blocking connection's `CLIENT ID`, or null when unknown or stale. */
  #blockingId: number | null = null;
  #running = false;
  #closed = false;
  /** key → id of the `XREAD` in flight, or null when none is. */
  #inFlight: Map<string, string> | null = null;
  #interrupted = false;

  constructor(command: RelayRedisClient, blockMs: number) {
    this.#command = command;
    this.#blockMs = blockMs;
  }

  /** Hands `listener` the entries of stream `key` after id `cursor` as they arrive; returns the unsubscriber. */
  subscribe(key: string, cursor: string, listener: TailListener): () => void {
    const subscription: Subscription = { key, cursor, listener };
    let group = this.#subscriptions.get(key);
    if (group === undefined) {
      group = new Set();
      this.#subscriptions.set(key, group);
    }
    group.add(subscription);
    if (!this.#running) {
      void this.#run();
    } else if (this.#inFlight !== null) {
      // The XREAD in flight serves this subscription only if it already reads `key` from at or before the cursor.
      const reading = this.#inFlight.get(key);
      if (reading === undefined || compareStreamIds(cursor, reading) < 0) this.#interrupt();
    }
    return () => {
      const current = this.#subscriptions.get(key);
      if (current === undefined) return;
      current.delete(subscription);
      if (current.size === 0) this.#subscriptions.delete(key);
    };
  }

  /** Ends the loop and closes the blocking connection (a pending `XREAD` fails at once). */
  close(): void {
    this.#closed = true;
    this.#subscriptions.clear();
    this.#blocking?.destroy();
    this.#blocking = null;
  }

  async #run(): Promise<void> {
    this.#running = true;
    let failures = 0;
    try {
      while (!this.#closed && this.#subscriptions.size > 0) {
        let reply;
        let reading: Map<string, string> | undefined;
        try {
          const blocking = await this.#connection();
          reading = this.#cursors();
          if (reading.size === 0) break;
          this.#inFlight = reading;
          this.#interrupted = false;
          reply = await blocking.xRead(
            [...reading].map(([key, id]) => ({ key, id })),
            TAIL_COUNT,
            this.#blockMs,
          );
          failures = 0;
        } catch {
          this.#inFlight = null;
          if (this.#closed) break;
          // A dropped connection or a server restart: read again from the same cursors after a pause
          // (the client reconnects meanwhile); the connection's id may have changed.
          this.#blockingId = null;
          failures += 1;
          await delay(Math.min(MAX_RETRY_DELAY_MS, 25 * 2 ** failures));
          continue;
        }
        this.#inFlight = null;
        if (reply !== null) for (const read of reply) this.#dispatch(read.key, read.entries, reading.get(read.key));
      }
    } finally {
      this.#inFlight = null;
      this.#running = false;
    }
    // A subscription that arrived while the loop was winding down starts it again.
    if (!this.#closed && this.#subscriptions.size > 0) void this.#run();
  }

  /** For each key, the earliest cursor of its subscriptions: where the next XREAD reads it from. */
  #cursors(): Map<string, string> {
    const reading = new Map<string, string>();
    for (const [key, group] of this.#subscriptions) {
      let from: string | null = null;
      for (const subscription of group) if (from === null || compareStreamIds(subscription.cursor, from) < 0) from = subscription.cursor;
      if (from !== null) reading.set(key, from);
    }
    return reading;
  }

  async #connection(): Promise<RelayRedisClient> {
    if (this.#blocking === null) {
      const blocking = await this.#command.duplicate();
      if (this.#closed) {
        blocking.destroy();
        throw new Error('closed');
      }
      this.#blocking = blocking;
    }
    if (this.#blockingId === null) {
      try {
        this.#blockingId = await this.#blocking.clientId();
      } catch {
        // Without an id a joining read waits at most one block for the next XREAD.
        this.#blockingId = null;
      }
    }
    return this.#blocking;
  }

  /** Releases the blocked `XREAD` (it answers as if its time ran out) so that the loop reads the new subscription too. */
  #interrupt(): void {
    if (this.#interrupted || this.#blockingId === null) return;
    this.#interrupted = true;
    const inFlight = this.#inFlight;
    const id = this.#blockingId;
    const attempt = (retries: number): void => {
      this.#command.clientUnblock(id).then(
        (released) => {
          if (released || this.#inFlight !== inFlight) return;
          // The XREAD may not have reached the server yet; after one more try the loop's own block bounds the wait.
          if (retries > 0) setTimeout(() => attempt(retries - 1), 5);
          else if (this.#blockingId === id) this.#blockingId = null;
        },
        () => {
          // CLIENT UNBLOCK refused (e.g. by an ACL): the read waits at most one block.
        },
      );
    };
    attempt(2);
  }

  #dispatch(key: string, entries: readonly RelayStreamEntry[], readFrom: string | undefined): void {
    const group = this.#subscriptions.get(key);
    if (group === undefined || readFrom === undefined || entries.length === 0) return;
    let previous = readFrom;
    let bad = false;
    for (const entry of entries) {
      if (!isStreamId(entry.id) || compareStreamIds(entry.id, previous) <= 0) bad = true;
      if (bad) break;
      previous = entry.id;
    }
    for (const subscription of [...group]) {
      if (bad) {
        group.delete(subscription);
        subscription.listener.fail(new Error(`Expected ascending stream entry ids after ${readFrom} from XREAD on ${key}`));
        continue;
      }
      // Joined after this XREAD was sent, behind its id: the next XREAD reads from its own cursor.
      if (compareStreamIds(subscription.cursor, readFrom) < 0) continue;
      let start = 0;
      while (start < entries.length && compareStreamIds((entries[start] as RelayStreamEntry).id, subscription.cursor) <= 0) start += 1;
      if (start === entries.length) continue;
      subscription.cursor = (entries[entries.length - 1] as RelayStreamEntry).id;
      subscription.listener.entries(start === 0 ? entries : entries.slice(start));
    }
    if (group.size === 0) this.#subscriptions.delete(key);
  }
}
