import { describeValue } from '../parts/describe-value';
import { checkRelayId, randomRelayId } from './relay-ids';
import { RelayError, type OpenResponseOptions, type ProducerInfo, type RelayBatch, type RelayInfo, type ResponseStore, type StopRequest } from './response-store';
import { trimBatch } from './trim-batch';

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /** The most responses kept at once (expired ones are swept first); 10 000 by default. */
  readonly maxResponses?: number | undefined;
  /** The most text one response's log may hold (UTF-16 code units; UTF-8 bytes of a producer's batches); 64 MiB by default. */
  readonly maxResponseBytes?: number | undefined;
  /** How often at most expired logs are swept, on the store's own calls (milliseconds); 60 000 by default. */
  readonly sweepMs?: number | undefined;
}

/** One response's log and what is known of it. */
interface Entry {
  readonly producer: ProducerInfo;
  readonly batches: RelayBatch[];
  last: number;
  ended: boolean;
  bytes: number;
  expiresAt: number;
  stop: StopRequest | null;
  /** Reads waiting for the next batch: each is woken once, then waits again if it must. */
  waiters: (() => void)[];
}

const now = (): number => Date.now();

/** The logs of one memory store, shared by every process view made from it (`MemoryResponseStore.peer`). */
class MemoryLogs {
  readonly entries = new Map<string, Entry>();
  /** The producer ids of the views not closed: `alive` asks here. */
  readonly living = new Set<string>();
  readonly stopListeners = new Map<string, Set<(responseId: string, request: StopRequest) => void>>();
  /** When the next sweep is due (sweeps run on the store's own calls: no timer keeps a process alive). */
  private sweepAt = 0;

  constructor(
    readonly maxResponses: number,
    readonly maxResponseBytes: number,
    private readonly sweepMs: number,
  ) {}

  /** The live entry of `id`; an expired one is removed (and its readers woken) on the way. */
  get(id: string): Entry | undefined {
    if (now() >= this.sweepAt) this.sweep();
    const entry = this.entries.get(id);
    if (entry !== undefined && entry.expiresAt <= now()) {
      this.remove(id, entry);
      return undefined;
    }
    return entry;
  }

  add(id: string, entry: Entry): void {
    this.entries.set(id, entry);
  }

  /** Removes every expired log; runs at most once per `sweepMs`, from the store's calls (a read's watchdog calls too). */
  sweep(): void {
    const time = now();
    this.sweepAt = time + this.sweepMs;
    for (const [id, entry] of this.entries) if (entry.expiresAt <= time) this.remove(id, entry);
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    wake(entry);
  }
}

function wake(entry: Entry): void {
  const waiters = entry.waiters;
  entry.waiters = [];
  for (const waiter of waiters) waiter();
}

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`Expected ${name} to be a positive number, got ${describeValue(value)}`);
  return value;
}

/**
 * The default `ResponseStore`: a `Map` of batch arrays in this process, read with promise waiters
 * (no polling), bounded by `maxResponses` and `maxResponseBytes`, expired by TTL sweeps that run
 * on the store's own calls at most once per `sweepMs` (no timer, so a store never keeps a process alive). It serves any number of viewers and reconnects, and survives any viewer's
 * disconnect — not the death of its process (use a shared store such as Redis for that).
 * `peer()` makes a view of the same logs with a producer id of its own, as a second process
 * sharing a store would be (its `close()` makes that producer dead to `alive`).
 */
export class MemoryResponseStore implements ResponseStore {
  readonly producerId: string;
  private closed = false;
  /** Wakes this view's pending reads at `close()`. */
  private readonly reads = new Set<() => void>();

  /** Made by `memoryStore()`; `logs` is shared with the views `peer()` makes. */
  constructor(
    private readonly logs: MemoryLogs,
    producerId: string = randomRelayId(),
  ) {
    this.producerId = checkRelayId(producerId, 'producerId');
    logs.living.add(this.producerId);
  }

  /** A view of the same logs as another process: its own producer id, liveness and stop subscriptions. */
  peer(producerId: string = randomRelayId()): MemoryResponseStore {
    return new MemoryResponseStore(this.logs, producerId);
  }

