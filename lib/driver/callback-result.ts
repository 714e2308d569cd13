/** How a callback's result turned out: not a promise, a promise now followed, or a `then` that threw on reading. */
export type FollowedResult = 'sync' | 'followed' | { readonly threw: unknown };

/**
 * Follows what a callback returned: a thenable is adopted and `settled(rejected, cause)` is called
 * once it settles (in a later microtask), anything else is `sync`. Reading `then` may throw (a
 * hostile getter): that is reported back, for the caller to treat like the callback throwing.
 * Adopting through a fresh promise copes with a `then` that throws, calls back twice or both
 * ways; the reaction handles a rejection, so it never goes unhandled.
 */
export function followResult(result: unknown, settled: (rejected: boolean, cause: unknown) => void): FollowedResult {
  if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return 'sync';
  let then: unknown;
  try {
    then = (result as { then?: unknown }).then;
  } catch (error) {
    return { threw: error };
  }
  if (typeof then !== 'function') return 'sync';
  new Promise<void>((resolve) => resolve(result as PromiseLike<void>)).then(
    () => settled(false, undefined),
    (error: unknown) => settled(true, error),
  );
  return 'followed';
}
