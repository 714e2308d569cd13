// The contract between the relay (producer, server, viewers) and the place a response's event log
// lives (SPEC §13 "Stores"). The relay's own logic (batching, the liveness watchdog and reaper,
// stop handling) is written once against this interface; a store only keeps and delivers batches.

/**
 * One fenced append: the SSE text of the events `first … last` (contiguous sequences), encoded
 * once by the producer. `terminal` is true when the batch ends with the response's terminal event.
 * `bytes`, when present, is the UTF-8 of `text` as the producer wrote it: a store may keep or send
 * these instead of `text` (reading `text` of a producer's batch decodes them).
 */
export interface RelayBatch {
  readonly first: number;
  readonly last: number;
  readonly terminal: boolean;
  readonly text: string;
  readonly bytes?: Uint8Array | undefined;
}

/** Who produces a response: the producing process's id (one per store instance) and when it began. */
export interface ProducerInfo {
  readonly producerId: string;
  /** ISO 8601 time the response was opened. */
  readonly createdAt: string;
}

/** A durable request to stop a response, as kept in the store. */
export interface StopRequest {
  /** Unique per call of `stopResponse`, so a repeated delivery is recognised. */
  readonly stopId: string;
  /** Who asked (`stopResponse`'s `by` option; `'stop'` by default). */
  readonly by: string;
  readonly reason: string | null;
  /** ISO 8601 time the stop was asked for. */
  readonly at: string;
}

/** What a store knows of one response. `last` is the highest persisted sequence (0 before any). */
export interface RelayInfo {
  readonly state: 'streaming' | 'ended';
  readonly producerId: string;
  readonly last: number;
  readonly createdAt: string;
  /** The first stop asked for, or null. */
  readonly stop: StopRequest | null;
}

/** Options of `ResponseStore.open`. */
export interface OpenResponseOptions {
  /** How long the log lives without a write while it streams. */
  readonly ttlMs: number;
}

/**
 * Where a response's event log lives: one instance per process (it owns that process's producer
 * id and heartbeat). Every method is safe to call concurrently for different responses; appends to
 * one response are issued serially by its producer (or once by a reaper or a stopper).
 *
 * Failures the relay acts on are `RelayError`s: `conflict` (open of an existing id), `fenced`
 * (append at a sequence someone else already wrote, or after the terminal), `lost` (the log
 * expired or vanished under a producer), `unknown` (no such response), `too-large`, `closed`.
 */
export interface ResponseStore {
  /** This process's producer id (what `alive` and `subscribeStops` are asked about). */
  readonly producerId: string;
  /**
   * Claims `responseId` for `producer` atomically (a second open of the same id rejects
   * `conflict`), creating an empty log (last = 0) in state `streaming`.
   */
  open(responseId: string, producer: ProducerInfo, options: OpenResponseOptions): Promise<void>;
  /**
   * Appends `batch` atomically. Fenced: it lands only when `batch.first === last + 1` and no
   * terminal is stored yet; a terminal batch sets state `ended`. Retry-safe: appending the very
   * batch that an earlier attempt already stored resolves; any other occupant of `first` (or a
   * stored terminal) rejects `fenced`; an unknown or expired log rejects `lost`.
   */
  append(responseId: string, batch: RelayBatch): Promise<void>;
  /**
   * Optional, for stores where a round trip costs: appends the consecutive `batches` (only the last
   * may be a terminal) in order, each as `append` would, in one step. Resolves once all are stored.
   * When it rejects, a first few of them may be stored: appending each with `append` again is safe
   * (the stored ones resolve), and that is what a producer does.
   */
  appendBatches?(responseId: string, batches: readonly RelayBatch[]): Promise<void>;
  /**
   * The batches holding sequences after `after`, in order: first the stored ones (catch-up), then
   * live ones as they are appended, with no gap and no repeat; the first batch is trimmed so that
   * it starts at `after + 1` (its text cut at that event). Ends after the terminal batch or when
   * `signal` aborts. A store never waits by polling. Rejects `unknown` for an unknown id.
   */
  read(responseId: string, after: number, signal: AbortSignal): AsyncIterable<RelayBatch>;
  /** What is known of `responseId`, or null when unknown or expired. */
  info(responseId: string): Promise<RelayInfo | null>;
  /** True while the producer process `producerId` refreshes its heartbeat. */
  alive(producerId: string): Promise<boolean>;
  /**
   * Records a stop durably on the response (the first one wins) and wakes its producer's
   * `subscribeStops` callback, wherever that process runs.
   */
  requestStop(responseId: string, request: StopRequest): Promise<void>;
  /** Calls `onStop` for each stop asked of a response produced by `producerId`; returns the unsubscriber. */
  subscribeStops(producerId: string, onStop: (responseId: string, request: StopRequest) => void): () => void;
  /** Keeps the log `retainMs` from now (after its terminal), then lets it expire. */
  retain(responseId: string, retainMs: number): Promise<void>;
  /** Stops this process's heartbeat, ends its reads and releases its connections. */
  close(): Promise<void>;
}

/** What failed in a store operation, as data. */
export type RelayErrorKind = 'conflict' | 'fenced' | 'lost' | 'unknown' | 'too-large' | 'closed' | 'store';

/** A store or relay failure; `kind` says which, `cause` carries the underlying error. */
export class RelayError extends Error {
  readonly kind: RelayErrorKind;

  constructor(kind: RelayErrorKind, message: string, options: { readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RelayError';
    this.kind = kind;
  }

  /** True for a `RelayError` from any copy of partstream (ESM and CJS builds may coexist). */
  static isInstance(value: unknown): value is RelayError {
    return value instanceof RelayError || (value instanceof Error && value.name === 'RelayError' && typeof (value as { kind?: unknown }).kind === 'string');
  }
}

/** Response and producer ids: `/^[A-Za-z0-9_.:-]{1,128}$/` (SPEC §13). */
export const RELAY_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
