/**
 * Aggregates N text deltas into one slot and prints the time taken, for N = 10^5 and 10^6, through
 * the public `add()` path (stamped one-part chunks) and the response core's per-token `delta()`. Linear
 * aggregation shows as a ratio near 10; anything that copied the accumulated text per delta would
 * show near 100.
 *
 * Run: npx ts-node --transpile-only bench/aggregate-linear.ts
 */
import { MessageAggregator } from '../lib/core/message-aggregator';
import { ResponseCore } from '../lib/core/response-core';
import { textPart } from '../lib/parts/factories';
import { StreamingParts } from '../lib/parts/streaming-parts';
import type { MessagePart } from '../lib/parts/types';

const WORDS = ['The ', 'quick ', 'brown ', 'fox ', 'jumps ', 'over ', 'the ', 'lazy ', 'dog. '];
const plain: MessagePart[] = WORDS.map((word) => textPart(word));
const stamped: MessagePart[] = plain.map((part) => StreamingParts.partial(part, 0));

function viaAdd(n: number): { ms: number; length: number } {
  const aggregator = new MessageAggregator();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) aggregator.add({ id: 'resp_1', parts: [stamped[i % stamped.length]] });
  const result = aggregator.result();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, length: result.parts[0].type === 'text' ? result.parts[0].text.length : -1 };
}

function viaCore(n: number): { ms: number; length: number } {
  const core = new ResponseCore();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) core.delta('text', WORDS[i % WORDS.length], null);
  const result = core.response().aiMessage;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, length: result.parts[0].type === 'text' ? result.parts[0].text.length : -1 };
}

function report(label: string, run: (n: number) => { ms: number; length: number }): void {
  run(100_000); // warm-up
  const small = run(100_000);
  const large = run(1_000_000);
  console.log(`${label}: 10^5 deltas ${small.ms.toFixed(1)} ms, 10^6 deltas ${large.ms.toFixed(1)} ms ` + `(ratio ${(large.ms / small.ms).toFixed(1)}, ${large.length} chars)`);
}

report('add()       ', viaAdd);
report('core delta()', viaCore);
