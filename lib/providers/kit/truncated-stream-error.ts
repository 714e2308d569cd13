import { StreamError } from '../../handler/stream-error';

/**
 * The `StreamError` (kind `truncated`) for a stream that ended before its format's terminal
 * event (`terminal` names it, e.g. `message_stop`) or in the middle of a frame.
 */
export function truncatedStreamError(terminal: string, truncatedFrame: boolean): StreamError {
  return new StreamError('truncated', truncatedFrame ? `The stream ended in the middle of a frame, before ${terminal}` : `The stream ended before ${terminal}`);
}
