import type { RecordedStream, StreamRecorder, StreamRelay } from '../driver/consume-stream';
import { StreamError } from '../handler/stream-error';
import { describeValue } from '../parts/describe-value';
import { BatchWriter, type BatchEvents, type BatchLimits } from './batch-writer';
import { memoryStore } from './memory-store';
import { PartstreamRecorder } from './partstream-recorder';
import { checkRelayId, randomRelayId } from './relay-ids';
import type { RelayError, ResponseStore, StopRequest } from './response-store';

/** Options of `openRelay` (SPEC §13); every one has a default. */
export interface OpenRelayOptions {
  /** The response's id (`/^[A-Za-z0-9_.:-]{1,128}$/`); 128 random bits by default. */
  readonly responseId?: string | undefined;
  /** A batch is appended this long after its first event (20 ms). */
  readonly flushMs?: number | undefined;
  /** … or once it holds this many events (64). */
  readonly flushCount?: number | undefined;
  /** … or this much text (32 768). */
  readonly flushBytes?: number | undefined;
  /** The most text relayed for the response (64 MiB); past it the log ends with `relay_too_large` and the local stream goes on. */
  readonly maxResponseBytes?: number | undefined;
  /** How long the log lives without a write while it streams (24 h). */
  readonly ttlMs?: number | undefined;
  /** How long the log is kept after its terminal event (10 min). */
  readonly retainMs?: number | undefined;
  /** Relays the stream's raw (unmapped) events too (false). */
  readonly relayRawEvents?: boolean | undefined;
  /** How long a failing append is retried (5000 ms, the producer timeout). */
  readonly producerTimeoutMs?: number | undefined;
}

/** How a relay's log ended, once it did. */
export type RelayEnd =
  | { readonly status: 'stored'; readonly lastSequence: number }
  /** Someone else wrote the terminal (a reaper declared this producer lost, or a stopper): nothing more was written. */
  | { readonly status: 'fenced'; readonly error: RelayError }
  /** The log is gone (expired) or could not be written within the producer timeout. */
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * One response being relayed: pass it as the `relay` option of `consumeStream` or an HTTP client
 * (one stream per relay). `signal` aborts when the response is stopped (`stopResponse`, from any
 * process) or the relay is fenced out — the stream it records is then cancelled or failed, which
 * aborts the provider request. `done` settles (never rejects) once the log's terminal is stored,
 * or the relay could not store it.
 */
export interface Relay extends StreamRelay {
  readonly responseId: string;
  readonly signal: AbortSignal;
  readonly done: Promise<RelayEnd>;
}

function positiveOption(options: OpenRelayOptions, name: keyof OpenRelayOptions, fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`Expected ${name} to be a positive number, got ${describeValue(value)}`);
  return value;
}

/** The relay's whole state; `openRelay` returns it as a `Relay`. */
class ProducerRelay implements Relay {
  readonly signal: AbortSignal;
  readonly done: Promise<RelayEnd>;
  private readonly abort = new AbortController();
  private resolveDone!: (end: RelayEnd) => void;
  private readonly recorder: PartstreamRecorder;
  private readonly writer: BatchWriter;
  private stream: RecordedStream | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: ResponseStore,
    readonly responseId: string,
    options: OpenRelayOptions,
    limits: BatchLimits,
    retainMs: number,
    createdAt: string,
  ) {
    this.signal = this.abort.signal;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.writer = new BatchWriter(store, responseId, limits, {
      beforeFlush: () => this.recorder.checkMeta(),
      refused: (error) => this.refused(error),
      ended: (last) => this.ended(last, retainMs),
      failed: (error) => this.finish({ status: 'failed', error }),
      tooLargeData: () => this.tooLargeData(),
    });
    this.recorder = new PartstreamRecorder(this.writer, responseId, store.producerId, options.relayRawEvents === true);
    this.writer.emit('start', JSON.stringify({ v: 1, responseId, producerId: store.producerId, createdAt }));
    this.unsubscribe = store.subscribeStops(store.producerId, (id, request) => {
      if (id === responseId) this.stopped(request);
    });
  }

  recordStream(stream: RecordedStream): StreamRecorder {
    if (this.stream !== null) throw new TypeError(`Expected a relay that records no stream yet; relay ${this.responseId} already records one`);
    this.stream = stream;
    this.recorder.attach(stream);
    const recorder = this.recorder;
    if (this.signal.aborted) queueMicrotask(() => (recorder.fenced !== null ? stream.fail(recorder.fenced) : stream.cancel(this.signal.reason)));
    return recorder;
  }

  /** A stop was asked for (durably, in the store): cancel the stream, which ends the log with `cancelled`. */
  private stopped(request: StopRequest): void {
    if (this.writer.terminated || this.signal.aborted) return;
    this.recorder.stop = request;
    this.abort.abort(new StreamError('truncated', `Response ${this.responseId} was stopped by ${request.by}`, { code: 'stopped' }));
    if (this.stream !== null) this.stream.cancel(this.signal.reason);
    // No stream records through this relay (yet): the relay ends the log itself.
    else this.recorder.cancelled(request);
  }

  private refused(error: RelayError): void {
    const fenced = new StreamError(
      'truncated',
      `The relay of response ${this.responseId} was ${error.kind === 'fenced' ? 'fenced out (another writer ended its log, e.g. a viewer declared this producer lost)' : `lost (${error.message})`}`,
      { code: 'producer_fenced', cause: error },
    );
    this.recorder.fenced = fenced;
    if (!this.signal.aborted) this.abort.abort(fenced);
    this.stream?.fail(fenced);
    this.finish(error.kind === 'fenced' ? { status: 'fenced', error } : { status: 'failed', error });
  }

  private tooLargeData(): string {
    const data = {
      responseId: this.responseId,
      error: { kind: 'truncated', message: `The relay of response ${this.responseId} reached its maxResponseBytes and relays no more`, code: 'relay_too_large' },
      producerId: this.store.producerId,
      by: 'producer',
    };
    return JSON.stringify(data);
  }

  private ended(last: number, retainMs: number): void {
    this.store.retain(this.responseId, retainMs).catch(() => undefined);
    this.finish({ status: 'stored', lastSequence: last });
  }

  private finish(end: RelayEnd): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.resolveDone(end);
  }
}