  async open(responseId: string, producer: ProducerInfo, options: OpenResponseOptions): Promise<void> {
    this.checkOpen();
    const logs = this.logs;
    if (logs.get(responseId) !== undefined) throw new RelayError('conflict', `Response ${responseId} already has a producer`);
    if (logs.entries.size >= logs.maxResponses) logs.sweep();
    if (logs.entries.size >= logs.maxResponses) throw new RelayError('too-large', `The memory store holds its maximum of ${logs.maxResponses} responses (maxResponses)`);
    logs.add(responseId, { producer, batches: [], last: 0, ended: false, bytes: 0, expiresAt: now() + options.ttlMs, stop: null, waiters: [] });
  }

  async append(responseId: string, batch: RelayBatch): Promise<void> {
    checkBatch(batch);
    this.checkOpen();
    const entry = this.logs.get(responseId);
    if (entry === undefined) throw new RelayError('lost', `The log of response ${responseId} is gone (expired or never opened)`);
    if (batch.first !== entry.last + 1 || entry.ended) {
      if (isStored(entry, batch)) return;
      throw new RelayError('fenced', `Response ${responseId}: events from ${batch.first} cannot follow ${entry.last}${entry.ended ? ' (its terminal is stored)' : ''}`);
    }
    const size = batchSize(batch);
    if (entry.bytes + size > this.logs.maxResponseBytes) {
      throw new RelayError('too-large', `Response ${responseId} would exceed the store's ${this.logs.maxResponseBytes} characters (maxResponseBytes)`);
    }
    entry.batches.push(batch);
    entry.bytes += size;
    entry.last = batch.last;
    if (batch.terminal) entry.ended = true;
    wake(entry);
  }

  read(responseId: string, after: number, signal: AbortSignal): AsyncIterable<RelayBatch> {
    return { [Symbol.asyncIterator]: () => this.readBatches(responseId, after, signal) };
  }

  private async *readBatches(responseId: string, after: number, signal: AbortSignal): AsyncGenerator<RelayBatch> {
    let entry = this.logs.get(responseId);
    if (entry === undefined) throw new RelayError('unknown', `No response ${responseId}`);
    let at = indexOfBatchAfter(entry.batches, after);
    let first = true;
    while (!signal.aborted && !this.closed) {
      const batches = entry.batches;
      if (at < batches.length) {
        const batch = batches[at++] as RelayBatch;
        yield first ? trimBatch(batch, after + 1) : batch;
        first = false;
        if (batch.terminal) return;
        continue;
      }
      // Read from past the terminal: nothing more will come.
      if (entry.ended) return;
      await this.waitForMore(entry, signal);
      if (this.closed) throw new RelayError('closed', 'The store was closed');
      const current = this.logs.get(responseId);
      if (current !== entry) {
        if (signal.aborted || this.closed) return;
        throw new RelayError('lost', `The log of response ${responseId} expired while it was read`);
      }
      entry = current;
    }
  }

  private waitForMore(entry: Entry, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        this.reads.delete(done);
        resolve();
      };
      entry.waiters.push(done);
      this.reads.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  async info(responseId: string): Promise<RelayInfo | null> {
    const entry = this.logs.get(responseId);
    if (entry === undefined) return null;
    return Object.freeze({ state: entry.ended ? 'ended' : 'streaming', producerId: entry.producer.producerId, last: entry.last, createdAt: entry.producer.createdAt, stop: entry.stop });
  }

  async alive(producerId: string): Promise<boolean> {
    return this.logs.living.has(producerId);
  }

