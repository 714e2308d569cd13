/** How a guarded wait ended. */
export type Guarded<T> =
  | { readonly type: 'value'; readonly value: T }
  | { readonly type: 'error'; readonly error: unknown }
  | { readonly type: 'stopped' }
  | { readonly type: 'timeout' };

const STOPPED: Guarded<never> = Object.freeze({ type: 'stopped' });
const TIMEOUT: Guarded<never> = Object.freeze({ type: 'timeout' });

/**
 * Waits on a stream's transport (the request, each read) while watching two other ways out: the
 * stream's cancel signal and an idle timeout, restarted by `touch()` whenever bytes arrive. One
 * wait at a time. Holding a single resolver (rather than racing against a long-lived promise)
 * keeps a long stream from piling up reactions, one per read.
 */
export class StreamGuard {
  private settle: ((outcome: Guarded<never>) => void) | null = null;
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private paused = false;
  private readonly onAbort = (): void => this.interrupt(STOPPED);

  constructor(
    private readonly signal: AbortSignal,
    private readonly idleTimeoutMs: number | undefined,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
    if (idleTimeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        // Paused: the handler is still working; `resume()` starts the wait afresh.
        if (this.paused) return;
        this.expired = true;
        this.interrupt(TIMEOUT);
      }, idleTimeoutMs);
    }
  }

  /** True once the idle timeout fired. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Restarts the idle timeout (bytes arrived). */
  touch(): void {
    this.timer?.refresh();
  }

  /** Holds the idle timeout while the handler's async callbacks run (their time never counts). */
  pause(): void {
    this.paused = true;
  }

  /** Ends `pause()`: the idle timeout starts again from now. */
  resume(): void {
    this.paused = false;
    this.timer?.refresh();
  }

  /** Settles with the promise's value or error, or earlier with `stopped` / `timeout`. */
  wait<T>(promise: Promise<T>): Promise<Guarded<T>> {
    if (this.signal.aborted || this.expired) {
      // Nobody waits for this promise any more; a late failure of it must not go unhandled.
      promise.catch(() => undefined);
      return Promise.resolve(this.expired ? TIMEOUT : STOPPED);
    }
    return new Promise<Guarded<T>>((resolve) => {
      let done = false;
      const finish = (outcome: Guarded<T>): void => {
        if (done) return;
        done = true;
        this.settle = null;
        resolve(outcome);
      };
      this.settle = finish;
      promise.then(
        (value) => finish({ type: 'value', value }),
        (error: unknown) => finish({ type: 'error', error }),
      );
    });
  }

  /** Stops the timer and the signal listener (idempotent). */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.signal.removeEventListener('abort', this.onAbort);
    this.settle = null;
  }

  private interrupt(outcome: Guarded<never>): void {
    this.settle?.(outcome);
  }
}
