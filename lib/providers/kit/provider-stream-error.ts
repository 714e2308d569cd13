import { StreamError } from '../../handler/stream-error';
import { nonBlankString } from '../../wire/read-json';
import { providerErrorDetails } from '../../wire/provider-error-body';

/** The message of an error event that holds no error a reader recognises. */
const NO_ERROR = 'The provider reported an error';

/**
 * The `StreamError` (kind `provider`) for an error a provider sent in the stream, read by the one
 * provider-error reader (`providerErrorDetails`) from `event` — the parsed event that is or holds
 * the error (`{"error": …}`, a flat `{"type": "error", …}`, a failed Responses response), or the
 * text of an `event: error` frame that is not JSON. Message, code and status are as that reader
 * says, `body` is the error as sent (the `error` member, else the flat object or the text), and
 * `frame` the frame's text when the format has one. An event the reader finds no error in fails
 * with `fallbackMessage`, its body the event.
 */
export function providerStreamError(event: unknown, frame: string | undefined, fallbackMessage: string = NO_ERROR): StreamError {
  if (typeof event === 'string') return new StreamError('provider', nonBlankString(event) ?? fallbackMessage, { body: event, frame });
  const details = providerErrorDetails(event);
  if (details === null) return new StreamError('provider', fallbackMessage, { body: event, frame });
  return new StreamError('provider', details.message, { body: details.error, code: details.code, status: details.status, frame });
}
