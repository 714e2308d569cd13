import type { StreamingHandle } from '../handler/types';
import { RunState } from './run-state';

/**
 * The controllers following each external signal. One `abort` listener per signal serves them all,
 * so any number of streams can share a signal without a `MaxListenersExceededWarning` and without
 * touching the signal's own settings; the listener goes when the last of them lets go.
 */
const followers = new WeakMap<AbortSignal, Set<StreamController>>();

/** The one listener added to a followed signal (the same function each time, so adding is idempotent). */
function onFollowedAbort(event: Event): void {
  const signal = event.currentTarget as AbortSignal;
  const controllers = followers.get(signal);
  if (controllers === undefined) return;
  followers.delete(signal);
  // Every controller is cancelled even if one stream's abort reaction misbehaves (EventTarget
  // reports a throwing listener on its own; nothing reaches this loop).
  for (const controller of controllers) controller.cancel(signal.reason);
}

function follow(signal: AbortSignal, controller: StreamController): void {
  let controllers = followers.get(signal);
  if (controllers === undefined) {
    controllers = new Set();
    followers.set(signal, controllers);
    signal.addEventListener('abort', onFollowedAbort, { once: true });
  }
  controllers.add(controller);
}

function unfollow(signal: AbortSignal, controller: StreamController): void {
  const controllers = followers.get(signal);
  if (controllers === undefined || !controllers.delete(controller) || controllers.size > 0) return;
  followers.delete(signal);
  signal.removeEventListener('abort', onFollowedAbort);
}

/** What a controller tells at once when its stream is cancelled (the driver's guard). */
export interface CancelListener {
  stop(): void;
}

/**
 * The `StreamingHandle` of one stream: `cancel()` marks its run state and aborts `signal`;
 * calling it twice is harmless. An external `AbortSignal` passed to the constructor cancels it
 * too — at once when already aborted. Any number of controllers may share one external signal:
 * they add one `abort` listener to it in all, and leave its settings alone. Call `dispose()` when
 * the stream is over so a long-lived external signal keeps no reference (the shared listener is
 * removed with the last controller). Its cancellation is recorded in `state`, the run state the
 * rest of the driver consults. The `AbortController` behind `signal` is made only when `signal`
 * is first read (most streams never need one); the driver hears of a cancel through `listen`.
 */
export class StreamController implements StreamingHandle {
  /** The stream's run state; a cancel marks it. */
  readonly state: RunState;
  private abortController: AbortController | null = null;
  private reason: unknown = undefined;
  private external: AbortSignal | undefined;
  private listener: CancelListener | null = null;

  constructor(external?: AbortSignal, state: RunState = new RunState()) {
    this.state = state;
    if (external === undefined) return;
    if (!(external instanceof AbortSignal)) {
      throw new TypeError(`Expected an AbortSignal, got ${external === null ? 'null' : typeof external}`);
    }
    if (external.aborted) {
      state.cancel();
      this.reason = external.reason;
      return;
    }
    this.external = external;
    follow(external, this);
  }

  /** Aborted when the stream is cancelled, by `cancel()` or by the external signal (made on first read). */
  get signal(): AbortSignal {
    let controller = this.abortController;
    if (controller === null) {
      controller = new AbortController();
      this.abortController = controller;
      if (this.state.cancelled) controller.abort(this.reason);
    }
    return controller.signal;
  }

  /** Cancels the stream (idempotent). `reason` becomes `signal.reason`. */
  cancel(reason?: unknown): void {
    if (!this.state.cancel()) return;
    this.reason = reason;
    this.dispose();
    this.abortController?.abort(reason);
    this.listener?.stop();
  }

  /** True once `cancel()` was called or the external signal aborted. */
  isCancelled(): boolean {
    return this.state.cancelled;
  }

  /**
   * Tells `listener` of the cancel (after `signal`'s listeners), one listener at a time; null
   * lets go of it. Told at once when the stream is already cancelled.
   */
  listen(listener: CancelListener | null): void {
    this.listener = listener;
    if (listener !== null && this.state.cancelled) listener.stop();
  }

  /** Stops following the external signal (idempotent); the stream's own state is unchanged. */
  dispose(): void {
    if (this.external === undefined) return;
    unfollow(this.external, this);
    this.external = undefined;
  }
}
