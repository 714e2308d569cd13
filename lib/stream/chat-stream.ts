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

type Listener = (...args: unknown[]) => void;
type EventListener<T extends ChatStreamEventName> = EventEmitter.EventListener<ChatStreamEvents, T>;
type EventArgs<T extends ChatStreamEventName> = EventEmitter.EventArgs<ChatStreamEvents, T>;

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

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    if (this.isOpen()) this.emit('partialResponse', partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    if (this.isOpen()) this.emit('partialThinking', partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    if (this.isOpen()) this.emit('partialToolCall', partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    if (this.isOpen()) this.emit('completeToolCall', complete);
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    if (this.isOpen()) this.emit('unmappedRawEvent', rawEvent);
  }

  onCompleteResponse(response: ChatResponse): void {
    if (!this.isOpen()) return;
    this.currentStatus = 'completed';
    this.terminalEvent = Object.freeze({ type: 'completeResponse', response });
    this.resolveFinal(response);
    this.emit('completeResponse', response);
    this.afterSettle();
  }

  /** A stream error ends the stream; a `HandlerCallbackError` is emitted and ends nothing. */
  onError(error: Error): void {
    if (!this.isOpen()) return;
    if (HandlerCallbackError.isInstance(error)) {
      this.emit('error', error);
      return;
    }
    this.currentStatus = 'failed';
    this.terminalEvent = Object.freeze({ type: 'error', error });
    this.rejectFinal(error);
    this.emit('error', error);
    this.afterSettle();
  }

  /**
   * Yields every event as a `{type, …}` object, the terminal one included, then ends. Events are
   * buffered while the loop body awaits. Breaking out cancels the stream and removes the
   * iterator's listeners. Started after the end, it yields the terminal event alone.
   */
  [Symbol.asyncIterator](): AsyncIterator<ChatStreamEvent, undefined> {
    const queue = new AsyncQueue<ChatStreamEvent>();
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
      const listener = ((...args: EventArgs<T>) => {
        queue.push(toEvent(...args));
        if (ends === true || (typeof ends === 'function' && ends(...args))) queue.end();
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

  /** Emits to every listener, isolating each; a listener that throws becomes one `error` event. */
  override emit<T extends ChatStreamEventName>(event: T, ...args: EventArgs<T>): boolean {
    const outer = this.emitting;
    this.emitting = event;
    let delivered: boolean;
    try {
      delivered = super.emit(event, ...args);
    } finally {
      this.emitting = outer;
    }
    if (outer === null) {
      while (this.listenerErrors.length > 0) {
        const error = this.listenerErrors.shift() as HandlerCallbackError;
        this.emit('error', error);
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
        try {
          original.apply(this, args);
        } catch (error) {
          stream.listenerThrew(error);
        }
      };
      this.wrappers.set(original, wrapper);
      this.originals.set(wrapper, original);
    }
    return wrapper as unknown as EventListener<T>;
  }

  private listenerThrew(cause: unknown): void {
    const event = this.emitting;
    // A throwing error listener is swallowed: reporting it as another error event could loop.
    if (event === null || event === 'error') return;
    this.listenerErrors.push(new HandlerCallbackError(CALLBACK_OF_EVENT[event], cause));
  }
}
