import { describeValue } from '../parts/describe-value';
import type { ChatModelListener } from './chat-model-listener';

/** The process-wide listeners, on `globalThis` so that ESM and CJS copies of partstream share them. */
interface Registry {
  /** Replaced (never mutated) on each change, so a stream's snapshot is one read. */
  listeners: readonly ChatModelListener[];
}

const KEY = Symbol.for('partstream.listeners.v1');

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  let found = holder[KEY];
  if (found === undefined || found === null || typeof found !== 'object' || !Array.isArray(found.listeners)) {
    found = { listeners: [] };
    Object.defineProperty(holder, KEY, { value: found, configurable: true, writable: true, enumerable: false });
  }
  return found;
}

/** Throws a `TypeError` unless `listener` is an object (its methods are all optional). */
export function checkListener(listener: unknown, what = 'listener'): asserts listener is ChatModelListener {
  if (listener === null || (typeof listener !== 'object' && typeof listener !== 'function')) {
    throw new TypeError(`Expected ${what} to be a ChatModelListener object, got ${describeValue(listener)}`);
  }
}

/**
 * Adds a listener that observes every stream of the process (SPEC §14), after the listeners
 * registered before it; returns a function that removes it (idempotent). ESM and CJS copies of
 * partstream share one registry.
 */
export function addChatModelListener(listener: ChatModelListener): () => void {
  checkListener(listener);
  const shared = registry();
  shared.listeners = [...shared.listeners, listener];
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    const index = shared.listeners.indexOf(listener);
    if (index >= 0) shared.listeners = [...shared.listeners.slice(0, index), ...shared.listeners.slice(index + 1)];
  };
}

/** The process-wide listeners now (a frozen-by-convention snapshot). */
export function globalListeners(): readonly ChatModelListener[] {
  return registry().listeners;
}
