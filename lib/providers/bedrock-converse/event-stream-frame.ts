// To be replaced by the export of lib/wire/aws-eventstream/eventstream-decoder.ts once that
// decoder is merged: this is the same type, kept here so that the mapper can be written and
// tested against it before then.

/**
 * One decoded `application/vnd.amazon.eventstream` message: its `:message-type`, the headers
 * that name what it carries, and its payload read as JSON (or kept as text when it is not JSON).
 */
export interface EventStreamFrame {
  /** `:message-type`: `event`, `exception` or `error`. */
  readonly messageType: string;
  /** `:event-type` (for `event`), else null. */
  readonly eventType: string | null;
  /** `:exception-type` (for `exception`), `:error-code` (for `error`), else null. */
  readonly exceptionType: string | null;
  /** `:error-message` (for `error`), else null. */
  readonly errorMessage: string | null;
  /** `JSON.parse` of the UTF-8 payload, or its text when it is not JSON. */
  readonly payload: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string };
}
