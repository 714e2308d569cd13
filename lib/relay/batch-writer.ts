import type { EncodedEventSink } from './partstream-encoder';
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
  /** Called just before a batch is cut (the relay adds a `meta` event when the id or model changed). */
  beforeFlush(): void;
  /** The log refused the relay (`fenced`: a reaper or a stopper wrote its terminal) or lost it. */
  refused(error: RelayError): void;
  /** The terminal batch is stored (`last`: its sequence). */
  ended(last: number): void;
  /** The relay could not store a batch within `retryForMs`: it gave up. */
  failed(error: unknown): void;
  /** The terminal `error` event that replaces the events past `maxResponseBytes`, with sequence `sequence`. */
  tooLargeEvent(sequence: number): string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Gathers a relay's encoded events into batches and appends them, one fenced append per batch,
 * one at a time (the next batch fills while one is in flight): a batch is cut `flushMs` after its
 * first event, at `flushCount` events or `flushBytes` of text, and at once for the terminal. A
 * failed append is retried with the same batch, with backoff, for up to `retryForMs`. Taking an
 * event never waits and never does I/O: the store is only awaited here, outside every callback.
 */
export class BatchWriter implements EncodedEventSink {
  /** The events taken and not yet cut into a batch: `texts` from `head` on, from sequence `first` on. */
  private texts: string[] = [];
  private head = 0;
  private first = 0;
  /** A flush is due at once (a microtask is queued). */
  private due = false;
  /** The last of `texts` is the terminal event. */
  private terminal = false;
  /** How many events and how much text wait in `texts`. */
  private bytes = 0;
  private total = 0;
  /** No more events are written: the terminal was taken, the log refused us, or the size limit was reached. */
  private sealed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing = false;

  constructor(
    private readonly store: ResponseStore,
    private readonly responseId: string,
    private readonly limits: BatchLimits,
    private readonly events: BatchEvents,
  ) {}

  /** True once the writer takes no more events. */
  get closed(): boolean {
    return this.sealed;
  }

  event(sequence: number, text: string, terminal: boolean): void {
    if (this.sealed) return;
    if (this.total + text.length > this.limits.maxResponseBytes) {
      // The log ends here with relay_too_large; the local stream goes on without the relay.
      text = this.events.tooLargeEvent(sequence);
      terminal = true;
    }
    const texts = this.texts;
    if (texts.length === this.head) this.first = sequence;
    texts.push(text);
    this.bytes += text.length;
    this.total += text.length;
    if (terminal) {
      this.terminal = true;
      this.sealed = true;
    }
    if (this.due) return;
    if (terminal || texts.length - this.head >= this.limits.flushCount || this.bytes >= this.limits.flushBytes) this.flushSoon(0);
    else if (this.timer === null) this.flushSoon(this.limits.flushMs);
  }

  /** Stops writing: nothing taken from now on is appended (the relay was refused). */
  seal(): void {
    this.sealed = true;
    this.texts = [];
    this.head = 0;
    this.bytes = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private flushSoon(delay: number): void {
    if (delay > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, delay);
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.due = true;
    // A microtask, not a timer: the terminal and a full batch go out at once, yet after the
    // callback that made them has returned (the relay never works inside a callback).
    queueMicrotask(() => {
      this.due = false;
      void this.flush();
    });
  }

  /** How many events wait to be cut. */
  private get waiting(): number {
    return this.texts.length - this.head;
  }

  /** The next batch: at most `flushCount` events and (beyond its first event) `flushBytes` of text. */
  private cut(): RelayBatch {
    const texts = this.texts;
    const head = this.head;
    const waiting = texts.length - head;
    let count = 0;
    let size = 0;
    while (count < waiting && count < this.limits.flushCount && (count === 0 || size + (texts[head + count] as string).length <= this.limits.flushBytes)) {
      size += (texts[head + count] as string).length;
      count++;
    }
    const all = count === waiting;
    const text = count === 1 ? (texts[head] as string) : texts.slice(head, head + count).join('');
    const batch: RelayBatch = Object.freeze({ first: this.first, last: this.first + count - 1, terminal: all && this.terminal, text });
    if (all) {
      this.texts = [];
      this.head = 0;
      this.terminal = false;
    } else {
      this.head = head + count;
      // Let go of the cut texts now and then (never per cut: that would copy the queue each time).
      if (this.head >= 4096 && this.head * 2 >= texts.length) {
        this.texts = texts.slice(this.head);
        this.head = 0;
      }
    }
    this.first += count;
    this.bytes -= size;
    return batch;
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.waiting > 0) {
        if (!this.terminal) this.events.beforeFlush();
        const batch = this.cut();
        if (!(await this.append(batch))) return;
        if (batch.terminal) {
          this.events.ended(batch.last);
          return;
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Appends `batch`, retrying the same batch on a store failure; false when the relay must stop. */
  private async append(batch: RelayBatch): Promise<boolean> {
    const giveUpAt = Date.now() + this.limits.retryForMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.store.append(this.responseId, batch);
        return true;
      } catch (error) {
        if (RelayError.isInstance(error) && (error.kind === 'fenced' || error.kind === 'lost' || error.kind === 'closed')) {
          this.seal();
          this.events.refused(error);
          return false;
        }
        if (RelayError.isInstance(error) && error.kind === 'too-large' && !batch.terminal) {
          // The store's own bound: the log ends with relay_too_large in place of this batch.
          this.texts = [this.events.tooLargeEvent(batch.first)];
          this.head = 0;
          this.first = batch.first;
          this.terminal = true;
          this.sealed = true;
          return true;
        }
        if (Date.now() >= giveUpAt) {
          this.seal();
          this.events.failed(error);
          return false;
        }
        await sleep(Math.min(1000, 25 * 2 ** attempt));
      }
    }
  }
}
