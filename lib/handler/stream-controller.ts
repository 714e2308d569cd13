import type { StreamingHandle } from './types';

/**
 * The `StreamingHandle` of one stream, backed by an `AbortController`: `cancel()` aborts
 * `signal` (which the transport listens to); calling it twice is harmless. An external
 * `AbortSignal` passed to the constructor cancels it too — at once when already aborted.
 * Call `dispose()` when the stream is over so a long-lived external signal keeps no reference.
 */
export class StreamController implements StreamingHandle {
  /** Aborted when the stream is cancelled, by `cancel()` or by the external signal. */
  readonly signal: AbortSignal;
  private readonly abortController = new AbortController();
  private external: AbortSignal | undefined;
  /** Mirrors `signal.aborted` as a plain field: it is read several times per token. */
  private cancelled = false;
  private readonly onExternalAbort = (): void => {
    this.cancel(this.external?.reason);
  };

  constructor(external?: AbortSignal) {
    this.signal = this.abortController.signal;
    if (external === undefined) return;
    if (!(external instanceof AbortSignal)) {
      throw new TypeError(`Expected an AbortSignal, got ${external === null ? 'null' : typeof external}`);
    }
    if (external.aborted) {
      this.cancelled = true;
      this.abortController.abort(external.reason);
      return;
    }
    this.external = external;
    external.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  /** Cancels the stream (idempotent). `reason` becomes `signal.reason`. */
  cancel(reason?: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.dispose();
    this.abortController.abort(reason);
  }

  /** True once `cancel()` was called or the external signal aborted. */
  isCancelled(): boolean {
    return this.cancelled;
  }

  /** Stops listening to the external signal (idempotent); the stream's own state is unchanged. */
  dispose(): void {
    if (this.external === undefined) return;
    this.external.removeEventListener('abort', this.onExternalAbort);
    this.external = undefined;
  }
}
