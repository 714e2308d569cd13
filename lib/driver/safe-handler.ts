import { HandlerCallbackError } from '../handler/handler-callback-error';
import type {
  ChatResponse,
  CompleteToolCall,
  HandlerCallbackName,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
  StreamingChatResponseHandler,
} from '../handler/types';
import { followResult } from './callback-result';
import type { RunState, RunStatus } from './run-state';
import type { SecretRedaction } from './stream-options';
import { StreamController } from './stream-controller';

/** Where a stream stands, as a `SafeHandler` saw it (its run state's status). */
export type SafeHandlerState = RunStatus;

/** A callback the handler may have, called with its one or two arguments. */
type Delivered = Exclude<HandlerCallbackName, 'bindStreamingHandle'>;
type Callback = (value: unknown, context: unknown) => unknown;

/**
 * A delivery waiting behind an async callback: the callback to call (`callbackError` forwards a
 * `HandlerCallbackError` that ends nothing; `onError` is the stream's terminal failure) and its arguments.
 */
interface Queued {
  readonly kind: Delivered | 'callbackError';
  readonly value: unknown;
  readonly context: unknown;
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * Calls a user's handler safely; the driver delivers through one.
 *
 * - Empty fragments (empty partial text without a payload, empty argument deltas) are skipped.
 * - A callback that throws is reported to `onError` as a `HandlerCallbackError`; the stream goes on.
 *   A throwing `onError` is swallowed and never re-enters `onError`.
 * - A callback that returns a promise (any thenable) is waited for: the deliveries that follow are
 *   queued in order until it settles, and `busy` / `drained()` tell the driver to stop reading
 *   meanwhile. A rejection is reported exactly like a throw; a rejecting `onError` is swallowed.
 *   A callback that returns nothing costs one check of its result.
 * - One terminal gate, the controller's run state: after `onCompleteResponse`, a stream `onError`,
 *   or a cancel, nothing more is delivered — except the one `HandlerCallbackError` from a throwing
 *   (or rejecting) `onCompleteResponse`. A `HandlerCallbackError` passed to `onError` is forwarded
 *   and ends nothing. A cancel drops the queued deliveries, a queued terminal one included.
 *
 * - With a `SecretRedaction`, the stream's error and every raw event pass through it first.
 *
 * The constructor calls the user handler's `bindStreamingHandle(controller)` (when it has one)
 * right away, so a handler can cancel before the first token; the driver does not bind again.
 */
export class SafeHandler implements StreamingChatResponseHandler {
  /** The run state the controller marks on cancel; this handler decides its terminal callback. */
  private readonly run: RunState;
  private deliveringError = false;
  /** Deliveries waiting for a callback's promise; null whenever no promise is pending (the sync path). */
  private queue: Queued[] | null = null;
  private head = 0;
  /** True while a callback's promise is pending. */
  private waiting = false;
  private idle: Promise<void> | null = null;
  private resolveIdle: (() => void) | null = null;

  constructor(
    private readonly handler: StreamingChatResponseHandler,
    controller: StreamController,
    /** Applied to the stream's error and to raw events before the handler sees them (see `SecretRedaction`). */
    private readonly redaction: SecretRedaction | null = null,
  ) {
    if (handler === null || typeof handler !== 'object' || typeof handler.onCompleteResponse !== 'function' || typeof handler.onError !== 'function') {
      throw new TypeError(`Expected a handler with onCompleteResponse and onError methods, got ${handler === null ? 'null' : typeof handler}`);
    }
    if (!(controller instanceof StreamController)) {
      throw new TypeError(`Expected a StreamController, got ${controller === null ? 'null' : typeof controller}`);
    }
    this.run = controller.state;
    if (typeof handler.bindStreamingHandle === 'function') {
      try {
        handler.bindStreamingHandle(controller);
      } catch (error) {
        this.reportCallbackError('bindStreamingHandle', error);
      }
    }
  }

  /**
   * `open` until the terminal callback; `cancelled` once the controller is cancelled before it
   * (also while the terminal callback still waited in the queue).
   */
  get state(): SafeHandlerState {
    return this.run.status;
  }

  /** The stream error that ended the stream, or null. */
  get failure(): Error | null {
    return this.run.failure;
  }

  /** True while a callback's promise is pending (deliveries are queued behind it): stop reading the source. */
  get busy(): boolean {
    return this.queue !== null;
  }

  /**
   * Settles once no callback's promise is pending and the queue is delivered (or dropped by a
   * cancel); never rejects. Already resolved when not `busy`.
   */
  drained(): Promise<void> {
    if (this.queue === null) return RESOLVED;
    if (this.idle === null) {
      this.idle = new Promise<void>((resolve) => {
        this.resolveIdle = resolve;
      });
    }
    return this.idle;
  }

