import type { DeltaType } from '../parts/part-index-counter';
import { EncodedBatch } from './encoded-batch';
import { EventBatch } from './event-batch';
import { jsonString } from './json-string';
import { encodeEvent, type RelayEventSink } from './partstream-encoder';
import { RelayError, type RelayBatch, type ResponseStore } from './response-store';

/** How a relay's batches are cut and retried. */
export interface BatchLimits {
  readonly flushMs: number;
  readonly flushCount: number;
  readonly flushBytes: number;
  /** The most text the relay writes for one response; past it the log ends with `relay_too_large`. */
  readonly maxResponseBytes: number;
  /** How long a failing append is retried (the same batch: appends are idempotent). */
  readonly retryForMs: number;
}

/** What the writer tells its relay. */
export interface BatchEvents {
  /** Called just before the waiting events are appended (the relay adds a `meta` event when the id or model changed). */
  beforeFlush(): void;
  /** The log refused the relay (`fenced`: a reaper or a stopper wrote its terminal) or lost it. */
  refused(error: RelayError): void;
  /** The terminal batch is stored (`last`: its sequence). */
  ended(last: number): void;
  /** The relay could not store a batch within `retryForMs`: it gave up. */
  failed(error: unknown): void;
  /** The data of the terminal `error` event that replaces the events past `maxResponseBytes`. */
  tooLargeData(): string;
}

/** What became of a failed append: try it again, the log now ends with `relay_too_large`, or the relay stops. */
type Recovery = 'retry' | 'replaced' | 'stop';

/** The most batches, and bytes, appended together when several wait (a store with `appendBatches`). */
const MAX_GROUP_BATCHES = 64;
const MAX_GROUP_BYTES = 1 << 20;

/** The fields a tool-call delta's opening is made of, and the opening. */
interface ToolDeltaOpening {
  readonly index: number;
  readonly call: number;
  readonly id: string | null;
  readonly name: string | null;
  readonly opening: string;
}
const NO_TOOL_DELTA: ToolDeltaOpening = { index: -1, call: -1, id: null, name: null, opening: '' };

const RESOLVED = Promise.resolve();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Numbers a relay's events 1, 2, 3 … (nothing is taken after the terminal), gathers them into
 * batches and appends them, one fenced append per batch, one at a time: a batch is cut `flushMs`
 * after its first event, at `flushCount` events or `flushBytes` of text (beyond its first event),
 * and at once for the terminal. Events are held raw (`EventBatch`) and a batch's SSE text is
 * written as UTF-8 in one pass when it is cut (an `EncodedBatch`: stores keep or send the bytes),
 * so that events waiting behind a slow store cost one byte array per batch rather than a string
 * per event. While an append is in flight the next
 * batches fill; when it lands, the full ones go out — together, in one `appendBatches` call, when
 * the store has one (each batch stays its own entry) — then the one being filled once its
 * `flushMs` is over (a stream faster than its store thus writes full batches in few round trips). A failed append is retried with the same
 * batch, with backoff, for up to `retryForMs`. Taking an event never waits and never does I/O:
 * the store is only awaited here, outside every callback.
 */
export class BatchWriter implements RelayEventSink {
  /** The sequence of the last event taken, and whether it was the terminal. */
  private sequence = 0;
  private ended = false;
  /** The opening of the last delta's event (one string per run: the batch encodes it once), and of the last tool-call delta's. */
  private deltaIndex = -1;
  private deltaType: DeltaType = 'text';
  private deltaOpening = '';
  private tool: ToolDeltaOpening = NO_TOOL_DELTA;
  /** The batch being filled. */
  private readonly batch = new EventBatch();
  /**
   * While the bound on the length of the batch's unmeasured events stays below this, no limit can
   * be reached by them (`flushBytes`, `maxResponseBytes`): they need not be measured yet.
   */
  private room = 0;
  /** Batches cut and not yet stored, from `head` on (while flushing, the one at `head` is in flight). */
  private ready: RelayBatch[] = [];
  private head = 0;
  /** How much text the batches cut hold in all. */
  private total = 0;
  /** No more events are written: the terminal was taken, the log refused us, or the size limit was reached. */
  private sealed = false;
  /** A flush is due at once (a microtask is queued). */
  private due = false;
  /**
   * When the first event of the batch being filled was taken (Date.now()). It starts as a time,
   * not 0: a field that holds only small integers and later a time changes the hidden class of
   * its object, and the writer kept for its shape (open-relay.ts) must have the one a writer in
   * use has.
   */
  private firstAt = Date.now();
  /** The `flushMs` of the batch being filled is over: it goes out with the next append. */
  private overdue = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing = false;

  constructor(
    private readonly store: ResponseStore,
    private readonly responseId: string,
    private readonly limits: BatchLimits,
    private readonly events: BatchEvents,
  ) {
    this.room = this.roomLeft();
  }

