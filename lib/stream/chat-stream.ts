import { EventEmitter } from 'eventemitter3';
import { HandlerCallbackError } from '../handler/handler-callback-error';
import type {
  ChatResponse,
  CompleteToolCall,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
  StreamingChatResponseHandler,
  StreamingHandle,
} from '../handler/types';
import { AsyncQueue } from './async-queue';
import {
  CALLBACK_OF_EVENT,
  type ChatStreamEvent,
  type ChatStreamEventName,
  type ChatStreamEvents,
} from './chat-stream-events';

/** Where a `ChatStream` stands. */
export type ChatStreamStatus = 'open' | 'completed' | 'failed' | 'cancelled';

type Listener = (...args: unknown[]) => unknown;
type EventListener<T extends ChatStreamEventName> = EventEmitter.EventListener<ChatStreamEvents, T>;
type EventArgs<T extends ChatStreamEventName> = EventEmitter.EventArgs<ChatStreamEvents, T>;

/**
 * How many events a `for await` loop over a `ChatStream` may fall behind: once its buffer holds
 * this many, the stream waits (the listener's promise holds the driver back, see the async
 * callback rule) until the loop has read the buffer down to `CHAT_STREAM_LOW_WATER_MARK`.
 */
export const CHAT_STREAM_HIGH_WATER_MARK = 128;

/** How far a `for await` loop reads its buffer down before a stream held at the high-water mark goes on. */
export const CHAT_STREAM_LOW_WATER_MARK = 64;

/** A listener's promise, with the event it listened to (names it if it rejects). */
interface PendingListener {
  readonly event: ChatStreamEventName;
  readonly promise: PromiseLike<unknown>;
}

/** The error `finalResponse()` rejects with when the stream was cancelled (`name` is `'AbortError'`). */
function cancelledError(): Error {
  const error = new Error('The stream was cancelled before it completed');
  error.name = 'AbortError';
  return error;
}

/**
 * A handler you can listen to: pass it wherever a `StreamingChatResponseHandler` goes and
 * subscribe with typed events (`stream.on('partialResponse', (partial, context) => …)`), iterate
 * it with `for await` (events as `{type, …}` objects, ending after the terminal one), or await
 * `finalResponse()`.
 *
 * - One terminal gate: after `completeResponse`, a stream `error` or `cancel()`, nothing more is
 *   emitted (except the `HandlerCallbackError` of a throwing `completeResponse` listener).
 * - Listeners are isolated: one that throws does not stop the others; it is reported as one
 *   `error` event carrying a `HandlerCallbackError` after the event's listeners ran, and the stream
 *   goes on. A throwing `error` listener is swallowed.
 * - A listener may be `async`: when some listener of an event returns a promise (any thenable),
 *   the handler method (`onPartialResponse` …) returns one that settles once all of them settled,
 *   so the driver waits before the next callback and before reading further. It never rejects: a
 *   rejection is one `error` event with a `HandlerCallbackError`, like a throw (after a cancel, or
 *   from an `error` listener, it is swallowed). When no listener returns a promise, nothing is
 *   allocated for it.
 * - `for await` is bounded: a loop that falls `CHAT_STREAM_HIGH_WATER_MARK` events behind holds
 *   the stream back until it has caught up to `CHAT_STREAM_LOW_WATER_MARK`.
 * - `cancel()` (or `break` out of `for await`) cancels the underlying stream through the handle
 *   the driver binds — also before the first token.
 */
export class ChatStream extends EventEmitter<ChatStreamEvents> implements StreamingChatResponseHandler {
  private currentStatus: ChatStreamStatus = 'open';
  private handle: StreamingHandle | null = null;
  private terminalEvent: ChatStreamEvent | null = null;
  private readonly finalPromise: Promise<ChatResponse>;
  private resolveFinal!: (response: ChatResponse) => void;
  private rejectFinal!: (error: Error) => void;
  private readonly settleCallbacks = new Set<() => void>();
  /** Isolating wrapper of each listener, and back. */
  private readonly wrappers = new WeakMap<Listener, Listener>();
  private readonly originals = new WeakMap<Listener, Listener>();
  /** The event being emitted (names a throwing listener's callback). */
  private emitting: ChatStreamEventName | null = null;
  private readonly listenerErrors: HandlerCallbackError[] = [];
  /** Promises the listeners returned during the current top-level emit; null when none did. */
  private pendingListeners: PendingListener[] | null = null;
  /** True while the errors of throwing listeners are emitted (after an event's listeners ran). */
  private flushing = false;
  /** What the last top-level emit has to wait for: its listeners' promises; null when none. */
  private listenersSettled: Promise<void> | null = null;
  private readonly onAbort = (): void => this.cancelled();

