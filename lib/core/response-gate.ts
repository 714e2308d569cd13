import type { StreamingHandle } from '../handler/types';

/** Where one response's run stands: open until it completes, fails or is cancelled. */
export type RunStatus = 'open' | 'completed' | 'failed' | 'cancelled';

/**
 * What a `ResponseCore` asks of the run it belongs to: whether it still takes input, and whether
 * a terminal callback may pass. One record per run: a standalone core or bridge owns a
 * `ResponseGate`; inside a driven stream the driver's run state is the gate, so the chain keeps
 * no second record of its end.
 */
export interface RunGate {
  /** Where the run stands. */
  readonly status: RunStatus;
  /** Takes `handle` as the run's handle for good (a gate whose cancel is recorded elsewhere ignores it). */
  bind(handle: StreamingHandle): void;
  /** True while the run takes input: not ended and not cancelled (`handle`: a callback context's, for a gate with none bound). */
  admits(handle?: StreamingHandle): boolean;
  /**
   * A terminal callback (`status`) is about to be forwarded: true when it may pass (the run was
   * open). A gate that owns its record ends the run here; one whose terminal is decided further
   * down the chain only answers.
   */
  passTerminal(status: 'completed' | 'failed'): boolean;
}

/**
 * The gate of a response run outside a driver (a standalone `PartsBridge` or `ResponseCore`):
 * its terminal state, in one place: open, then exactly one of completed,
 * failed or cancelled, never back. A cancel is read from the stream's handle — the one bound with
 * `bind`, else the last one a caller passed to `admits` — at most once per `admits` or `end`
 * call, and kept once seen, so a cancelled run never asks the handle again.
 */
export class ResponseGate implements RunGate {
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
  passTerminal(status: 'completed' | 'failed'): boolean {
    if (!this.admits()) return false;
    this.current = status;
    return true;
  }
}