  /** True once the writer takes no more events. */
  get closed(): boolean {
    return this.sealed;
  }

  get last(): number {
    return this.sequence;
  }

  get terminated(): boolean {
    return this.ended;
  }

  delta(index: number, type: DeltaType, text: string): void {
    if (this.sealed) {
      if (!this.ended) this.sequence++;
      return;
    }
    const sequence = ++this.sequence;
    if (index !== this.deltaIndex || type !== this.deltaType) {
      this.deltaIndex = index;
      this.deltaType = type;
      this.deltaOpening = `\nevent: delta\ndata: {"index":${index},"type":"${type}","text":"`;
    }
    this.took(this.batch.framed(sequence, this.deltaOpening, text));
  }

  toolDelta(index: number, call: number, id: string | null, name: string | null, args: string): void {
    if (this.sealed) {
      if (!this.ended) this.sequence++;
      return;
    }
    const sequence = ++this.sequence;
    const tool = this.tool;
    if (index !== tool.index || call !== tool.call || id !== tool.id || name !== tool.name) {
      this.tool = {
        index,
        call,
        id,
        name,
        opening: `\nevent: tool-delta\ndata: {"index":${index},"call":${call},"id":${id === null ? 'null' : jsonString(id)},"name":${name === null ? 'null' : jsonString(name)},"arguments":"`,
      };
    }
    this.took(this.batch.framed(sequence, this.tool.opening, args));
  }

  emit(type: string, data: string, terminal = false): boolean {
    if (this.ended) return false;
    if (terminal) this.ended = true;
    const sequence = ++this.sequence;
    if (!this.sealed) {
      this.batch.event(sequence, type, data);
      this.place(terminal);
    }
    return true;
  }

  /**
   * The framed event just added, `count` events held (the per-token path). While the bound on the
   * batch's unmeasured events is within `room`, neither `flushBytes` nor `maxResponseBytes` is
   * reached and nothing is measured: the batch is cut at `flushCount`, its length counted as it is
   * written. Past `room`, `place` measures the batch and decides as ever.
   */
  private took(count: number): void {
    if (this.batch.bound >= this.room) {
      this.place(false);
    } else if (count >= this.limits.flushCount) {
      this.cutFilling(false);
      if (!this.flushing && !this.due) this.flushNow();
    } else if (count === 1) {
      this.began();
    }
  }

  /** The event just added to the batch being filled: measures the batch, cuts batches and schedules their appends. */
  private place(terminal: boolean): void {
    const limits = this.limits;
    const batch = this.batch;
    batch.settle();
    if (this.total + batch.length > limits.maxResponseBytes) {
      // The log ends here with relay_too_large; the local stream goes on without the relay.
      batch.dropLast();
      batch.event(this.sequence, 'error', this.events.tooLargeData());
      terminal = true;
    }
    if (batch.count > 1 && batch.length > limits.flushBytes) this.cutFilling(false, true);
    if (terminal) {
      this.sealed = true;
      this.stopTimer();
      this.cutFilling(true);
    } else {
      if (batch.count === 1) this.began();
      if (batch.count >= limits.flushCount || batch.length >= limits.flushBytes) this.cutFilling(false);
    }
    if (this.head < this.ready.length && !this.flushing && !this.due) this.flushNow();
    this.room = this.roomLeft();
  }

  /**
   * How far the bound on the unmeasured events may go while no limit can be reached: the
   * batch stays within `flushBytes` and the response within `maxResponseBytes`.
   */
  private roomLeft(): number {
    const { flushBytes, maxResponseBytes } = this.limits;
    const length = this.batch.length;
    return Math.min(flushBytes - length, maxResponseBytes - this.total - length + 1);
  }

  /** The batch being filled took its first event: its `flushMs` starts now (the timer runs until no event waits). */
  private began(): void {
    this.firstAt = Date.now();
    if (this.timer === null) this.startTimer(this.limits.flushMs);
  }

  /** Stops writing: nothing waiting or taken from now on is appended. */
  private seal(): void {
    this.sealed = true;
    this.batch.clear();
    this.ready = [];
    this.head = 0;
    this.stopTimer();
  }

  /** Cuts the batch being filled (but its last event, with `allButLast`) into the ready queue. */
  private cutFilling(terminal: boolean, allButLast = false): void {
    const batch = this.batch;
    const first = batch.first;
    const bytes = batch.cut(allButLast);
    this.total += batch.cutLength;
    this.ready.push(new EncodedBatch(first, batch.first - 1, terminal, bytes));
    this.overdue = false;
    this.room = this.roomLeft();
  }

