import type { StreamingHandle } from '../handler/types';

/** Where one response's run stands: open until it completes, fails or is cancelled. */
export type RunStatus = 'open' | 'completed' | 'failed' | 'cancelled';

/**
 * The bridge's gate on one response (`PartsBridge` stays safe without a driver, and the driver's
 * `RunState` decides for the whole chain when there is one): its terminal state, in one place: open, then exactly one of completed,
 * failed or cancelled, never back. A cancel is read from the stream's handle — the one bound with
 * `bind`, else the last one a caller passed to `admits` — at most once per `admits` or `end`
 * call, and kept once seen, so a cancelled run never asks the handle again.
 */
export class ResponseGate {
  private current: RunStatus = 'open';
  private handle: StreamingHandle | null = null;
  private bound = false;

  /** The run's status, asking the handle whether it was cancelled while the run is open. */
  get status(): RunStatus {
    this.admits();
    return this.current;
  }

  /** Takes `handle` as the run's handle for good: the handles callers pass to `admits` are then ignored. */
  bind(handle: StreamingHandle): void {
    this.handle = handle;
    this.bound = true;
  }

  /**
   * True while the run is open: not ended and not cancelled. `handle` (a callback context's) is
   * taken as the run's handle unless one was bound. The one cancel check of a callback.
   */
  admits(handle?: StreamingHandle): boolean {
    if (this.current !== 'open') return false;
    if (handle !== undefined && !this.bound) this.handle = handle;
    const current = this.handle;
    if (current !== null && current.isCancelled()) {
      this.current = 'cancelled';
      return false;
    }
    return true;
  }

  /** Ends the open run as `status`; false (and nothing changes) when it had already ended or was cancelled. */
  end(status: 'completed' | 'failed'): boolean {
    if (!this.admits()) return false;
    this.current = status;
    return true;
  }
}
