import type {
  CallbackResult, ChatResponse, CompleteToolCall, PartialResponse, PartialResponseContext, PartialThinking, PartialThinkingContext,
  PartialToolCall, PartialToolCallContext, StreamingChatResponseHandler,
} from '../handler/types';

/**
 * A handler that waits `paceMs` before passing each streamed delta (answer text, thinking,
 * tool-call arguments) to `inner`, so a replay on a terminal visibly streams whatever its source
 * (a file arrives in one read). The wait is an async callback, which the driver awaits before the
 * next callback and before reading further; it ends early when `signal` aborts, so Ctrl-C stays
 * immediate. Every other callback is passed on at once.
 */
export class PacedHandler implements StreamingChatResponseHandler {
  constructor(
    private readonly inner: StreamingChatResponseHandler,
    private readonly paceMs: number,
    private readonly signal?: AbortSignal | undefined,
  ) {
    if (!Number.isFinite(paceMs) || paceMs < 0) throw new TypeError(`Expected paceMs to be a finite number >= 0, got ${String(paceMs)}`);
  }

  async onPartialResponse(partial: PartialResponse, context: PartialResponseContext): Promise<void> {
    await this.wait();
    await this.inner.onPartialResponse?.(partial, context);
  }

  async onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): Promise<void> {
    await this.wait();
    await this.inner.onPartialThinking?.(partial, context);
  }

  async onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): Promise<void> {
    await this.wait();
    await this.inner.onPartialToolCall?.(partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): CallbackResult {
    return this.inner.onCompleteToolCall?.(complete);
  }

  onUnmappedRawEvent(rawEvent: unknown): CallbackResult {
    return this.inner.onUnmappedRawEvent?.(rawEvent);
  }

  onCompleteResponse(response: ChatResponse): CallbackResult {
    return this.inner.onCompleteResponse(response);
  }

  onError(error: Error): CallbackResult {
    return this.inner.onError(error);
  }

  private wait(): Promise<void> {
    const signal = this.signal;
    if (signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.paceMs);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
