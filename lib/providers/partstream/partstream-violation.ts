import { StreamError } from '../../handler/stream-error';

/**
 * A relay body that breaks the `partstream` v1 rules: `malformed` (a sequence gap or repeat, an
 * index the viewer's own counter did not give, a field of the wrong kind, a second `start`) or
 * `format` (a version other than 1). `frame` is the offending event's data, cut to 2 KiB.
 */
export function partstreamViolation(kind: 'malformed' | 'format', message: string, data?: string): StreamError {
  return new StreamError(kind, `Invalid partstream relay stream: ${message}`, data === undefined ? {} : { frame: data.slice(0, 2048) });
}
