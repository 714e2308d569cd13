// The Redis response store itself (SPEC §13 "Stores"): one stream per response with explicit ids
// `0-<first sequence>` (fenced, retry-safe appends), a meta hash, and per process a heartbeat key
// and a control stream. It sends commands on one connection and reads live entries through one
// blocking XREAD loop on a second one, however many responses it produces or reads.

import { RELAY_ID_PATTERN, RelayError, type OpenResponseOptions, type ProducerInfo, type RelayBatch, type RelayInfo, type ResponseStore, type StopRequest } from '../response-store';
import { checkBatch, checkBatches, checkId, checkSequence, checkStop, positiveInteger } from './check-arguments';
import type { LiveFeed } from './live-feed';
import { batchFromEntry, logEntryFields } from './log-entry';
import { readLog, type LogReadContext } from './read-log';
import type { RelayKeys } from './redis-keys';
import type { RelayRedisClient } from './relay-redis-client';
import { firstFieldValues } from './reply-shapes';
import { stopCommandFields, stopCommandFrom, stopFromJson, stopToJson } from './stop-codec';
import { isIdTaken, storeError } from './store-error';
import { logEntryId } from './stream-ids';
import { StreamTail } from './stream-tail';
import { sleep } from '../../transport/sleep';

/** A `ResponseStore` on Redis, with the timing the relay's liveness watchdog uses. */
export interface RedisResponseStore extends ResponseStore {
  readonly heartbeatMs: number;
  readonly producerTimeoutMs: number;
  /** Consecutive batches in one round trip (one script; each batch its own entry and XADD). */
  appendBatches(responseId: string, batches: readonly RelayBatch[]): Promise<void>;
}

/** Entries a control stream keeps (approximately). */
const CONTROL_STREAM_LENGTH = 1000;
/** A control stream of a process that stopped reading it is gone after an hour without stops. */
const CONTROL_STREAM_TTL_MS = 3_600_000;
/** The consumer group whose creation makes an empty log (`XGROUP CREATE … MKSTREAM`); nothing reads through it. */
const LOG_GROUP = 'open';
/** Raised as a log's last id once its terminal is stored, so that no later batch can be added. */
const SEALED_ID = '0-18446744073709551615';
/** Retries of a command that failed on the connection (about 1.5 s in all). */
const RETRY_DELAYS_MS = [25, 50, 100, 200, 400, 800];

/** `bytes` random bytes in hex (WHATWG `crypto`, as in Node ≥ 20, Deno, Bun and browsers). */
function randomHex(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const byte of random) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** When the TTL of a response this process produces was last pushed out. */
interface TtlClock {
  readonly ttlMs: number;
  refreshedAt: number;
}

/** The store `redisStore` returns. */
export class RedisStore implements RedisResponseStore {
  readonly producerId: string;
  readonly heartbeatMs: number;
  readonly producerTimeoutMs: number;
  readonly #command: RelayRedisClient;
  readonly #keys: RelayKeys;
  readonly #tail: StreamTail;
  readonly #ttls = new Map<string, TtlClock>();
  readonly #feeds = new Set<LiveFeed>();
  /** The last control stream id handed to stop subscribers, per control stream. */
  readonly #stopCursors = new Map<string, string>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #closed = false;
  readonly #readContext: LogReadContext;

