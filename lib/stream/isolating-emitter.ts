import { EventEmitter } from 'eventemitter3';
import { HandlerCallbackError } from '../handler/handler-callback-error';
import { CALLBACK_OF_EVENT, type ChatStreamEventName, type ChatStreamEvents } from './chat-stream-events';

type Listener = (...args: unknown[]) => unknown;
/** The listener type of event `T`. */
export type EventListener<T extends ChatStreamEventName> = EventEmitter.EventListener<ChatStreamEvents, T>;
/** The arguments of event `T`. */
export type EventArgs<T extends ChatStreamEventName> = EventEmitter.EventArgs<ChatStreamEvents, T>;

/** A listener's promise, with the event it listened to (names it if it rejects). */
interface PendingListener {
  readonly event: ChatStreamEventName;
  readonly promise: PromiseLike<unknown>;
}

/**
 * The event emitter inside a `ChatStream`, never handed out (so nobody else can emit). Each
 * listener is wrapped so that one that throws does not stop the others: its error becomes one
 * `error` event with a `HandlerCallbackError` once the event's listeners ran (a throwing `error`
 * listener is swallowed). Promises the listeners return are collected: `takeListenersSettled()`
 * hands out, once, a promise that settles when they all did, turning each rejection into an
 * `error` event too, when `reportRejection(event)` says it may still be reported.
 */
export class IsolatingEmitter extends EventEmitter<ChatStreamEvents> {
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

  constructor(private readonly reportRejection: (event: ChatStreamEventName) => boolean) {
    super();
  }

  /**
   * Emits to every listener, isolating each, and returns the promise its listeners' promises make
   * (undefined when none returned one).
   */
  deliver<T extends ChatStreamEventName>(event: T, ...args: EventArgs<T>): Promise<void> | undefined {
    this.listenersSettled = null;
    this.emit(event, ...args);
    return this.takeListenersSettled();
  }

  /** Emits to every listener, isolating each; see the class. */
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
        // Like a throw: an `error` listener's rejection is swallowed, and so is one the stream
        // may no longer report (after its end or a cancel).
        if (event === 'error' || !this.reportRejection(event)) continue;
        const more = this.deliver('error', new HandlerCallbackError(CALLBACK_OF_EVENT[event], cause));
        if (more !== undefined) await more;
      }
    }
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
      const emitter = this;
      wrapper = function isolatedListener(this: unknown, ...args: unknown[]): void {
        let result: unknown;
        try {
          result = original.apply(this, args);
        } catch (error) {
          emitter.listenerThrew(error);
          return;
        }
        if (result !== undefined) emitter.listenerReturned(result);
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
