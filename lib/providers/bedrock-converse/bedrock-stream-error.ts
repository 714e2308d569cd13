import { StreamError } from '../../handler/stream-error';
import { describeValue } from '../../parts/describe-value';
import { isJsonObject, nonBlankString } from '../../wire/read-json';
import type { EventStreamFrame } from '../../wire/aws-eventstream/eventstream-decoder';

/**
 * Throws a `TypeError` unless `frame` is an `EventStreamFrame` (a string `messageType` and a
 * `payload` object): a mapper driven by hand gets a clear error.
 */
export function checkEventStreamFrame(frame: EventStreamFrame): void {
  if (typeof frame !== 'object' || frame === null || typeof frame.messageType !== 'string' || typeof frame.payload !== 'object' || frame.payload === null) {
    throw new TypeError(`Expected an event-stream frame {messageType, eventType, exceptionType, errorMessage, payload}, got ${describeValue(frame)}`);
  }
}

/**
 * The `StreamError` (kind `provider`) for an `exception` or `error` message of a Bedrock stream:
 * code = its exception type (`:exception-type`, e.g. `throttlingException`; `:error-code` for an
 * `error` message); message = the payload's non-blank `message`, else the `:error-message`
 * header, else the payload's text, else one naming the type; body = the payload as sent (its
 * value, or its text when it is not JSON).
 */
export function bedrockStreamError(frame: EventStreamFrame): StreamError {
  const code = nonBlankString(frame.exceptionType) ?? undefined;
  const body = frame.payload.ok ? frame.payload.value : frame.payload.text;
  const fromJson = frame.payload.ok && isJsonObject(frame.payload.value) ? nonBlankString(frame.payload.value.message) : null;
  const text = frame.payload.ok ? null : nonBlankString(frame.payload.text);
  const message = fromJson ?? nonBlankString(frame.errorMessage) ?? text ?? `Amazon Bedrock reported ${code ?? 'an error'} in the stream`;
  return new StreamError('provider', message, { body, code });
}
