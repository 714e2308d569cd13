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

/**
 * A delegating handler that records whether the current provider event was mapped to a typed
 * callback. The driver (its per-event step, `FrameDelivery`) calls `resetMappingTracking()` before
 * each event and, when `wasMapped()` is still false afterwards (or the mapper called
 * `MapperTarget.surfaceRaw`), surfaces the event through `onUnmappedRawEvent`; a mapper only
 * calls the typed callbacks on it.
 *
 * Every typed callback (the three partials, `onCompleteToolCall`, `onCompleteResponse`,
 * `onError`) sets the flag before delegating, so an event whose callback threw still counts as
 * mapped; `onUnmappedRawEvent` is forwarded without setting it. Not re-entrant: one event at a time.
 */
export class MappingTrackingHandler implements StreamingChatResponseHandler {
  private mapped = false;

  constructor(private readonly delegate: StreamingChatResponseHandler) {
    if (delegate === null || typeof delegate !== 'object') {
      throw new TypeError(`Expected a handler to delegate to, got ${delegate === null ? 'null' : typeof delegate}`);
    }
  }

  /** Clears the flag; call before processing each provider event. */
  resetMappingTracking(): void {
    this.mapped = false;
  }

  /** True when a typed callback was invoked since the last `resetMappingTracking()`. */
  wasMapped(): boolean {
    return this.mapped;
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    this.mapped = true;
    this.delegate.onPartialResponse?.(partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    this.mapped = true;
    this.delegate.onPartialThinking?.(partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    this.mapped = true;
    this.delegate.onPartialToolCall?.(partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    this.mapped = true;
    this.delegate.onCompleteToolCall?.(complete);
  }

  onCompleteResponse(response: ChatResponse): void {
    this.mapped = true;
    this.delegate.onCompleteResponse(response);
  }

  onError(error: Error): void {
    this.mapped = true;
    this.delegate.onError(error);
  }

  /** Forwards a raw provider event (never null); does not count as a mapping. */
  onUnmappedRawEvent(rawEvent: unknown): void {
    if (rawEvent === null || rawEvent === undefined) {
      throw new TypeError(`Expected a raw provider event, got ${String(rawEvent)}`);
    }
    this.delegate.onUnmappedRawEvent?.(rawEvent);
  }

  /** Forwards the stream's handle to the delegate, when it takes one. */
  bindStreamingHandle(handle: StreamingHandle): void {
    this.delegate.bindStreamingHandle?.(handle);
  }
}