  // The per-token callbacks read their handler method by name (a monomorphic load at each site).
  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    if (!this.run.open || (partial.text.length === 0 && partial.payload == null)) return;
    const callback = this.handler.onPartialResponse;
    if (callback != null) this.deliver('onPartialResponse', callback, partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    if (!this.run.open || (partial.text.length === 0 && partial.payload == null)) return;
    const callback = this.handler.onPartialThinking;
    if (callback != null) this.deliver('onPartialThinking', callback, partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    if (!this.run.open || partial.partialArguments.length === 0) return;
    const callback = this.handler.onPartialToolCall;
    if (callback != null) this.deliver('onPartialToolCall', callback, partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    if (!this.run.open) return;
    const callback = this.handler.onCompleteToolCall;
    if (callback != null) this.deliver('onCompleteToolCall', callback, complete, undefined);
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    if (!this.run.open) return;
    const callback = this.handler.onUnmappedRawEvent;
    if (callback == null) return;
    const redaction = this.redaction;
    this.deliver('onUnmappedRawEvent', callback, redaction === null ? rawEvent : redaction.rawEvent(rawEvent), undefined);
  }

  onCompleteResponse(response: ChatResponse): void {
    if (!this.run.open) return;
    const queued = this.queue !== null;
    this.run.end('completed', null, queued);
    if (queued) this.enqueue('onCompleteResponse', response, undefined);
    else this.completeResponseNow(response);
  }

  onError(error: Error): void {
    if (!this.run.open) return;
    const ends = !HandlerCallbackError.isInstance(error);
    // The stream's error is redacted before anything keeps it (the run state is the outcome's);
    // a HandlerCallbackError is the handler's own.
    const reported = ends && this.redaction !== null ? this.redaction.error(error) : error;
    const queued = this.queue !== null;
    if (ends) this.run.end('failed', reported, queued);
    if (queued) this.enqueue(ends ? 'onError' : 'callbackError', reported, undefined);
    else this.deliverError(reported);
  }

  /** Delivers a callback now, or queues it behind a pending promise. */
  private deliver(kind: Delivered, callback: unknown, value: unknown, context: unknown): void {
    if (this.queue !== null) this.enqueue(kind, value, context);
    else this.invoke(kind, callback as Callback, value, context);
  }

  /** Calls one of the handler's callbacks (not the terminal ones): a throw is reported, a promise followed. */
  private invoke(kind: Delivered, callback: Callback, value: unknown, context: unknown): void {
    let result: unknown;
    try {
      result = callback.call(this.handler, value, context);
    } catch (error) {
      this.reportCallbackError(kind, error);
      return;
    }
    if (result !== undefined) this.follow(kind, result);
  }

  private completeResponseNow(response: ChatResponse): void {
    let result: unknown;
    try {
      result = this.handler.onCompleteResponse(response);
    } catch (error) {
      this.deliverError(new HandlerCallbackError('onCompleteResponse', error));
      return;
    }
    if (result !== undefined) this.follow('onCompleteResponse', result);
  }

  /** A callback's error goes to `onError` while the stream may still deliver (not after a cancel). */
  private reportCallbackError(callbackName: HandlerCallbackName, cause: unknown): void {
    const run = this.run;
    // A callback that cancelled the stream and then threw: nothing may follow a cancel. Nor may
    // anything follow a terminal callback already delivered (closed, not cancelled, not pending).
    if (run.cancelled || (!run.open && !run.terminalPending)) return;
    this.deliverError(new HandlerCallbackError(callbackName, cause));
  }

  private deliverError(error: Error): void {
    if (this.deliveringError) return;
    this.deliveringError = true;
    let result: unknown;
    try {
      result = this.handler.onError(error);
    } catch {
      // A throwing onError is swallowed: reporting it to onError again could loop.
      return;
    } finally {
      this.deliveringError = false;
    }
    if (result !== undefined) this.follow('onError', result);
  }

  /** A callback returned `result`: when it is a thenable, deliveries wait in the queue until it settles. */
  private follow(callbackName: HandlerCallbackName, result: unknown): void {
    if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return;
    const followed = followResult(result, (rejected, cause) => this.settled(callbackName, rejected, cause));
    if (followed === 'sync') return;
    if (followed === 'followed') {
      this.waiting = true;
      if (this.queue === null) this.queue = [];
      return;
    }
    // Reading `then` threw: that counts as the callback throwing.
    this.settled(callbackName, true, followed.threw);
  }

  /** A callback's promise settled: report a rejection like a throw, then deliver what waited. */
  private settled(callbackName: HandlerCallbackName, rejected: boolean, cause: unknown): void {
    this.waiting = false;
    if (rejected) {
      if (callbackName === 'onCompleteResponse') this.deliverError(new HandlerCallbackError(callbackName, cause));
      // A rejecting onError is swallowed, like a throwing one.
      else if (callbackName !== 'onError') this.reportCallbackError(callbackName, cause);
    }
    this.drain();
  }

  /** Delivers the queued callbacks in order until one returns a promise; a cancel drops them all. */
  private drain(): void {
    const queue = this.queue;
    if (queue === null) return;
    while (!this.waiting && this.head < queue.length) {
      if (this.run.cancelled) {
        this.head = queue.length;
        break;
      }
      const item = queue[this.head] as Queued;
      // Let go of the delivered item at once: a slow callback must not keep the ones before it.
      queue[this.head++] = undefined as unknown as Queued;
      this.deliverQueued(item);
    }
    if (this.waiting) return;
    this.queue = null;
    this.head = 0;
    const resolve = this.resolveIdle;
    this.idle = null;
    this.resolveIdle = null;
    resolve?.();
  }

  private deliverQueued(item: Queued): void {
    switch (item.kind) {
      case 'onCompleteResponse':
        this.run.terminalDelivered();
        this.completeResponseNow(item.value as ChatResponse);
        return;
      case 'onError':
        this.run.terminalDelivered();
        this.deliverError(item.value as Error);
        return;
      case 'callbackError':
        this.deliverError(item.value as Error);
        return;
      default: {
        // Read when delivered, as the handler is then.
        const callback = this.handler[item.kind];
        if (callback != null) this.invoke(item.kind, callback as Callback, item.value, item.context);
      }
    }
  }

  private enqueue(kind: Queued['kind'], value: unknown, context: unknown): void {
    (this.queue as Queued[]).push({ kind, value, context });
  }
}
