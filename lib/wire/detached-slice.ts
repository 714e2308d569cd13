/**
 * From this length on, a V8 slice is a view that keeps the whole string it was cut from alive;
 * shorter slices are copies.
 */
const VIEW_MIN_LENGTH = 13;

/**
 * `value` as a string of its own (a copy when it may be a view into a longer string): what a
 * decoder holds between reads must not keep the whole chunk it was cut from alive, or an idle
 * stream would hold a network chunk rather than a line fragment.
 */
export function detached(value: string): string {
  return value.length < VIEW_MIN_LENGTH ? value : ` ${value}`.slice(1);
}

/** `text.slice(start)` as a string of its own; `text` itself when `start` is 0 (nothing is cut off). */
export function detachedSlice(text: string, start: number): string {
  return start === 0 ? text : detached(text.slice(start));
}
