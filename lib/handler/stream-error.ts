/** What went wrong with a stream, as data. */
export type StreamErrorKind =
  /** The server answered with an HTTP error status. */
  | 'http'
  /** The provider sent an error event / error object in the stream or body. */
  | 'provider'
  /** The stream ended before the format's terminal event, or mid-frame. */
  | 'truncated'
  /** A frame could not be read and the format cannot continue past it. */
  | 'malformed'
  /** The body is not a stream of the expected (or any known) format. */
  | 'format'
  /** No bytes arrived within the idle timeout. */
  | 'timeout'
  /** The connection failed or was reset. */
  | 'network';

/** Options of a `StreamError`. */
export interface StreamErrorOptions {
  /** HTTP status, for `http` errors (and provider errors that carry one). */
  readonly status?: number | undefined;
  /** The provider's error body or error object, as received. */
  readonly body?: unknown;
  /** The provider's error type/code, when it sent one (e.g. `insufficient_quota`). */
  readonly code?: string | undefined;
  /** The offending frame's text, when one frame is to blame. */
  readonly frame?: string | undefined;
  readonly cause?: unknown;
}

/**
 * A stream failure (as opposed to a `HandlerCallbackError`, which is the user's callback
 * throwing). `kind` says what failed; `status`, `body`, `code` and `frame` carry the evidence.
 */
export class StreamError extends Error {
  readonly kind: StreamErrorKind;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly code: string | undefined;
  readonly frame: string | undefined;

  constructor(kind: StreamErrorKind, message: string, options: StreamErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StreamError';
    this.kind = kind;
    this.status = options.status;
    this.body = options.body;
    this.code = options.code;
    this.frame = options.frame;
    // Formatted at once: until its stack is read, V8 keeps every frame's receiver alive through the
    // error (the stream's whole run, its handler and what it aggregated), and a failed outcome's
    // error is often kept long after the stream.
    void this.stack;
  }

  /** True for a `StreamError` from any copy of partstream (ESM and CJS builds may coexist). */
  static isInstance(value: unknown): value is StreamError {
    return value instanceof StreamError || (value instanceof Error && value.name === 'StreamError' && typeof (value as { kind?: unknown }).kind === 'string');
  }
}