  /**
   * One timer serves every batch: it is not cleared when a batch is cut early (that would cost a
   * timer per batch); when it fires it checks the age of the batch being filled now, and waits
   * for the rest of that batch's `flushMs` if it is younger.
   */
  private startTimer(delay: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.batch.count === 0 || this.sealed) return;
      const left = this.firstAt + this.limits.flushMs - Date.now();
      if (left > 0) {
        this.startTimer(left);
        return;
      }
      this.overdue = true;
      void this.flush();
    }, delay);
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * A microtask, not a timer: the terminal and a full batch go out at once, yet after the
   * callback that cut them has returned (the relay never works inside a callback).
   */
  private flushNow(): void {
    this.due = true;
    void RESOLVED.then(() => {
      this.due = false;
      void this.flush();
    });
  }

  /** Appends the batches cut, in order, and the one being filled once its `flushMs` is over, until none waits. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (;;) {
        if (this.head === this.ready.length && !this.overdue) return;
        // The relay adds a meta event when the id or model changed (to the batch being filled, or cutting a full one).
        if (!this.sealed) this.events.beforeFlush();
        if (this.overdue && this.batch.count > 0) this.cutFilling(false);
        this.overdue = false;
        if (this.head === this.ready.length) return;
        // Several batches wait (the store is slower than the stream): one round trip for all of them.
        if (this.head + 1 < this.ready.length && this.store.appendBatches !== undefined) {
          const group = await this.appendGroup();
          if (group === 'ended') return;
          if (group === 'stored') continue;
        }
        const batch = this.ready[this.head] as RelayBatch;
        const giveUpAt = Date.now() + this.limits.retryForMs;
        try {
          await this.store.append(this.responseId, batch);
        } catch (error) {
          if (!(await this.retry(batch, error, giveUpAt))) {
            // The relay stopped (nothing waits), or relay_too_large now waits in place of the batch.
            if (this.head === this.ready.length) return;
            continue;
          }
        }
        this.taken();
        if (batch.terminal) {
          this.events.ended(batch.last);
          return;
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Appends the batches waiting from `head` on (up to `MAX_GROUP_BATCHES` and `MAX_GROUP_BYTES`)
   * with the store's `appendBatches`: `stored`, or `ended` when the last was the terminal; `failed`
   * leaves them waiting (some may be stored): the caller then appends the batch at `head` on its
   * own, retried and resolved as stored when it is, which also meets the failure's cause.
   */
  private async appendGroup(): Promise<'stored' | 'ended' | 'failed'> {
    const { ready, head } = this;
    let end = head;
    let bytes = 0;
    while (end < ready.length && end - head < MAX_GROUP_BATCHES) {
      const batch = ready[end] as RelayBatch;
      bytes += batch.bytes?.length ?? batch.text.length;
      if (end > head && bytes > MAX_GROUP_BYTES) break;
      end++;
    }
    const group = ready.slice(head, end);
    try {
      await (this.store.appendBatches as NonNullable<ResponseStore['appendBatches']>)(this.responseId, group);
    } catch {
      return 'failed';
    }
    for (let k = 0; k < group.length; k++) this.taken();
    const last = group[group.length - 1] as RelayBatch;
    if (!last.terminal) return 'stored';
    this.events.ended(last.last);
    return 'ended';
  }

  /** The batch at `head` is stored: let go of it (and now and then of the stored ones before it). */
  private taken(): void {
    const head = ++this.head;
    if (head === this.ready.length) {
      this.ready = [];
      this.head = 0;
    } else if (head >= 1024 && head * 2 >= this.ready.length) {
      this.ready = this.ready.slice(head);
      this.head = 0;
    }
  }

  /**
   * Retries `batch` after its append failed with `error`, with backoff, until `giveUpAt`. True
   * once it is stored; false when the ready queue now ends the log with `relay_too_large` in its
   * place, or when the relay stopped (the queue is then empty).
   */
  private async retry(batch: RelayBatch, error: unknown, giveUpAt: number): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const recovery = this.recover(batch, error, giveUpAt);
      if (recovery !== 'retry') return false;
      await sleep(Math.min(1000, 25 * 2 ** attempt));
      try {
        await this.store.append(this.responseId, batch);
        return true;
      } catch (again) {
        error = again;
      }
    }
  }

  /** What a failed append of `batch` leads to (`replaced` and `stop` have already reset the queue). */
  private recover(batch: RelayBatch, error: unknown, giveUpAt: number): Recovery {
    if (RelayError.isInstance(error) && (error.kind === 'fenced' || error.kind === 'lost' || error.kind === 'closed')) {
      this.seal();
      this.events.refused(error);
      return 'stop';
    }
    if (RelayError.isInstance(error) && error.kind === 'too-large' && !batch.terminal) {
      // The store's own bound: the log ends with relay_too_large in place of this batch.
      this.seal();
      this.ready = [Object.freeze({ first: batch.first, last: batch.first, terminal: true, text: encodeEvent(batch.first, 'error', this.events.tooLargeData()) })];
      return 'replaced';
    }
    if (Date.now() >= giveUpAt) {
      this.seal();
      this.events.failed(error);
      return 'stop';
    }
    return 'retry';
  }
}
