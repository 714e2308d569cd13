/**
 * How a wait on the transport was interrupted: its promise failed (`error`), the stream was
 * cancelled (`stopped`), the wait outlasted the idle timeout (`idle`) or the whole stream its
 * deadline (`deadline`).
 */
export type Interrupted = { readonly type: 'error'; readonly error: unknown } | { readonly type: 'stopped' } | { readonly type: 'idle' } | { readonly type: 'deadline' };

/** A wait's promise failed with `error`. */
export function failedWait(error: unknown): Interrupted {
  return Object.freeze({ type: 'error', error });
}

/** The two limits a `StreamGuard` watches, in milliseconds; each off when absent. */
export interface GuardLimits {
  /** The longest a single wait on the transport may take. */
  readonly idleTimeoutMs?: number | undefined;
  /** The longest the whole stream may take, counted from the guard's creation. */
  readonly timeoutMs?: number | undefined;
}

const STOPPED: Interrupted = Object.freeze({ type: 'stopped' });
const IDLE: Interrupted = Object.freeze({ type: 'idle' });
const DEADLINE: Interrupted = Object.freeze({ type: 'deadline' });

/** A monotonic clock (a wall-clock step must not fire or stretch a timeout); browsers have it too. */
const now = (): number => performance.now();

/**
 * Watches a stream's waits on its transport (the request, each read) for three ways out: the
 * stream's cancel (`stop()`), an idle timeout and a deadline. The idle timeout runs only while a
 * wait is pending and starts from zero at each wait, so time spent between waits (inside the
 * handler's callbacks) never counts; the deadline runs from the guard's creation whatever happens.
 * An interruption is final: the first one is kept, and every later wait ends at once with it.
 *
 * The guard never wraps the transport's promises (a promise and a reaction per read would be most
 * of what a read costs). The reader awaits the transport itself between `begin()` and `end()`;
 * an interruption that comes while it waits settles `interrupted`, which the reader's owner races
 * against the reading, and `end()` then tells the reader to drop what it got and stop.
 */
export class StreamGuard {
  /** Settles with the interruption that came while a wait was pending (never otherwise). */
  readonly interrupted: Promise<Interrupted>;
  private wake: ((outcome: Interrupted) => void) | null = null;
  private readonly idleTimeoutMs: number | undefined;
  /** `performance.now()` past which the deadline is reached; Infinity when there is none. */
  private readonly deadlineAt: number;
  /** Whether a wait reads the clock at all (a limit is set). */
  private readonly clocked: boolean;
  /** The interruption, once there is one. */
  private reason: Interrupted | null = null;
  /** True while a wait is pending (between `begin` and `end`). */
  private waiting = false;
  /** True once `interrupted` settled. */
  private woke = false;
  /** When the pending wait started, or -1 between waits. */
  private waitStart = -1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  /** The idle timer's callback, made at the first timer (a stream without an idle timeout holds none). */
  private onIdleTimer: (() => void) | null = null;

  constructor(limits: GuardLimits = {}) {
    this.interrupted = new Promise((resolve) => {
      this.wake = resolve;
    });
    this.idleTimeoutMs = limits.idleTimeoutMs;
    const timeoutMs = limits.timeoutMs;
    this.clocked = this.idleTimeoutMs !== undefined || timeoutMs !== undefined;
    this.deadlineAt = timeoutMs === undefined ? Infinity : now() + timeoutMs;
    if (timeoutMs !== undefined) this.deadlineTimer = setTimeout(() => this.interrupt(DEADLINE), timeoutMs);
  }

  /**
   * A wait starts: null, or the interruption already reached (then there is nothing to wait
   * for). After null, call `end()` once the awaited promise settles, whichever way.
   */
  begin(): Interrupted | null {
    if (this.clocked && this.reason === null) {
      const start = now();
      // Checked here too, not only by the timer: reads that resolve without yielding to the event
      // loop would otherwise keep the deadline timer from ever running.
      if (start >= this.deadlineAt) this.interrupt(DEADLINE);
      this.waitStart = start;
      // The idle timer is re-armed lazily: one left running from an earlier wait checks, when it
      // fires, how long the current wait has lasted (a timer per read would cost on every token).
      if (this.idleTimeoutMs !== undefined && this.idleTimer === undefined) this.idleTimer = setTimeout((this.onIdleTimer ??= () => this.idleTimerFired()), this.idleTimeoutMs);
    }
    if (this.reason !== null) {
      this.waitStart = -1;
      return this.reason;
    }
    this.waiting = true;
    return null;
  }

  /**
   * The awaited promise settled. True when the wait was interrupted first (the interruption went
   * to `interrupted`): the reader drops what it got and stops.
   */
  end(): boolean {
    this.waiting = false;
    this.waitStart = -1;
    return this.woke;
  }

  /** The stream was cancelled: a pending wait ends with `stopped`, and so does every later one (idempotent). */
  stop(): void {
    this.interrupt(STOPPED);
  }

  /** Stops the timers (idempotent). */
  dispose(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.deadlineTimer);
    this.idleTimer = undefined;
    this.deadlineTimer = undefined;
  }

  private idleTimerFired(): void {
    this.idleTimer = undefined;
    const idleTimeoutMs = this.idleTimeoutMs;
    // Between waits nothing is timed; the next wait arms a timer again.
    if (this.waitStart < 0 || idleTimeoutMs === undefined || this.reason !== null) return;
    const remaining = idleTimeoutMs - (now() - this.waitStart);
    if (remaining <= 0) this.interrupt(IDLE);
    else this.idleTimer = setTimeout(this.onIdleTimer as () => void, remaining);
  }

  /** Records the first interruption, and tells it at once when a wait is pending. */
  private interrupt(outcome: Interrupted): void {
    if (this.reason !== null) return;
    this.reason = outcome;
    this.waitStart = -1;
    const wake = this.wake;
    if (!this.waiting || wake === null) return;
    this.wake = null;
    this.woke = true;
    wake(outcome);
  }
}