  constructor() {
    super();
    this.finalPromise = new Promise<ChatResponse>((resolve, reject) => {
      this.resolveFinal = resolve;
      this.rejectFinal = reject;
    });
    // A failure nobody asked about must never be an unhandled rejection.
    this.finalPromise.catch(() => undefined);
  }

  /** `open` until the terminal event or a cancel. */
  get status(): ChatStreamStatus {
    return this.currentStatus;
  }

  /**
   * The final response (the bridge's aggregated message when driven through the chain). Rejects
   * with the stream error, or with an `AbortError` when the stream was cancelled. The same
   * promise on every call.
   */
  finalResponse(): Promise<ChatResponse> {
    return this.finalPromise;
  }

  /** Cancels the stream (idempotent); a stream not yet started is cancelled as soon as it binds. */
  cancel(): void {
    if (this.currentStatus !== 'open') return;
    this.cancelled();
    this.handle?.cancel();
  }

  /** Called by the stream driver with the handle that cancels the underlying stream. */
  bindStreamingHandle(handle: StreamingHandle): void {
    this.handle?.signal?.removeEventListener('abort', this.onAbort);
    this.handle = handle;
    if (this.currentStatus === 'cancelled') {
      handle.cancel();
      return;
    }
    if (this.currentStatus !== 'open') return;
    // A cancel made through the handle itself (a context's streamingHandle, an AbortSignal).
    const signal = handle.signal;
    if (signal === undefined) return;
    if (signal.aborted) this.cancelled();
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    this.emit('partialResponse', partial, context);
    return this.takeListenersSettled();
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    this.emit('partialThinking', partial, context);
    return this.takeListenersSettled();
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    this.emit('partialToolCall', partial, context);
    return this.takeListenersSettled();
  }

