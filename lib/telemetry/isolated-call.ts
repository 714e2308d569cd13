import { describeError } from '../handler/describe-error';
import type { ChatModelListener } from './chat-model-listener';

/** Listeners already warned about: one warning per listener object. */
const warned = new WeakSet<object>();

/**
 * Reports that `listener[hook]` failed: one warning per listener object, through the host's
 * `process.emitWarning` where there is one (code `PARTSTREAM_LISTENER_ERROR`), else `console.warn`.
 */
export function warnListener(listener: ChatModelListener, hook: string, error: unknown): void {
  if (warned.has(listener)) return;
  warned.add(listener);
  const message = `A ChatModelListener's ${hook} failed (further failures of this listener are not reported): ${describeError(error)}`;
  // Read through `?.`: there is no `process` in a browser or a worker.
  const host = globalThis as { process?: { emitWarning?: (message: string, options: { code: string }) => void } };
  try {
    if (typeof host.process?.emitWarning === 'function') host.process?.emitWarning(message, { code: 'PARTSTREAM_LISTENER_ERROR' });
    else console.warn(message);
  } catch {
    // A warning that cannot be shown must not touch the stream either.
  }
}

function caught(listener: ChatModelListener, hook: string): (error: unknown) => void {
  return (error) => warnListener(listener, hook, error);
}

/**
 * Calls `listener[hook](context)` as an isolated observer: a throw, or the rejection of a returned
 * promise (not awaited), becomes one warning per listener and nothing else.
 */
export function callListener(listener: ChatModelListener, hook: keyof ChatModelListener, context: unknown): void {
  try {
    const method = listener[hook] as ((context: unknown) => unknown) | undefined;
    if (typeof method !== 'function') return;
    const result = method.call(listener, context);
    if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
      (result as PromiseLike<unknown>).then(undefined, caught(listener, hook));
    }
  } catch (error) {
    warnListener(listener, hook, error);
  }
}
