import type { HandlerCallbackName } from './types';

/**
 * A readable description of whatever a callback threw. A thrown value can be hostile (a revoked
 * Proxy, a throwing `message` getter or `toString`), so every step is guarded: describing the
 * error must never throw in its turn.
 */
function messageOf(cause: unknown): string {
  try {
    if (cause instanceof Error) return String(cause.message);
  } catch {
    // fall through to String()
  }
  try {
    return String(cause);
  } catch {
    return `a thrown ${typeof cause} that cannot be described`;
  }
}

/**
 * A user callback threw. Delivered to `onError` so it can be told apart from a stream failure;
 * it ends nothing (the stream goes on). `callbackName` names the callback that threw and
 * `cause` is what it threw.
 */
export class HandlerCallbackError extends Error {
  /** The callback (or, for `ChatStream`, the listener's callback) that threw. */
  readonly callbackName: HandlerCallbackName;
  /** What the callback threw, as thrown. */
  declare readonly cause: unknown;

  constructor(callbackName: HandlerCallbackName, cause: unknown) {
    super(`Handler callback ${callbackName} threw: ${messageOf(cause)}`, { cause });
    this.name = 'HandlerCallbackError';
    this.callbackName = callbackName;
  }

  /** True for a `HandlerCallbackError` from any copy of partstream (ESM and CJS builds may coexist). */
  static isInstance(value: unknown): value is HandlerCallbackError {
    return value instanceof HandlerCallbackError || (value instanceof Error && value.name === 'HandlerCallbackError' && typeof (value as { callbackName?: unknown }).callbackName === 'string');
  }
}