  onCompleteToolCall(complete: CompleteToolCall): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    this.emit('completeToolCall', complete);
    return this.takeListenersSettled();
  }

  onUnmappedRawEvent(rawEvent: unknown): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    this.emit('unmappedRawEvent', rawEvent);
    return this.takeListenersSettled();
  }

  onCompleteResponse(response: ChatResponse): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.currentStatus = 'completed';
    this.terminalEvent = Object.freeze({ type: 'completeResponse', response });
    this.resolveFinal(response);
    this.listenersSettled = null;
    this.emit('completeResponse', response);
    this.afterSettle();
    return this.takeListenersSettled();
  }

  /** A stream error ends the stream; a `HandlerCallbackError` is emitted and ends nothing. */
  onError(error: Error): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.listenersSettled = null;
    if (HandlerCallbackError.isInstance(error)) {
      this.emit('error', error);
      return this.takeListenersSettled();
    }
    this.currentStatus = 'failed';
    this.terminalEvent = Object.freeze({ type: 'error', error });
    this.rejectFinal(error);
    this.emit('error', error);
    this.afterSettle();
    return this.takeListenersSettled();
  }

  /**
   * Yields every event as a `{type, …}` object, the terminal one included, then ends. Events are
   * buffered while the loop body awaits, up to `CHAT_STREAM_HIGH_WATER_MARK`: then the stream waits
   * for the loop (a loop that stops reading without `break` holds the stream until it is
   * cancelled). Breaking out cancels the stream and removes the iterator's listeners. Started
   * after the end, it yields the terminal event alone.
   */
  [Symbol.asyncIterator](): AsyncIterator<ChatStreamEvent, undefined> {
    const queue = new AsyncQueue<ChatStreamEvent>(CHAT_STREAM_HIGH_WATER_MARK, CHAT_STREAM_LOW_WATER_MARK);
    const subscriptions: Array<[ChatStreamEventName, Listener]> = [];
    const unsubscribe = (): void => {
      for (const [name, listener] of subscriptions) this.off(name, listener as unknown as EventListener<typeof name>);
      subscriptions.length = 0;
      this.settleCallbacks.delete(onSettle);
    };
    const onSettle = (): void => {
      unsubscribe();
      // A cancel from inside a listener: the event being emitted still reaches this iterator's
      // listener (emit walks the listeners it started with), so end only after it.
      queueMicrotask(() => queue.end());
    };
    // `ends`: whether the event is the terminal one, after which the iterator takes nothing more.
    const subscribe = <T extends ChatStreamEventName>(
      name: T,
      toEvent: (...args: EventArgs<T>) => ChatStreamEvent,
      ends: boolean | ((...args: EventArgs<T>) => boolean) = false,
    ): void => {
      const listener = ((...args: EventArgs<T>): Promise<void> | undefined => {
        const full = queue.push(toEvent(...args));
        if (ends === true || (typeof ends === 'function' && ends(...args))) queue.end();
        // The loop fell behind: the stream waits until it has caught up (the async callback rule).
        else if (full) return queue.belowLowWater();
        return undefined;
      }) as EventListener<T>;
      subscriptions.push([name, listener as unknown as Listener]);
      this.on(name, listener);
    };

    if (this.currentStatus === 'open') {
      subscribe('partialResponse', (partial, context) => ({ type: 'partialResponse', partial, context }));
      subscribe('partialThinking', (partial, context) => ({ type: 'partialThinking', partial, context }));
      subscribe('partialToolCall', (partial, context) => ({ type: 'partialToolCall', partial, context }));
      subscribe('completeToolCall', (complete) => ({ type: 'completeToolCall', complete }));
      subscribe('unmappedRawEvent', (rawEvent) => ({ type: 'unmappedRawEvent', rawEvent }));
      subscribe('completeResponse', (response) => ({ type: 'completeResponse', response }), true);
      subscribe('error', (error) => ({ type: 'error', error }), (error) => !HandlerCallbackError.isInstance(error));
      this.settleCallbacks.add(onSettle);
    } else {
      if (this.terminalEvent !== null) queue.push(this.terminalEvent);
      queue.end();
    }

    return {
      next: () => queue.next(),
      return: () => {
        unsubscribe();
        queue.clear();
        this.cancel();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  /**
   * Emits to every listener, isolating each; a listener that throws becomes one `error` event.
   * Promises the listeners return are followed (a rejection becomes one `error` event too).
   */
  override emit<T extends ChatStreamEventName>(event: T, ...args: EventArgs<T>): boolean {
    const outer = this.emitting;
    this.emitting = event;
    let delivered: boolean;
    try {
      delivered = super.emit(event, ...args);
    } finally {
      this.emitting = outer;
    }
    if (outer === null && !this.flushing) {
      this.flushing = true;
      try {
        while (this.listenerErrors.length > 0) {
          const error = this.listenerErrors.shift() as HandlerCallbackError;
          this.emit('error', error);
        }
      } finally {
        this.flushing = false;
      }
      const pending = this.pendingListeners;
      if (pending !== null) {
        this.pendingListeners = null;
        this.listenersSettled = this.settleListeners(pending);
      }
    }
    return delivered;
  }

  override on<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    return super.on(event, this.isolate(fn), context);
  }

  override addListener<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    return super.addListener(event, this.isolate(fn), context);
  }

  override once<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    return super.once(event, this.isolate(fn), context);
  }

  override removeListener<T extends ChatStreamEventName>(event: T, fn?: EventListener<T>, context?: unknown, once?: boolean): this {
    return super.removeListener(event, fn === undefined ? undefined : this.wrapperOf(fn), context, once);
  }

  override off<T extends ChatStreamEventName>(event: T, fn?: EventListener<T>, context?: unknown, once?: boolean): this {
    return super.off(event, fn === undefined ? undefined : this.wrapperOf(fn), context, once);
  }

  /** The listeners as they were added (not their isolating wrappers). */
  override listeners<T extends ChatStreamEventName>(event: T): Array<EventListener<T>> {
    return super.listeners(event).map((wrapper) => (this.originals.get(wrapper as unknown as Listener) ?? wrapper) as unknown as EventListener<T>);
  }

  private isOpen(): boolean {
    return this.currentStatus === 'open';
  }

  /** The promise the last emit's listeners returned, taken (so it is handed out once); undefined when none. */
  private takeListenersSettled(): Promise<void> | undefined {
    const settled = this.listenersSettled;
    if (settled === null) return undefined;
    this.listenersSettled = null;
    return settled;
  }

  /**
   * Waits for every listener's promise; each rejection becomes one `error` event (whose own
   * listeners' promises are waited for too). Never rejects.
   */
  private async settleListeners(pending: readonly PendingListener[]): Promise<void> {
    for (const { event, promise } of pending) {
      try {
        await promise;
      } catch (cause) {
        // Like a throw: an `error` listener's rejection is swallowed; after the end only the
        // completeResponse listeners' ones are reported, and after a cancel nothing.
        const reported = event !== 'error' && (this.currentStatus === 'open' || (event === 'completeResponse' && this.currentStatus === 'completed'));
        if (!reported) continue;
        this.listenersSettled = null;
        this.emit('error', new HandlerCallbackError(CALLBACK_OF_EVENT[event], cause));
        const more = this.takeListenersSettled();
        if (more !== undefined) await more;
      }
    }
  }

  private cancelled(): void {
    if (this.currentStatus !== 'open') return;
    this.currentStatus = 'cancelled';
    this.rejectFinal(cancelledError());
    this.afterSettle();
  }

  /** Stops following the handle's signal and ends the iterators. */
  private afterSettle(): void {
    this.handle?.signal?.removeEventListener('abort', this.onAbort);
    for (const callback of [...this.settleCallbacks]) callback();
  }

  private wrapperOf<T extends ChatStreamEventName>(fn: EventListener<T>): EventListener<T> {
    return (this.wrappers.get(fn as unknown as Listener) ?? fn) as unknown as EventListener<T>;
  }

  /** One wrapper per listener function, so `off(event, fn)` finds it again. */
  private isolate<T extends ChatStreamEventName>(fn: EventListener<T>): EventListener<T> {
    if (typeof fn !== 'function') throw new TypeError(`Expected a listener function, got ${fn === null ? 'null' : typeof fn}`);
    const original = fn as unknown as Listener;
    let wrapper = this.wrappers.get(original);
    if (wrapper === undefined) {
      const stream = this;
      wrapper = function isolatedListener(this: unknown, ...args: unknown[]): void {
        let result: unknown;
        try {
          result = original.apply(this, args);
        } catch (error) {
          stream.listenerThrew(error);
          return;
        }
        if (result !== undefined) stream.listenerReturned(result);
      };
      this.wrappers.set(original, wrapper);
      this.originals.set(wrapper, original);
    }
    return wrapper as unknown as EventListener<T>;
  }

  /** A listener returned `result`: a thenable is waited for (reading `then` may throw: a throw of the listener). */
  private listenerReturned(result: unknown): void {
    if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return;
    const event = this.emitting;
    let then: unknown;
    try {
      then = (result as { then?: unknown }).then;
    } catch (error) {
      this.listenerThrew(error);
      return;
    }
    if (typeof then !== 'function') return;
    if (event === null) {
      // Called outside an emit (a wrapper taken from rawListeners): nobody waits, but a rejection
      // must still not go unhandled.
      new Promise<unknown>((resolve) => resolve(result)).catch(() => undefined);
      return;
    }
    const pending: PendingListener = { event, promise: result as PromiseLike<unknown> };
    if (this.pendingListeners === null) this.pendingListeners = [pending];
    else this.pendingListeners.push(pending);
  }

  private listenerThrew(cause: unknown): void {
    const event = this.emitting;
    // A throwing error listener is swallowed: reporting it as another error event could loop.
    if (event === null || event === 'error') return;
    this.listenerErrors.push(new HandlerCallbackError(CALLBACK_OF_EVENT[event], cause));
  }
}
