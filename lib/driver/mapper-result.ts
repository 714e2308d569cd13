import { describeValue } from '../parts/describe-value';

const ignore = (): void => undefined;

/**
 * True when `value`, which a mapper method returned, is a thenable (an `async` method's Promise);
 * its rejection is then silenced: it is the mapper's own defect, reported once already, and never
 * becomes an unhandled rejection. A hostile `then` (one that throws) cannot break the stream.
 */
function silenceThenable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    const then: unknown = (value as { then?: unknown }).then;
    if (typeof then !== 'function') return false;
    then.call(value, ignore, ignore);
  } catch {
    // A `then` that throws holds nothing to wait for.
  }
  return true;
}

/** `value` for a "got …" clause: a thenable is "a Promise", whatever it is. */
function describeResult(value: unknown): string {
  return silenceThenable(value) ? 'a Promise' : describeValue(value);
}

/**
 * The error for a `StreamMapper.map` that answered neither a boolean nor `undefined` (the driver
 * would otherwise take a truthy answer for "terminal event seen" and drop the rest of the body).
 */
export function mapResultError(value: unknown): TypeError {
  return new TypeError(`Expected the mapper's map() to return a boolean or undefined, got ${describeResult(value)}`);
}

/**
 * The error for a `StreamMapper.end` that returned a Promise (an `async end`, whose rejection is
 * silenced here): the driver does not wait for it, so a terminal callback it has not delivered
 * yet never comes. Null for any other value (a mapper's end is synchronous; what it returns is
 * ignored).
 */
export function endResultError(value: unknown): TypeError | null {
  if (!silenceThenable(value)) return null;
  return new TypeError("Expected the mapper's end() to deliver the terminal callback before it returns, got a Promise");
}
