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
import type { ChatStreamEvent, ChatStreamEventName } from './chat-stream-events';
import { IsolatingEmitter, type EventArgs, type EventListener } from './isolating-emitter';

/** Where a `ChatStream` stands. */
export type ChatStreamStatus = 'open' | 'completed' | 'failed' | 'cancelled';

type Listener = (...args: unknown[]) => unknown;

/**
 * How many events a `for await` loop over a `ChatStream` may fall behind: once its buffer holds
 * this many, the stream waits (the listener's promise holds the driver back, see the async
 * callback rule) until the loop has read the buffer down to `CHAT_STREAM_LOW_WATER_MARK`.
 */
export const CHAT_STREAM_HIGH_WATER_MARK = 128;

/** How far a `for await` loop reads its buffer down before a stream held at the high-water mark goes on. */
export const CHAT_STREAM_LOW_WATER_MARK = 64;

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
 *   emitted (except the `HandlerCallbackError` of a throwing `completeResponse` listener), however
 *   the stream is driven. Events come only from the handler methods: the subscription API
 *   (`on`, `once`, `off`, `addListener`, `removeListener`, `removeAllListeners`, `listeners`,
 *   `listenerCount`, `eventNames`) is EventEmitter3's, typed, and there is no public `emit`.
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
export class ChatStream implements StreamingChatResponseHandler {
  private currentStatus: ChatStreamStatus = 'open';
  private handle: StreamingHandle | null = null;
  private terminalEvent: ChatStreamEvent | null = null;
  private readonly finalPromise: Promise<ChatResponse>;
  private resolveFinal!: (response: ChatResponse) => void;
  private rejectFinal!: (error: Error) => void;
  private readonly settleCallbacks = new Set<() => void>();
  /**
   * The listeners; private, so that events come only from the handler methods below. A
   * listener's rejection is reported while the stream is open, a `completeResponse` listener's
   * also once it completed; after a cancel, nothing.
   */
  private readonly emitter = new IsolatingEmitter((event) => this.currentStatus === 'open' || (event === 'completeResponse' && this.currentStatus === 'completed'));
  private readonly onAbort = (): void => this.cancelled();

  constructor() {
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
    return this.isOpen() ? this.emitter.deliver('partialResponse', partial, context) : undefined;
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void | Promise<void> {
    return this.isOpen() ? this.emitter.deliver('partialThinking', partial, context) : undefined;
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void | Promise<void> {
    return this.isOpen() ? this.emitter.deliver('partialToolCall', partial, context) : undefined;
  }

  onCompleteToolCall(complete: CompleteToolCall): void | Promise<void> {
    return this.isOpen() ? this.emitter.deliver('completeToolCall', complete) : undefined;
  }

  onUnmappedRawEvent(rawEvent: unknown): void | Promise<void> {
    return this.isOpen() ? this.emitter.deliver('unmappedRawEvent', rawEvent) : undefined;
  }

  onCompleteResponse(response: ChatResponse): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    this.currentStatus = 'completed';
    this.terminalEvent = Object.freeze({ type: 'completeResponse', response });
    this.resolveFinal(response);
    const settled = this.emitter.deliver('completeResponse', response);
    this.afterSettle();
    return settled;
  }

  /** A stream error ends the stream; a `HandlerCallbackError` is emitted and ends nothing. */
  onError(error: Error): void | Promise<void> {
    if (!this.isOpen()) return undefined;
    if (HandlerCallbackError.isInstance(error)) return this.emitter.deliver('error', error);
    this.currentStatus = 'failed';
    this.terminalEvent = Object.freeze({ type: 'error', error });
    this.rejectFinal(error);
    const settled = this.emitter.deliver('error', error);
    this.afterSettle();
    return settled;
  }

  /** Adds a listener of `event` (isolated: see the class); it is called with `this` = `context`, the stream by default. */
  on<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    this.emitter.on(event, fn, context ?? this);
    return this;
  }

  /** Same as `on`. */
  addListener<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    this.emitter.addListener(event, fn, context ?? this);
    return this;
  }

  /** Adds a listener of `event` that is removed after its first call. */
  once<T extends ChatStreamEventName>(event: T, fn: EventListener<T>, context?: unknown): this {
    this.emitter.once(event, fn, context ?? this);
    return this;
  }

  /** Removes the listeners of `event` (all of them without `fn`), as EventEmitter3's `removeListener` does. */
  off<T extends ChatStreamEventName>(event: T, fn?: EventListener<T>, context?: unknown, once?: boolean): this {
    this.emitter.off(event, fn, context, once);
    return this;
  }

  /** Same as `off`. */
  removeListener<T extends ChatStreamEventName>(event: T, fn?: EventListener<T>, context?: unknown, once?: boolean): this {
    this.emitter.removeListener(event, fn, context, once);
    return this;
  }

  /** Removes every listener of `event`, or of every event. */
  removeAllListeners(event?: ChatStreamEventName): this {
    this.emitter.removeAllListeners(event);
    return this;
  }

  /** The listeners of `event` as they were added. */
  listeners<T extends ChatStreamEventName>(event: T): Array<EventListener<T>> {
    return this.emitter.listeners(event);
  }

  /** How many listeners `event` has. */
  listenerCount(event: ChatStreamEventName): number {
    return this.emitter.listenerCount(event);
  }

  /** The events that have listeners. */
  eventNames(): ChatStreamEventName[] {
    return this.emitter.eventNames();
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
    const emitter = this.emitter;
    const subscriptions: Array<[ChatStreamEventName, Listener]> = [];
    const unsubscribe = (): void => {
      for (const [name, listener] of subscriptions) emitter.off(name, listener as unknown as EventListener<typeof name>);
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
    const subscribe = <T extends ChatStreamEventName>(name: T, toEvent: (...args: EventArgs<T>) => ChatStreamEvent, ends: boolean | ((...args: EventArgs<T>) => boolean) = false): void => {
      const listener = ((...args: EventArgs<T>): Promise<void> | undefined => {
        const full = queue.push(toEvent(...args));
        if (ends === true || (typeof ends === 'function' && ends(...args))) queue.end();
        // The loop fell behind: the stream waits until it has caught up (the async callback rule).
        else if (full) return queue.belowLowWater();
        return undefined;
      }) as EventListener<T>;
      subscriptions.push([name, listener as unknown as Listener]);
      emitter.on(name, listener);
    };

    if (this.currentStatus === 'open') {
      subscribe('partialResponse', (partial, context) => ({ type: 'partialResponse', partial, context }));
      subscribe('partialThinking', (partial, context) => ({ type: 'partialThinking', partial, context }));
      subscribe('partialToolCall', (partial, context) => ({ type: 'partialToolCall', partial, context }));
      subscribe('completeToolCall', (complete) => ({ type: 'completeToolCall', complete }));
      subscribe('unmappedRawEvent', (rawEvent) => ({ type: 'unmappedRawEvent', rawEvent }));
      subscribe('completeResponse', (response) => ({ type: 'completeResponse', response }), true);
      subscribe(
        'error',
        (error) => ({ type: 'error', error }),
        (error) => !HandlerCallbackError.isInstance(error),
      );
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
}
