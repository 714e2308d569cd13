import type { RunGate, RunStatus } from '../core/response-gate';

export type { RunStatus } from '../core/response-gate';

/**
 * The one record of where a stream stands, which every part of the driver consults: the
 * controller sets `cancelled`, the safe handler decides the terminal callback, the run marks the
 * source's end, and the bridge's core takes it as its gate (`RunGate`: it asks `admits` and
 * `passTerminal`, and the safe handler it forwards to ends the run). `open` — no terminal callback decided and not cancelled — is a plain field, so
 * asking "may this token still be delivered?" costs one read.
 *
 * A terminal callback decided while earlier callbacks' promises are pending waits in a queue
 * (`terminalPending`): a cancel before it is delivered makes the stream `cancelled` after all.
 */
export class RunState implements RunGate {
  private isOpen = true;
  private isCancelled = false;
  private terminal: 'completed' | 'failed' | null = null;
  private pending = false;
  private error: Error | null = null;
  private ended = false;

  /** True while callbacks are accepted: no terminal callback decided yet and not cancelled. */
  get open(): boolean {
    return this.isOpen;
  }

  /** True once the stream was cancelled (by its handle or its signal), whatever happened before. */
  get cancelled(): boolean {
    return this.isCancelled;
  }

  /** True while a decided terminal callback still waits behind a pending callback's promise. */
  get terminalPending(): boolean {
    return this.pending;
  }

  /** True once the source was read to its end (the transport needs no cancelling). */
  get sourceEnded(): boolean {
    return this.ended;
  }

  /**
   * `completed` or `failed` once the terminal callback was decided, unless a cancel came while it
   * still waited; `cancelled` after a cancel before it; else `open`.
   */
  get status(): RunStatus {
    const terminal = this.terminal;
    if (terminal !== null && !(this.pending && this.isCancelled)) return terminal;
    return this.isCancelled ? 'cancelled' : 'open';
  }

  /** The stream error that ended the stream (status `failed`), else null. */
  get failure(): Error | null {
    return this.status === 'failed' ? this.error : null;
  }

  /** Marks the stream cancelled; false when it already was (the caller then does nothing more). */
  cancel(): boolean {
    if (this.isCancelled) return false;
    this.isCancelled = true;
    this.isOpen = false;
    return true;
  }

  /**
   * Decides the terminal callback (once: the caller checks `open` first). `pending` when it is
   * queued behind a callback's promise rather than delivered now.
   */
  end(terminal: 'completed' | 'failed', error: Error | null, pending: boolean): void {
    this.terminal = terminal;
    this.error = error;
    this.pending = pending;
    this.isOpen = false;
  }

  /** The queued terminal callback is being delivered now. */
  terminalDelivered(): void {
    this.pending = false;
  }

  /** The source was read to its end. */
  markSourceEnded(): void {
    this.ended = true;
  }

  /** `RunGate.admits`: the bridge's one check per callback, the `open` field (a cancel is recorded here by the controller). */
  admits(): boolean {
    return this.isOpen;
  }

  /** `RunGate.passTerminal`: true while open; the safe handler further down the chain ends the run as the callback reaches it. */
  passTerminal(): boolean {
    return this.isOpen;
  }

  /** `RunGate.bind`: nothing to do, the stream's controller records its cancel here. */
  bind(): void {
    // The controller is the stream's handle and marks this state itself.
  }
}
