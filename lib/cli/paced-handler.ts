import { sleep } from '../transport/sleep';
import type {
  CallbackResult,
  ChatResponse,
  CompleteToolCall,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
  StreamingChatResponseHandler,
} from '../handler/types';

/**
 * How a paced replay spends its budget: each wait is at most this share of what is left of it, so
 * the first deltas keep the full pace and a long recording speeds up smoothly instead of stopping
 * to wait all at once.
 */
const BUDGET_SHARE = 1 / 25;

/**
 * A handler that waits `paceMs` before passing each streamed delta (answer text, thinking,
 * tool-call arguments) to `inner`, so a replay on a terminal visibly streams whatever its source
 * (a file arrives in one read). The wait is an async callback, which the driver awaits before the
 * next callback and before reading further; it ends early when `signal` aborts, so Ctrl-C stays
 * immediate. Every other callback is passed on at once.
 *
 * With a `budgetMs`, the waits of the whole replay add up to less than it however many deltas
 * come: each wait is `paceMs`, or a 25th of what is left of the budget when that is less (with a
 * 2 s budget at 40 ms, the first 25 deltas keep the pace, then the replay speeds up).
 */
export class PacedHandler implements StreamingChatResponseHandler {
  /** What is left of the budget, in milliseconds. */
  private budgetLeftMs: number;

  constructor(
    private readonly inner: StreamingChatResponseHandler,
    private readonly paceMs: number,
    private readonly signal?: AbortSignal | undefined,
    budgetMs: number = Infinity,
  ) {
    if (!Number.isFinite(paceMs) || paceMs < 0) throw new TypeError(`Expected paceMs to be a finite number >= 0, got ${String(paceMs)}`);
    if (Number.isNaN(budgetMs) || budgetMs < 0) throw new TypeError(`Expected budgetMs to be a number >= 0, got ${String(budgetMs)}`);
    this.budgetLeftMs = budgetMs;
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
    const waitMs = Math.min(this.paceMs, this.budgetLeftMs * BUDGET_SHARE);
    this.budgetLeftMs -= waitMs;
    // Below a millisecond a timer only costs a turn of the event loop: pass the delta on at once.
    if (waitMs < 1) return Promise.resolve();
    return sleep(waitMs, signal);
  }
}
