// How Redis failures reach the relay: as a RelayError whose kind the relay acts on.

import { RelayError } from '../response-store';

/** True for the server's refusal of an explicit XADD id at or below the stream's last id. */
export function isIdTaken(error: unknown): boolean {
  return error instanceof Error && /equal or smaller than the target stream top item/i.test(error.message);
}

/** `error` as a RelayError: itself when it is one, else `store` with the server's message (cut short). */
export function storeError(what: string, error: unknown): RelayError {
  if (RelayError.isInstance(error)) return error;
  return new RelayError('store', `Redis ${what} failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`, { cause: error });
}