  constructor(command: RelayRedisClient, keys: RelayKeys, heartbeatMs: number, producerTimeoutMs: number, tailBlockMs: number) {
    this.producerId = randomHex(16);
    this.heartbeatMs = heartbeatMs;
    this.producerTimeoutMs = producerTimeoutMs;
    this.#command = command;
    this.#keys = keys;
    this.#tail = new StreamTail(command, tailBlockMs);
    const store = this;
    this.#readContext = {
      command,
      tail: this.#tail,
      retrying: (what, run, signal) => this.#retrying(what, run, signal),
      track: (feed) => {
        this.#feeds.add(feed);
        return () => this.#feeds.delete(feed);
      },
      get closed() {
        return store.#closed;
      },
    };
  }

  async open(responseId: string, producer: ProducerInfo, options: OpenResponseOptions): Promise<void> {
    checkId('a response id', responseId);
    if (producer === null || typeof producer !== 'object') throw new TypeError(`Expected producer info {producerId, createdAt}, got ${producer === null ? 'null' : typeof producer}`);
    checkId('a producer id', producer.producerId);
    if (typeof producer.createdAt !== 'string') throw new TypeError(`Expected producer.createdAt to be an ISO 8601 string, got ${typeof producer.createdAt}`);
    const ttlMs = positiveInteger('ttlMs', options?.ttlMs);
    this.#checkOpen();
    const meta = this.#keys.meta(responseId);
    const log = this.#keys.log(responseId);
    const beating = this.#startHeartbeat();
    try {
      // The election: the first HSETNX of the owner wins, its TTL set in the same step (a producer
      // that dies right after winning leaves no key behind for good); the loser creates nothing.
      const [won] = await Promise.all([this.#command.hSetNxPx(meta, 'owner', producer.producerId, ttlMs), beating]);
      if (!won) throw new RelayError('conflict', `The response ${responseId} already exists: one producer per response`);
      await Promise.all([
        this.#command.hSet(meta, ['v', '1', 'createdAt', producer.createdAt, 'state', 'streaming']),
        this.#command.pExpire(meta, ttlMs),
        this.#command.createEmptyStream(log, LOG_GROUP),
        this.#command.pExpire(log, ttlMs),
      ]);
    } catch (error) {
      throw storeError('open', error);
    }
    this.#ttls.set(responseId, { ttlMs, refreshedAt: Date.now() });
  }

  async append(responseId: string, batch: RelayBatch): Promise<void> {
    checkId('a response id', responseId);
    checkBatch(batch);
    this.#checkOpen();
    const log = this.#keys.log(responseId);
    const id = logEntryId(batch.first);
    let added: string | null;
    try {
      const adding = this.#command.xAdd(log, id, logEntryFields(batch), { noMkStream: true });
      this.#refreshTtl(responseId);
      added = await adding;
    } catch (error) {
      if (!isIdTaken(error)) throw storeError('XADD', error);
      added = await this.#checkOccupant(responseId, log, id, batch);
    }
    if (added === null) throw this.#lost(responseId);
    if (batch.terminal) await this.#seal(responseId, log);
  }

  /**
   * The consecutive `batches` in one round trip: one script runs their XADDs in order, atomically,
   * so a reaper's or stopper's terminal lands before all of them or after all of them. A batch a
   * retry finds already stored passes, as with `append`. Without `xAddAll` on the client, one
   * `append` per batch.
   */
  async appendBatches(responseId: string, batches: readonly RelayBatch[]): Promise<void> {
    checkId('a response id', responseId);
    checkBatches(batches);
    this.#checkOpen();
    const xAddAll = this.#command.xAddAll?.bind(this.#command);
    if (xAddAll === undefined) {
      for (const batch of batches) await this.append(responseId, batch);
      return;
    }
    const log = this.#keys.log(responseId);
    let result;
    try {
      const adding = xAddAll(
        log,
        batches.map((batch) => ({ id: logEntryId(batch.first), fields: logEntryFields(batch) })),
      );
      this.#refreshTtl(responseId);
      result = await adding;
    } catch (error) {
      throw storeError('XADD', error);
    }
    if (result.stop === 'missing') throw this.#lost(responseId);
    if (result.stop === 'taken') throw this.#fenced(responseId, (batches[result.added] as RelayBatch).first);
    const last = batches[batches.length - 1] as RelayBatch;
    if (last.terminal) await this.#seal(responseId, log);
  }

  #fenced(responseId: string, first: number): RelayError {
    this.#ttls.delete(responseId);
    return new RelayError('fenced', `The response ${responseId} already holds sequence ${first} or its terminal: this append is fenced out`);
  }

  #lost(responseId: string): RelayError {
    this.#ttls.delete(responseId);
    return new RelayError('lost', `The response log of ${responseId} is gone (expired or deleted)`);
  }

  /** After the terminal batch: no batch can follow it (every explicit id is now at or below the log's last id), and the response is `ended`. */
  async #seal(responseId: string, log: string): Promise<void> {
    this.#ttls.delete(responseId);
    try {
      await Promise.all([this.#command.xSetId(log, SEALED_ID), this.#command.hSet(this.#keys.meta(responseId), ['state', 'ended'])]);
    } catch (error) {
      throw storeError('XSETID', error);
    }
  }

  /** After a refused id: the very same batch stored by an earlier attempt resolves, anything else is `fenced`. */
  async #checkOccupant(responseId: string, log: string, id: string, batch: RelayBatch): Promise<string> {
    let occupant;
    try {
      [occupant] = await this.#command.xRange(log, id, id, 1);
    } catch (error) {
      throw storeError('XRANGE', error);
    }
    if (occupant !== undefined) {
      const stored = batchFromEntry(log, occupant);
      if (stored.last === batch.last && stored.terminal === batch.terminal && stored.text === batch.text) return occupant.id;
    }
    throw this.#fenced(responseId, batch.first);
  }

  /** Pushes out the TTL of a response this process produces, at most every tenth of its TTL. */
  #refreshTtl(responseId: string): void {
    const clock = this.#ttls.get(responseId);
    if (clock === undefined) return;
    const now = Date.now();
    if (now - clock.refreshedAt < clock.ttlMs / 10) return;
    clock.refreshedAt = now;
    // Sent in the same tick as the XADD (one round trip); a failure is caught up by the next refresh.
    this.#command.pExpire(this.#keys.log(responseId), clock.ttlMs).catch(() => {});
    this.#command.pExpire(this.#keys.meta(responseId), clock.ttlMs).catch(() => {});
  }

  read(responseId: string, after: number, signal: AbortSignal): AsyncIterable<RelayBatch> {
    checkId('a response id', responseId);
    checkSequence('after', after, 0);
    if (!(signal instanceof AbortSignal)) throw new TypeError(`Expected an AbortSignal, got ${typeof signal}`);
    return readLog(this.#readContext, this.#keys.log(responseId), responseId, after, signal);
  }

  async info(responseId: string): Promise<RelayInfo | null> {
    checkId('a response id', responseId);
    this.#checkOpen();
    const log = this.#keys.log(responseId);
    let flat: string[];
    let top;
    try {
      [flat, [top]] = await Promise.all([this.#command.hGetAll(this.#keys.meta(responseId)), this.#command.xRevRange(log, '+', '-', 1)]);
    } catch (error) {
      throw storeError('info', error);
    }
    const meta = firstFieldValues(flat);
    const owner = meta.get('owner');
    if (owner === undefined) return null;
    const last = top === undefined ? null : batchFromEntry(log, top);
    return {
      state: last?.terminal === true || meta.get('state') === 'ended' ? 'ended' : 'streaming',
      producerId: owner,
      last: last?.last ?? 0,
      createdAt: meta.get('createdAt') ?? '',
      stop: stopFromJson(meta.get('stop')),
    };
  }

  async alive(producerId: string): Promise<boolean> {
    checkId('a producer id', producerId);
    this.#checkOpen();
    try {
      return await this.#command.exists(this.#keys.alive(producerId));
    } catch (error) {
      throw storeError('EXISTS', error);
    }
  }

  async requestStop(responseId: string, request: StopRequest): Promise<void> {
    checkId('a response id', responseId);
    checkStop(request);
    this.#checkOpen();
    const meta = this.#keys.meta(responseId);
    try {
      const owner = firstFieldValues(await this.#command.hGetAll(meta)).get('owner');
      if (owner === undefined || !RELAY_ID_PATTERN.test(owner)) throw new RelayError('unknown', `No response ${responseId} in the store (unknown or expired)`);
      // The first stop wins in the meta hash; the producer is woken with that one, wherever it runs.
      let winner = request;
      if (!(await this.#command.hSetNx(meta, 'stop', stopToJson(request)))) {
        winner = stopFromJson(firstFieldValues(await this.#command.hGetAll(meta)).get('stop')) ?? request;
      }
      const ctl = this.#keys.ctl(owner);
      await Promise.all([this.#command.xAdd(ctl, '*', stopCommandFields(responseId, winner), { approxMaxLen: CONTROL_STREAM_LENGTH }), this.#command.pExpire(ctl, CONTROL_STREAM_TTL_MS)]);
    } catch (error) {
      throw storeError('stop', error);
    }
  }

  subscribeStops(producerId: string, onStop: (responseId: string, request: StopRequest) => void): () => void {
    checkId('a producer id', producerId);
    if (typeof onStop !== 'function') throw new TypeError(`Expected onStop to be a function, got ${typeof onStop}`);
    this.#checkOpen();
    const ctl = this.#keys.ctl(producerId);
    // A new subscriber starts where the store's earlier ones stopped (or at the start of the
    // process's control stream), so a stop sent while nobody listened is still delivered.
    const unsubscribe = this.#tail.subscribe(ctl, this.#stopCursors.get(ctl) ?? '0-0', {
      entries: (entries) => {
        const lastId = (entries[entries.length - 1] as { id: string }).id;
        this.#stopCursors.set(ctl, lastId);
        for (const entry of entries) {
          const stop = stopCommandFrom(entry.fields);
          if (stop === null) continue;
          try {
            onStop(stop.responseId, stop.request);
          } catch {
            // A throwing subscriber must not stop the deliveries to the others.
          }
        }
      },
      fail: () => {},
    });
    return unsubscribe;
  }

  async retain(responseId: string, retainMs: number): Promise<void> {
    checkId('a response id', responseId);
    const ms = positiveInteger('retainMs', retainMs);
    this.#checkOpen();
    this.#ttls.delete(responseId);
    try {
      await Promise.all([this.#command.pExpire(this.#keys.log(responseId), ms), this.#command.pExpire(this.#keys.meta(responseId), ms)]);
    } catch (error) {
      throw storeError('PEXPIRE', error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    for (const feed of this.#feeds) feed.close();
    this.#feeds.clear();
    this.#tail.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new RelayError('closed', 'The response store is closed');
  }

  /** Starts this process's heartbeat (once) and resolves when its first beat is stored. */
  #startHeartbeat(): Promise<void> {
    const key = this.#keys.alive(this.producerId);
    const beat = (): Promise<void> => this.#command.setPx(key, '1', this.producerTimeoutMs);
    if (this.#heartbeat !== null) return Promise.resolve();
    this.#heartbeat = setInterval(() => {
      // A failed beat is retried at the next one; a heartbeat lapsing for producerTimeoutMs is what fencing is for.
      beat().catch(() => {});
    }, this.heartbeatMs);
    return beat();
  }

  async #retrying<T>(what: string, run: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      if (this.#closed) throw new RelayError('closed', 'The response store is closed');
      try {
        return await run();
      } catch (error) {
        const wait = RETRY_DELAYS_MS[attempt];
        if (RelayError.isInstance(error) || wait === undefined || signal.aborted) throw storeError(what, error);
        await sleep(wait, signal);
      }
    }
  }
}
