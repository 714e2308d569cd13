/**
 * How a guarded wait ended without its promise's value: its promise failed (`error`), the stream
 * was cancelled (`stopped`), the wait outlasted the idle timeout (`idle`) or the whole stream its
 * deadline (`deadline`).
 */
export type Interrupted =
  | { readonly type: 'error'; readonly error: unknown }
  | { readonly type: 'stopped' }
  | { readonly type: 'idle' }
  | { readonly type: 'deadline' };

/** How a guarded wait ended: with its promise's value, or interrupted. */
export type Guarded<T> = { readonly type: 'value'; readonly value: T } | Interrupted;

/**
 * Every `Interrupted` a guard hands out is one of these (a class no value from a transport can be
 * an instance of), so a wait answers with the value itself and `isInterrupted` tells the two apart.
 */
class Interruption {
  constructor(
    readonly type: Interrupted['type'],
    readonly error: unknown = undefined,
  ) {
    Object.freeze(this);
  }
}

/** True when a guarded wait was interrupted rather than given its promise's value. */
export function isInterrupted(outcome: unknown): outcome is Interrupted {
  return outcome instanceof Interruption;
}

/** The two limits a `StreamGuard` watches, in milliseconds; each off when absent. */
export interface GuardLimits {
  /** The longest a single wait on the transport may take. */
  readonly idleTimeoutMs?: number | undefined;
  /** The longest the whole stream may take, counted from the guard's creation. */
  readonly timeoutMs?: number | undefined;
}

const STOPPED = new Interruption('stopped') as Interrupted;
const IDLE = new Interruption('idle') as Interrupted;
const DEADLINE = new Interruption('deadline') as Interrupted;

/** A monotonic clock (a wall-clock step must not fire or stretch a timeout); browsers have it too. */
const now = (): number => performance.now();

/**
 * Waits on a stream's transport (the request, each read) while watching three other ways out: the
 * stream's cancel (`stop()`), an idle timeout and a deadline. The idle timeout runs only while a
 * wait is pending and starts from zero at each wait, so time the caller spends between waits
 * (inside the handler's callbacks) never counts; the deadline runs from the guard's creation
 * whatever happens. Once a limit is reached or the guard is stopped, every later wait ends at once
 * with it. One wait at a time. Holding a single resolver (rather than racing against a long-lived
 * promise) keeps a long stream from piling up reactions, one per read; the reactions are made once
 * per guard, so a wait costs one promise and one reaction.
 */
export class StreamGuard {
  private settle: ((outcome: unknown) => void) | null = null;
  private readonly idleTimeoutMs: number | undefined;
  /** `performance.now()` past which the deadline is reached; Infinity when there is none. */
  private readonly deadlineAt: number;
  /** Whether a wait reads the clock at all (a limit is set). */
  private readonly clocked: boolean;
  /** True once the stream was cancelled. */
  private stopped = false;
  /** When the pending wait started, or -1 between waits. */
  private waitStart = -1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  /** The limit that was reached (`idle` or `deadline`), once one was. */
  private expired: Interrupted | null = null;
  private readonly onIdleTimer = (): void => this.idleTimerFired();
  private readonly take = (resolve: (outcome: unknown) => void): void => {
    this.settle = resolve;
  };
  // Made once: a promise that settles after its wait was interrupted finds no wait to end, since
  // an interruption (a cancel, a limit) is final and every later wait ends without one.
  private readonly onValue = (value: unknown): void => this.interrupt(value);
  private readonly onError = (error: unknown): void => this.interrupt(new Interruption('error', error));

  constructor(limits: GuardLimits = {}) {
    this.idleTimeoutMs = limits.idleTimeoutMs;
    const timeoutMs = limits.timeoutMs;
    this.clocked = this.idleTimeoutMs !== undefined || timeoutMs !== undefined;
    this.deadlineAt = timeoutMs === undefined ? Infinity : now() + timeoutMs;
    if (timeoutMs !== undefined) this.deadlineTimer = setTimeout(() => this.expire(DEADLINE), timeoutMs);
  }

  /**
   * Settles with the promise's value, or with an `Interrupted` (see `isInterrupted`): its error, or
   * earlier `stopped`, `idle` or `deadline`. The value itself, not wrapped: a read costs nothing more.
   */
  wait<T>(promise: Promise<T>): Promise<T | Interrupted> {
    if (this.clocked && this.expired === null) {
      const start = now();
      // Checked here too, not only by the timer: reads that resolve without yielding to the event
      // loop would otherwise keep the deadline timer from ever running.
      if (start >= this.deadlineAt) this.expire(DEADLINE);
      this.waitStart = start;
      // The idle timer is re-armed lazily: one left running from an earlier wait checks, when it
      // fires, how long the current wait has lasted (a timer per read would cost on every token).
      if (this.idleTimeoutMs !== undefined && this.idleTimer === undefined) this.idleTimer = setTimeout(this.onIdleTimer, this.idleTimeoutMs);
    }
    if (this.stopped || this.expired !== null) {
      this.waitStart = -1;
      // Nobody waits for this promise any more; a late failure of it must not go unhandled.
      promise.catch(() => undefined);
      return Promise.resolve(this.expired ?? STOPPED);
    }
    const outcome = new Promise<unknown>(this.take);
    promise.then(this.onValue, this.onError);
    return outcome as Promise<T | Interrupted>;
  }

  /** The stream was cancelled: the pending wait ends with `stopped`, and so does every later one (idempotent). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.interrupt(STOPPED);
  }

  /** Stops the timers (idempotent). */
  dispose(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.deadlineTimer);
    this.idleTimer = undefined;
    this.deadlineTimer = undefined;
    this.settle = null;
  }

  private idleTimerFired(): void {
    this.idleTimer = undefined;
    const idleTimeoutMs = this.idleTimeoutMs;
    // Between waits nothing is timed; the next wait arms a timer again.
    if (this.waitStart < 0 || idleTimeoutMs === undefined || this.expired !== null) return;
    const remaining = idleTimeoutMs - (now() - this.waitStart);
    if (remaining <= 0) this.expire(IDLE);
    else this.idleTimer = setTimeout(this.onIdleTimer, remaining);
  }

  private expire(limit: Interrupted): void {
    if (this.expired !== null) return;
    this.expired = limit;
    this.interrupt(limit);
  }

  /** Ends the pending wait (if any) with `outcome`. */
  private interrupt(outcome: unknown): void {
    const settle = this.settle;
    if (settle === null) return;
    this.settle = null;
    this.waitStart = -1;
    settle(outcome);
  }
}
