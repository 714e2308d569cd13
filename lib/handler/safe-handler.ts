import { HandlerCallbackError } from './handler-callback-error';
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
} from './types';

/** Where a stream stands, as a `SafeHandler` saw it. */
export type SafeHandlerState = 'open' | 'completed' | 'failed' | 'cancelled';

/**
 * Calls a user's handler safely; every adapter delivers through one.
 *
 * - Empty fragments (empty partial text without a payload, empty argument deltas) are skipped.
 * - A callback that throws is reported to `onError` as a `HandlerCallbackError`; the stream goes on.
 *   A throwing `onError` is swallowed and never re-enters `onError`.
 * - One terminal gate: after `onCompleteResponse`, a stream `onError`, or a cancel of the
 *   controller, nothing more is delivered — except the one `HandlerCallbackError` from a throwing
 *   `onCompleteResponse`. A `HandlerCallbackError` passed to `onError` is forwarded and ends nothing.
 *
 * The constructor calls the user handler's `bindStreamingHandle(controller)` (when it has one)
 * right away, so a handler can cancel before the first token; the driver does not bind again.
 */
export class SafeHandler implements StreamingChatResponseHandler {
  private terminal: 'completed' | 'failed' | null = null;
  private streamFailure: Error | null = null;
  private deliveringError = false;

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

  /** `open` until the terminal callback; `cancelled` once the controller is cancelled before it. */
  get state(): SafeHandlerState {
    if (this.terminal !== null) return this.terminal;
    return this.controller.isCancelled() ? 'cancelled' : 'open';
  }

  /** The stream error that ended the stream, or null. */
  get failure(): Error | null {
    return this.streamFailure;
  }

  /** True while callbacks may still be delivered. */
  private isOpen(): boolean {
    return this.terminal === null && !this.controller.isCancelled();
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    if (!this.isOpen() || (partial.text.length === 0 && partial.payload == null)) return;
    const handler = this.handler;
    if (handler.onPartialResponse === undefined) return;
    try {
      handler.onPartialResponse(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialResponse', error);
    }
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    if (!this.isOpen() || (partial.text.length === 0 && partial.payload == null)) return;
    const handler = this.handler;
    if (handler.onPartialThinking === undefined) return;
    try {
      handler.onPartialThinking(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialThinking', error);
    }
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    if (!this.isOpen() || partial.partialArguments.length === 0) return;
    const handler = this.handler;
    if (handler.onPartialToolCall === undefined) return;
    try {
      handler.onPartialToolCall(partial, context);
    } catch (error) {
      this.reportCallbackError('onPartialToolCall', error);
    }
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    if (!this.isOpen()) return;
    const handler = this.handler;
    if (handler.onCompleteToolCall === undefined) return;
    try {
      handler.onCompleteToolCall(complete);
    } catch (error) {
      this.reportCallbackError('onCompleteToolCall', error);
    }
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    if (!this.isOpen()) return;
    const handler = this.handler;
    if (handler.onUnmappedRawEvent === undefined) return;
    try {
      handler.onUnmappedRawEvent(rawEvent);
    } catch (error) {
      this.reportCallbackError('onUnmappedRawEvent', error);
    }
  }

  onCompleteResponse(response: ChatResponse): void {
    if (!this.isOpen()) return;
    this.terminal = 'completed';
    try {
      this.handler.onCompleteResponse(response);
    } catch (error) {
      this.deliverError(new HandlerCallbackError('onCompleteResponse', error));
    }
  }

  onError(error: Error): void {
    if (!this.isOpen()) return;
    if (HandlerCallbackError.isInstance(error)) {
      this.deliverError(error);
      return;
    }
    this.terminal = 'failed';
    this.streamFailure = error;
    this.deliverError(error);
  }

  private reportCallbackError(callbackName: HandlerCallbackName, cause: unknown): void {
    // A callback that cancelled the stream and then threw: nothing may follow a cancel.
    if (!this.isOpen()) return;
    this.deliverError(new HandlerCallbackError(callbackName, cause));
  }

  private deliverError(error: Error): void {
    if (this.deliveringError) return;
    this.deliveringError = true;
    try {
      this.handler.onError(error);
    } catch {
      // A throwing onError is swallowed: reporting it to onError again could loop.
    } finally {
      this.deliveringError = false;
    }
  }
}