const IDLE_EVENTS: BatchEvents = {
  beforeFlush: () => undefined,
  refused: () => undefined,
  ended: () => undefined,
  failed: () => undefined,
  tooLargeData: () => '{}',
};

/**
 * A recorder, its writer and the writer's batch, never used, kept for their hidden classes. V8
 * keeps the hidden class an instance reaches as its constructor sets its fields only while some
 * instance has it; once every relay's recorder and writer are garbage (between streams), a major
 * collection lets those classes go and throws away the code compiled for the per-token path, and
 * the next stream compiles it again. With these kept, a stream after an idle period runs compiled
 * code from its first tokens. A writer in use must keep the hidden class it started with: its
 * number fields that come to hold times start as times (test/relay/kept-shapes.test.ts).
 */
export const KEPT_SHAPES = new PartstreamRecorder(
  new BatchWriter(memoryStore(), 'idle', { flushMs: 20, flushCount: 64, flushBytes: 32_768, maxResponseBytes: 1, retryForMs: 5000 }, IDLE_EVENTS),
  'idle',
  'idle',
  false,
);

/**
 * Opens the relay of one response in `store` (SPEC §13): claims the id (a second producer of the
 * same id rejects with a `RelayError` of kind `conflict`) and writes its `start` event. Pass the
 * relay to `consumeStream` or an HTTP client as `{ relay }`: each input the response core takes
 * becomes the next event, encoded once and appended in batches (`flushMs`, `flushCount`,
 * `flushBytes`; the terminal at once), one fenced append per batch, serially, retried
 * idempotently. The handler's callbacks run exactly as without a relay.
 */
export async function openRelay(store: ResponseStore, options: OpenRelayOptions = {}): Promise<Relay> {
  if (store === null || typeof store !== 'object' || typeof store.append !== 'function') throw new TypeError(`Expected a ResponseStore, got ${describeValue(store)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`Expected openRelay options to be an object, got ${describeValue(options)}`);
  const responseId = options.responseId === undefined ? randomRelayId() : checkRelayId(options.responseId, 'responseId');
  const ttlMs = positiveOption(options, 'ttlMs', 86_400_000);
  const retainMs = positiveOption(options, 'retainMs', 600_000);
  const limits: BatchLimits = {
    flushMs: positiveOption(options, 'flushMs', 20),
    flushCount: positiveOption(options, 'flushCount', 64),
    flushBytes: positiveOption(options, 'flushBytes', 32_768),
    maxResponseBytes: positiveOption(options, 'maxResponseBytes', 64 * 2 ** 20),
    retryForMs: positiveOption(options, 'producerTimeoutMs', 5000),
  };
  const createdAt = new Date().toISOString();
  await store.open(responseId, { producerId: store.producerId, createdAt }, { ttlMs });
  return new ProducerRelay(store, responseId, options, limits, retainMs, createdAt);
}
