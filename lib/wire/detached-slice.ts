/**
 * From this length on, a V8 slice is a view that keeps the whole string it was cut from alive;
 * shorter slices are copies.
 */
const VIEW_MIN_LENGTH = 13;

/**
 * A text of at most this many characters may stay alive through a view a decoder keeps: holding
 * such a view costs at most this much more than the fragment itself, and copying fragments of
 * small reads (a busy server's sockets hand out a few hundred bytes at a time) is measurable.
 */
const SMALL_TEXT = 1024;

/**
 * `value` as a string of its own (a copy when it may be a view into a longer string): what a
 * decoder holds between reads must not keep the whole chunk it was cut from alive, or an idle
 * stream would hold a network chunk rather than a line fragment.
 */
export function detached(value: string): string {
  return value.length < VIEW_MIN_LENGTH ? value : ` ${value}`.slice(1);
}

/** `value`, cut from `text`, as a string of its own unless `text` is small (see SMALL_TEXT). */
export function detachedFrom(value: string, text: string): string {
  return text.length <= SMALL_TEXT ? value : detached(value);
}

/** `text.slice(start)`, as a string of its own unless `text` is small; `text` itself when `start` is 0 (nothing is cut off). */
export function detachedSlice(text: string, start: number): string {
  return start === 0 ? text : detachedFrom(text.slice(start), text);
}
