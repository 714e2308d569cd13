import { describeValue } from '../parts/describe-value';
import { RELAY_ID_PATTERN } from './response-store';

/** Throws `TypeError('Expected <what> to match …')` unless `id` is a relay id (SPEC §13). */
export function checkRelayId(id: unknown, what: string): string {
  if (typeof id !== 'string' || !RELAY_ID_PATTERN.test(id)) {
    throw new TypeError(`Expected ${what} to match /^[A-Za-z0-9_.:-]{1,128}$/, got ${describeValue(id)}`);
  }
  return id;
}

/** A new 128-bit random id (32 hex digits), from the platform's `crypto` (Node ≥ 20 and browsers). */
export function randomRelayId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
