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
  StreamingHandle,
} from '../handler/types';

/** Where a stream stands, as a `SafeHandler` saw it. */
export type SafeHandlerState = 'open' | 'completed' | 'failed' | 'cancelled';

/**
 * A delivery waiting behind an async callback: the callback to call (`callbackError` forwards a
 * `HandlerCallbackError` that ends nothing; `onError` is the stream's terminal failure) and its arguments.
 */
interface Queued {
  readonly kind: Exclude<HandlerCallbackName, 'bindStreamingHandle'> | 'callbackError';
  readonly value: unknown;
  readonly context: unknown;
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * Calls a user's handler safely; every adapter delivers through one.
 *
 * - Empty fragments (empty partial text without a payload, empty argument deltas) are skipped.
 * - A callback that throws is reported to `onError` as a `HandlerCallbackError`; the stream goes on.
 *   A throwing `onError` is swallowed and never re-enters `onError`.
 * - A callback that returns a promise (any thenable) is waited for: the deliveries that follow are
 *   queued in order until it settles, and `busy` / `drained()` tell the driver to stop reading
 *   meanwhile. A rejection is reported exactly like a throw; a rejecting `onError` is swallowed.
 *   A callback that returns nothing costs one check of its result.
 * - One terminal gate: after `onCompleteResponse`, a stream `onError`, or a cancel of the
 *   controller, nothing more is delivered — except the one `HandlerCallbackError` from a throwing
 *   (or rejecting) `onCompleteResponse`. A `HandlerCallbackError` passed to `onError` is forwarded
 *   and ends nothing. A cancel drops the queued deliveries, a queued terminal one included.
 *
 * The constructor calls the user handler's `bindStreamingHandle(controller)` (when it has one)
 * right away, so a handler can cancel before the first token; the driver does not bind again.
 */
export class SafeHandler implements StreamingChatResponseHandler {
  /** The terminal callback, decided when it was delivered or queued (nothing is queued after it). */
  private terminal: 'completed' | 'failed' | null = null;
  /** True while the terminal callback waits in the queue (a cancel then still makes the stream `cancelled`). */
  private terminalQueued = false;
  private streamFailure: Error | null = null;
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
    private readonly controller: StreamingHandle,
  ) {
    if (handler === null || typeof handler !== 'object' || typeof handler.onCompleteResponse !== 'function' || typeof handler.onError !== 'function') {
      throw new TypeError(`Expected a handler with onCompleteResponse and onError methods, got ${handler === null ? 'null' : typeof handler}`);
    }
    if (controller === null || typeof controller !== 'object' || typeof controller.cancel !== 'function' || typeof controller.isCancelled !== 'function') {
      throw new TypeError(`Expected a StreamingHandle with cancel and isCancelled methods, got ${controller === null ? 'null' : typeof controller}`);
    }
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
    const terminal = this.terminal;
    if (terminal !== null && !(this.terminalQueued && this.controller.isCancelled())) return terminal;
    return this.controller.isCancelled() ? 'cancelled' : 'open';
  }

