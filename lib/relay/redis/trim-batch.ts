// A read that starts inside a batch gets that batch cut at its event `from`: the batch text is the
// producer's SSE, where every event opens with its `id: <sequence>` line and ends with a blank line.

import { RelayError, type RelayBatch } from '../response-store';

/**
 * `batch` from its event `from` on (`batch.first <= from <= batch.last`); the batch itself when
 * `from` is its first event. A text without that event is a `RelayError('store')`.
 */
export function trimBatch(batch: RelayBatch, from: number): RelayBatch {
  if (from <= batch.first) return batch;
  const marker = `\n\nid: ${from}\n`;
  const at = batch.text.indexOf(marker);
  if (at < 0) throw new RelayError('store', `The stored batch ${batch.first}…${batch.last} holds no event ${from}`);
  return { first: from, last: batch.last, terminal: batch.terminal, text: batch.text.slice(at + 2) };
}
