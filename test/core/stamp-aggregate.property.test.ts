import { expect } from 'chai';
import fc from 'fast-check';
import type { AggregationChunk } from '../../lib/core/message-aggregator';
import { MessageAggregator } from '../../lib/core/message-aggregator';
import { streamedMessageArb } from './message-arbitraries';

function aggregateParts(chunks: readonly AggregationChunk[]) {
  const aggregator = new MessageAggregator();
  for (const chunk of chunks) aggregator.add(chunk);
  return aggregator.result().parts;
}

describe('StreamingPartIndexer → MessageAggregator (properties)', () => {
  it('(a) gives back exactly the message from its stamped deltas, with a response id', () => {
    fc.assert(
      fc.property(streamedMessageArb('resp_1'), ({ parts, chunks }) => {
        expect(aggregateParts(chunks)).to.deep.equal(parts);
      }),
      { seed: 7001, numRuns: 150 },
    );
  });

  it('(a) gives back exactly the message from its stamped deltas, without a response id', () => {
    fc.assert(
      fc.property(streamedMessageArb(undefined), ({ parts, chunks }) => {
        expect(aggregateParts(chunks)).to.deep.equal(parts);
      }),
      { seed: 7002, numRuns: 150 },
    );
  });

  it('(b) keeps two interleaved responses apart, as two groups in first-seen order', () => {
    const interleaving = fc
      .tuple(streamedMessageArb('resp_a', 'a_'), streamedMessageArb('resp_b', 'b_'))
      .chain(([a, b]) => fc.shuffledSubarray([...a.chunks.map(() => 'a'), ...b.chunks.map(() => 'b')], { minLength: a.chunks.length + b.chunks.length }).map((order) => ({ a, b, order })));
    fc.assert(
      fc.property(interleaving, ({ a, b, order }) => {
        const queues = { a: [...a.chunks], b: [...b.chunks] };
        const merged = order.map((which) => queues[which as 'a' | 'b'].shift() as AggregationChunk);
        const firstIndexed = merged.find((chunk) => chunk.parts.some((part) => part.attributes.partIndex !== undefined));
        const expected = firstIndexed?.id === 'resp_a' ? [...a.parts, ...b.parts] : [...b.parts, ...a.parts];
        expect(aggregateParts(merged)).to.deep.equal(expected);
      }),
      { seed: 7003, numRuns: 150 },
    );
  });
});
