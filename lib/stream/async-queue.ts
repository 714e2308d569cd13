/**
 * A push/pull queue between synchronous producers (event listeners) and one `for await`
 * consumer: `push` never blocks (values are buffered until read), `end` lets the consumer drain
 * what is buffered and then finish. One pending `next()` at a time, as `for await` does.
 * @internal
 */
export class AsyncQueue<T> {
  private buffer: T[] = [];
  private head = 0;
  private ended = false;
  private waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;

  /** Delivers `value` to a waiting `next()`, or buffers it; ignored once ended. */
  push(value: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting !== null) {
      this.waiting = null;
      waiting({ value, done: false });
      return;
    }
    this.buffer.push(value);
  }

  /** No more values: buffered ones are still read, then `next()` reports done. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
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
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head++];
      // Reset instead of shifting, so a consumer that lags behind never costs O(n) per read.
      if (this.head === this.buffer.length) {
        this.buffer = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}