  async requestStop(responseId: string, request: StopRequest): Promise<void> {
    this.checkOpen();
    const entry = this.logs.get(responseId);
    if (entry === undefined) throw new RelayError('unknown', `No response ${responseId}`);
    if (entry.stop === null) entry.stop = request;
    const stored = entry.stop;
    const listeners = this.logs.stopListeners.get(entry.producer.producerId);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      queueMicrotask(() => {
        try {
          listener(responseId, stored);
        } catch {
          // A subscriber's failure is its own; the stop is stored.
        }
      });
    }
  }

  subscribeStops(producerId: string, onStop: (responseId: string, request: StopRequest) => void): () => void {
    const all = this.logs.stopListeners;
    let listeners = all.get(producerId);
    if (listeners === undefined) {
      listeners = new Set();
      all.set(producerId, listeners);
    }
    listeners.add(onStop);
    // A stop asked before anyone listened is still owed to the producer of a response that streams.
    for (const [responseId, entry] of this.logs.entries) {
      const stop = entry.stop;
      if (stop !== null && !entry.ended && entry.producer.producerId === producerId) {
        queueMicrotask(() => {
          if (!listeners.has(onStop)) return;
          try {
            onStop(responseId, stop);
          } catch {
            // A subscriber's failure is its own; the stop is stored.
          }
        });
      }
    }
    return () => {
      listeners.delete(onStop);
      if (listeners.size === 0 && all.get(producerId) === listeners) all.delete(producerId);
    };
  }

  async retain(responseId: string, retainMs: number): Promise<void> {
    const entry = this.logs.get(responseId);
    if (entry !== undefined) entry.expiresAt = now() + retainMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.logs.living.delete(this.producerId);
    for (const wakeRead of [...this.reads]) wakeRead();
  }

  private checkOpen(): void {
    if (this.closed) throw new RelayError('closed', 'The store was closed');
  }
}

function checkBatch(batch: RelayBatch): void {
  if (batch === null || typeof batch !== 'object') throw new TypeError(`Expected a batch {first, last, terminal, text}, got ${describeValue(batch)}`);
  const { first, last, terminal, bytes } = batch;
  if (!Number.isSafeInteger(first) || first < 1) throw new TypeError(`Expected batch.first to be a positive integer, got ${describeValue(first)}`);
  if (!Number.isSafeInteger(last) || last < first) throw new TypeError(`Expected batch.last to be an integer of at least batch.first, got ${describeValue(last)}`);
  if (typeof terminal !== 'boolean') throw new TypeError(`Expected batch.terminal to be a boolean, got ${describeValue(terminal)}`);
  // A producer's batch carries its UTF-8 (its text is decoded only when read).
  if (bytes !== undefined) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Expected batch.bytes to be a Uint8Array, got ${describeValue(bytes)}`);
  } else if (typeof batch.text !== 'string') {
    throw new TypeError(`Expected batch.text to be a string, got ${describeValue(batch.text)}`);
  }
}

/** What a batch counts against `maxResponseBytes`: its UTF-8 bytes when it carries them, else its text's UTF-16 code units. */
function batchSize(batch: RelayBatch): number {
  return batch.bytes !== undefined ? batch.bytes.length : batch.text.length;
}

/** True when `batch` is exactly the batch stored at its `first` (a retried append that had landed). */
function isStored(entry: Entry, batch: RelayBatch): boolean {
  const batches = entry.batches;
  const at = indexOfBatchAfter(batches, batch.first - 1);
  const stored = batches[at];
  return stored !== undefined && stored.first === batch.first && stored.last === batch.last && stored.terminal === batch.terminal && stored.text === batch.text;
}

/** The index of the batch that holds sequence `after + 1` (binary search; the length when none does yet). */
function indexOfBatchAfter(batches: readonly RelayBatch[], after: number): number {
  let low = 0;
  let high = batches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((batches[middle] as RelayBatch).last <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A `ResponseStore` in this process's memory (SPEC §13): the default, nothing to install. Bounded
 * by `maxResponses` (10 000) and `maxResponseBytes` (64 MiB of text per response); logs expire
 * after their TTL (`openRelay`'s `ttlMs`, then `retainMs` once ended), swept at most every `sweepMs`.
 */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryResponseStore {
  if (options === null || typeof options !== 'object') throw new TypeError(`Expected memoryStore options to be an object, got ${describeValue(options)}`);
  const maxResponses = positive(options.maxResponses, 'maxResponses', 10_000);
  const maxResponseBytes = positive(options.maxResponseBytes, 'maxResponseBytes', 64 * 2 ** 20);
  const sweepMs = positive(options.sweepMs, 'sweepMs', 60_000);
  return new MemoryResponseStore(new MemoryLogs(maxResponses, maxResponseBytes, sweepMs));
}
