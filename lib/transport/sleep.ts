/**
 * Waits `ms`, or less when `signal` aborts: it then resolves at once (also when the signal was
 * already aborted), and the caller checks the signal. The listener is removed either way, so a
 * long-lived signal collects none.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
