// One log entry is one batch: id `0-<first>`, fields `l` (last sequence), `t` (`1` when the batch
// ends with the terminal event) and `w` (the batch's SSE text). Entries are read back from the
// server and checked before they become batches.

import { RelayError, type RelayBatch } from '../response-store';
import type { RelayStreamEntry } from './relay-redis-client';

const LOG_ENTRY_ID = /^0-([1-9]\d{0,15})$/;
const SEQUENCE = /^[1-9]\d{0,15}$/;

/** The one method of Node's `Buffer` used here: a `Buffer` viewing an `ArrayBuffer`'s bytes (no copy). */
interface NodeBufferLike {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array;
}

/**
 * The text field of `batch`: the UTF-8 the producer wrote, as a Node `Buffer` viewing it (the
 * Redis libraries send a `Buffer` as it is, where a string costs an encoding), else its text.
 * `Buffer` is read as a guarded global: where there is none, the text is sent.
 */
function entryText(batch: RelayBatch): string | Uint8Array {
  const bytes = batch.bytes;
  if (bytes === undefined) return batch.text;
  return (globalThis as { Buffer?: NodeBufferLike }).Buffer?.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) ?? batch.text;
}

/** The fields of `batch`'s log entry. */
export function logEntryFields(batch: RelayBatch): (string | Uint8Array)[] {
  return ['l', String(batch.last), 't', batch.terminal ? '1' : '0', 'w', entryText(batch)];
}

function malformed(key: string, why: string): RelayError {
  return new RelayError('store', `Malformed entry in the response log ${key}: ${why}`);
}

/** The batch stored as `entry` of the log `key`; a malformed entry is a `RelayError('store')`. */
export function batchFromEntry(key: string, entry: RelayStreamEntry): RelayBatch {
  const id = LOG_ENTRY_ID.exec(entry.id);
  if (id === null) throw malformed(key, 'its id is not 0-<sequence>');
  const first = Number(id[1]);
  let last: string | undefined;
  let terminal: string | undefined;
  let text: string | undefined;
  const { fields } = entry;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const value = fields[i + 1] as string;
    switch (fields[i]) {
      case 'l':
        last ??= value;
        break;
      case 't':
        terminal ??= value;
        break;
      case 'w':
        text ??= value;
        break;
      default:
        break;
    }
  }
  if (last === undefined || !SEQUENCE.test(last) || Number(last) < first || !Number.isSafeInteger(Number(last))) {
    throw malformed(key, `entry ${entry.id} has no last sequence at or after its first`);
  }
  if (terminal !== '0' && terminal !== '1') throw malformed(key, `entry ${entry.id} has no terminal flag`);
  if (text === undefined) throw malformed(key, `entry ${entry.id} has no text`);
  return { first, last: Number(last), terminal: terminal === '1', text };
}
