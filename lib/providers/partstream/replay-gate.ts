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
} from '../../handler/types';

/**
 * The user's handler behind a relay viewer that starts after sequence `fromSequence`: while the
 * mapper applies the events up to it (`muted`), their callbacks go nowhere — the response core
 * still takes them — and from the next event on every callback reaches the handler. The terminal
 * callback always does.
 */
export class ReplayGate implements StreamingChatResponseHandler {
  /** Set by the mapper for each event: true while the event's sequence is ≤ `fromSequence`. */
  muted = false;

  constructor(
    private readonly handler: StreamingChatResponseHandler,
    readonly fromSequence: number,
  ) {}

  bindStreamingHandle(handle: StreamingHandle): void {
    this.handler.bindStreamingHandle?.(handle);
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): unknown {
    return this.muted ? undefined : this.handler.onPartialResponse?.(partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): unknown {
    return this.muted ? undefined : this.handler.onPartialThinking?.(partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): unknown {
    return this.muted ? undefined : this.handler.onPartialToolCall?.(partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): unknown {
    return this.muted ? undefined : this.handler.onCompleteToolCall?.(complete);
  }

  onUnmappedRawEvent(rawEvent: unknown): unknown {
    return this.muted ? undefined : this.handler.onUnmappedRawEvent?.(rawEvent);
  }

  onCompleteResponse(response: ChatResponse): unknown {
    return this.handler.onCompleteResponse(response);
  }

  onError(error: Error): unknown {
    return this.handler.onError(error);
  }
}
