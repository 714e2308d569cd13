/**
 * A push/pull queue between synchronous producers (event listeners) and one `for await`
 * consumer: `push` never blocks (values are buffered until read), `end` lets the consumer drain
 * what is buffered and then finish. One pending `next()` at a time, as `for await` does.
 * `push` reports when the buffer reached its high-water mark; `belowLowWater()` then tells the
 * producer when the consumer has caught up.
 * @internal
 */
export class AsyncQueue<T> {
  private buffer: (T | undefined)[] = [];
  private head = 0;
  private ended = false;
  private waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;
  private caughtUp: Promise<void> | null = null;
  private resolveCaughtUp: (() => void) | null = null;

  /**
   * @param highWaterMark `push` returns true once this many values are buffered.
   * @param lowWaterMark `belowLowWater()` resolves once the consumer has read the buffer down to this many.
   */
  constructor(
    private readonly highWaterMark = Infinity,
    private readonly lowWaterMark = 0,
  ) {}

  /** How many values are buffered, unread. */
  get size(): number {
    return this.buffer.length - this.head;
  }

  /**
   * Delivers `value` to a waiting `next()`, or buffers it; ignored once ended. True when the
   * buffer has reached the high-water mark (the producer should wait for `belowLowWater()`).
   */
  push(value: T): boolean {
    if (this.ended) return false;
    const waiting = this.waiting;
    if (waiting !== null) {
      this.waiting = null;
      waiting({ value, done: false });
      return false;
    }
    this.buffer.push(value);
    return this.buffer.length - this.head >= this.highWaterMark;
  }

  /** Resolves once at most the low-water mark is buffered, or the queue ended; never rejects. */
  belowLowWater(): Promise<void> {
    if (this.size <= this.lowWaterMark || this.ended) return Promise.resolve();
    if (this.caughtUp === null) {
      this.caughtUp = new Promise<void>((resolve) => {
        this.resolveCaughtUp = resolve;
      });
    }
    return this.caughtUp;
  }

  /**
   * No more values: buffered ones are still read, then `next()` reports done. A producer waiting
   * for `belowLowWater()` goes on (it has nothing more to push).
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.caughtUpNow();
    const waiting = this.waiting;
    if (waiting !== null) {
      this.waiting = null;
      waiting({ value: undefined, done: true });
    }
  }

  /** Drops what is buffered and ends. */
  clear(): void {
    this.buffer = [];
    this.head = 0;
    this.end();
  }

  /** The next value, waiting for one when the buffer is empty. */
  next(): Promise<IteratorResult<T, undefined>> {
    const buffer = this.buffer;
    if (this.head < buffer.length) {
      const value = buffer[this.head] as T;
      // Let go of the value at once; a consumer that lags must not keep what it already read.
      buffer[this.head++] = undefined;
      const size = buffer.length - this.head;
      if (size === 0) {
        // Reset instead of shifting, so a consumer that lags behind never costs O(n) per read.
        this.buffer = [];
        this.head = 0;
      } else if (this.head >= 1024 && this.head >= size) {
        // A buffer that never empties (the producer refills it as the consumer reads) is compacted
        // now and then, so its dead head does not grow with the stream; amortised O(1) per read.
        this.buffer = buffer.slice(this.head);
        this.head = 0;
      }
      if (this.resolveCaughtUp !== null && size <= this.lowWaterMark) this.caughtUpNow();
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  private caughtUpNow(): void {
    const resolve = this.resolveCaughtUp;
    this.caughtUp = null;
    this.resolveCaughtUp = null;
    resolve?.();
  }
}
