import type { RelayBatch } from './response-store';

/**
 * `batch` cut so that it starts at sequence `from` (first ≤ from ≤ last): its text from that
 * event's `id:` line on. The producer writes each event as `id: <n>\n…\n\n`, so an event starts
 * at the batch's start or right after a blank line. The batch itself when nothing is cut.
 */
export function trimBatch(batch: RelayBatch, from: number): RelayBatch {
  if (from <= batch.first) return batch;
  const at = batch.text.indexOf(`\n\nid: ${from}\n`);
  if (at === -1) throw new RangeError(`Expected event ${from} in the batch of events ${batch.first} to ${batch.last}`);
  return Object.freeze({ first: from, last: batch.last, terminal: batch.terminal, text: batch.text.slice(at + 2) });
}
