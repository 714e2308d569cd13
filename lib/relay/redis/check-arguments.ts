// Checks of what callers hand the Redis store: misuse is a TypeError that says what was expected.

import { RELAY_ID_PATTERN, type RelayBatch, type StopRequest } from '../response-store';

/** `value` as a positive integer of milliseconds; `fallback` when it is absent (required without one). */
export function positiveInteger(name: string, value: unknown, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected ${name} to be a positive integer of milliseconds, got ${typeof value === 'number' ? value : typeof value}`);
  }
  return value;
}

/** Throws unless `id` is a response or producer id. */
export function checkId(what: string, id: unknown): asserts id is string {
  if (typeof id !== 'string' || !RELAY_ID_PATTERN.test(id)) {
    throw new TypeError(`Expected ${what} matching ${String(RELAY_ID_PATTERN)}, got ${typeof id === 'string' ? JSON.stringify(id.slice(0, 140)) : typeof id}`);
  }
}

/** Throws unless `value` is a safe integer of at least `min`. */
export function checkSequence(what: string, value: unknown, min: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`Expected ${what} to be an integer of at least ${min}, got ${typeof value === 'number' ? value : typeof value}`);
  }
}

/** Throws unless `batch` is a well-formed batch. */
export function checkBatch(batch: RelayBatch): void {
  if (batch === null || typeof batch !== 'object') throw new TypeError(`Expected a batch {first, last, terminal, text}, got ${batch === null ? 'null' : typeof batch}`);
  checkSequence('batch.first', batch.first, 1);
  checkSequence('batch.last', batch.last, batch.first);
  if (typeof batch.terminal !== 'boolean') throw new TypeError(`Expected batch.terminal to be a boolean, got ${typeof batch.terminal}`);
  // A producer's batch carries its UTF-8 (its text is decoded only when read).
  if (batch.bytes !== undefined) {
    if (!(batch.bytes instanceof Uint8Array)) throw new TypeError(`Expected batch.bytes to be a Uint8Array, got ${typeof batch.bytes}`);
  } else if (typeof batch.text !== 'string') {
    throw new TypeError(`Expected batch.text to be a string, got ${typeof batch.text}`);
  }
}

/** Throws unless `batches` is a non-empty run of well-formed consecutive batches, only the last of which may be a terminal. */
export function checkBatches(batches: readonly RelayBatch[]): void {
  if (!Array.isArray(batches) || batches.length === 0) throw new TypeError(`Expected a non-empty array of batches, got ${Array.isArray(batches) ? 'an empty one' : typeof batches}`);
  for (let k = 0; k < batches.length; k++) {
    const batch = batches[k] as RelayBatch;
    checkBatch(batch);
    if (k > 0 && batch.first !== (batches[k - 1] as RelayBatch).last + 1)
      throw new TypeError(`Expected consecutive batches, got one from ${batch.first} after one to ${(batches[k - 1] as RelayBatch).last}`);
    if (batch.terminal && k < batches.length - 1) throw new TypeError(`Expected only the last batch to be a terminal, got one at position ${k} of ${batches.length}`);
  }
}

/** Throws unless `request` is a well-formed stop request. */
export function checkStop(request: StopRequest): void {
  if (request === null || typeof request !== 'object') throw new TypeError(`Expected a stop request {stopId, by, reason, at}, got ${request === null ? 'null' : typeof request}`);
  for (const field of ['stopId', 'by', 'at'] as const) {
    if (typeof request[field] !== 'string') throw new TypeError(`Expected stop request ${field} to be a string, got ${typeof request[field]}`);
  }
  if (request.reason !== null && typeof request.reason !== 'string') throw new TypeError(`Expected stop request reason to be a string or null, got ${typeof request.reason}`);
}