  /** The stream error that ended the stream, or null. */
  get failure(): Error | null {
    return this.state === 'failed' ? this.streamFailure : null;
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

  /** True while new callbacks are accepted. */
  private isOpen(): boolean {
    return this.terminal === null && !this.controller.isCancelled();
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    if (!this.isOpen() || (partial.text.length === 0 && partial.payload == null) || this.handler.onPartialResponse === undefined) return;
    if (this.queue !== null) this.enqueue('onPartialResponse', partial, context);
    else this.partialResponseNow(partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    if (!this.isOpen() || (partial.text.length === 0 && partial.payload == null) || this.handler.onPartialThinking === undefined) return;
    if (this.queue !== null) this.enqueue('onPartialThinking', partial, context);
    else this.partialThinkingNow(partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    if (!this.isOpen() || partial.partialArguments.length === 0 || this.handler.onPartialToolCall === undefined) return;
    if (this.queue !== null) this.enqueue('onPartialToolCall', partial, context);
    else this.partialToolCallNow(partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    if (!this.isOpen() || this.handler.onCompleteToolCall === undefined) return;
    if (this.queue !== null) this.enqueue('onCompleteToolCall', complete, undefined);
    else this.completeToolCallNow(complete);
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    if (!this.isOpen() || this.handler.onUnmappedRawEvent === undefined) return;
    if (this.queue !== null) this.enqueue('onUnmappedRawEvent', rawEvent, undefined);
    else this.unmappedRawEventNow(rawEvent);
  }

  onCompleteResponse(response: ChatResponse): void {
    if (!this.isOpen()) return;
    this.terminal = 'completed';
    if (this.queue !== null) {
      this.terminalQueued = true;
      this.enqueue('onCompleteResponse', response, undefined);
    } else {
      this.completeResponseNow(response);
    }
  }

  onError(error: Error): void {
    if (!this.isOpen()) return;
    const ends = !HandlerCallbackError.isInstance(error);
    if (ends) {
      this.terminal = 'failed';
      this.streamFailure = error;
    }
    if (this.queue !== null) {
      if (ends) this.terminalQueued = true;
      this.enqueue(ends ? 'onError' : 'callbackError', error, undefined);
    } else {
      this.deliverError(error);
    }
  }

  private partialResponseNow(partial: PartialResponse, context: PartialResponseContext): void {
    let result: unknown;
    try {
      result = this.handler.onPartialResponse?.(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialResponse', error);
      return;
    }
    if (result !== undefined) this.follow('onPartialResponse', result);
  }

  private partialThinkingNow(partial: PartialThinking, context: PartialThinkingContext): void {
    let result: unknown;
    try {
      result = this.handler.onPartialThinking?.(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialThinking', error);
      return;
    }
    if (result !== undefined) this.follow('onPartialThinking', result);
  }

  private partialToolCallNow(partial: PartialToolCall, context: PartialToolCallContext): void {
    let result: unknown;
    try {
      result = this.handler.onPartialToolCall?.(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialToolCall', error);
      return;
    }
    if (result !== undefined) this.follow('onPartialToolCall', result);
  }

  private completeToolCallNow(complete: CompleteToolCall): void {
    let result: unknown;
    try {
      result = this.handler.onCompleteToolCall?.(complete);
    } catch (error) {
      this.reportCallbackError('onCompleteToolCall', error);
      return;
    }
    if (result !== undefined) this.follow('onCompleteToolCall', result);
  }

  private unmappedRawEventNow(rawEvent: unknown): void {
    let result: unknown;
    try {
      result = this.handler.onUnmappedRawEvent?.(rawEvent);
    } catch (error) {
      this.reportCallbackError('onUnmappedRawEvent', error);
      return;
    }
    if (result !== undefined) this.follow('onUnmappedRawEvent', result);
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
    // A callback that cancelled the stream and then threw: nothing may follow a cancel.
    if (this.controller.isCancelled() || (this.terminal !== null && !this.terminalQueued)) return;
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

  /**
   * A callback returned `result`: when it is a thenable, deliveries wait in the queue until it
   * settles. Reading `then` can throw (a hostile getter): that counts as the callback throwing.
   */
  private follow(callbackName: HandlerCallbackName, result: unknown): void {
    if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return;
    let then: unknown;
    try {
      then = (result as { then?: unknown }).then;
    } catch (error) {
      this.settled(callbackName, true, error);
      return;
    }
    if (typeof then !== 'function') return;
    this.waiting = true;
    if (this.queue === null) this.queue = [];
    // Adopting the thenable through a fresh promise copes with a `then` that throws, calls back
    // twice or both ways; the reaction handles a rejection, so it never goes unhandled.
    new Promise<void>((resolve) => resolve(result as PromiseLike<void>)).then(
      () => this.settled(callbackName, false, undefined),
      (error: unknown) => this.settled(callbackName, true, error),
    );
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
      if (this.controller.isCancelled()) {
        this.head = queue.length;
        break;
      }
      const item = queue[this.head];
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
      case 'onPartialResponse':
        this.partialResponseNow(item.value as PartialResponse, item.context as PartialResponseContext);
        return;
      case 'onPartialThinking':
        this.partialThinkingNow(item.value as PartialThinking, item.context as PartialThinkingContext);
        return;
      case 'onPartialToolCall':
        this.partialToolCallNow(item.value as PartialToolCall, item.context as PartialToolCallContext);
        return;
      case 'onCompleteToolCall':
        this.completeToolCallNow(item.value as CompleteToolCall);
        return;
      case 'onUnmappedRawEvent':
        this.unmappedRawEventNow(item.value);
        return;
      case 'onCompleteResponse':
        this.terminalQueued = false;
        this.completeResponseNow(item.value as ChatResponse);
        return;
      case 'onError':
        this.terminalQueued = false;
        this.deliverError(item.value as Error);
        return;
      case 'callbackError':
        this.deliverError(item.value as Error);
        return;
      default:
        assertNever(item.kind);
    }
  }

  private enqueue(kind: Queued['kind'], value: unknown, context: unknown): void {
    (this.queue as Queued[]).push({ kind, value, context });
  }
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a queued callback, got ${String(value)}`);
}
