import { expect } from 'chai';
import fc from 'fast-check';
import { MessageAggregator } from '../../lib/core/message-aggregator';
import { tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { StreamingParts } from '../../lib/parts/streaming-parts';
import { streamedMessageArb } from './message-arbitraries';

describe('MessageAggregator#addIndexed and #addMetadata (internal fast paths)', () => {
  it('behaves exactly like add() of one-part chunks carrying the same id and stamps', () => {
    const twoResponses = fc.tuple(streamedMessageArb('resp_1', 'x_'), streamedMessageArb(undefined, 'y_'));
    fc.assert(
      fc.property(twoResponses, ([first, second]) => {
        const viaAdd = new MessageAggregator();
        const viaFastPath = new MessageAggregator();
        for (const chunk of [...first.chunks, ...second.chunks]) {
          viaAdd.add(chunk);
          for (const part of chunk.parts) {
            const index = StreamingParts.partIndex(part);
            viaFastPath.addIndexed(chunk.id ?? null, StreamingParts.strip(part), index ?? -1, StreamingParts.isPartial(part));
          }
          viaFastPath.addMetadata({ id: chunk.id, usage: chunk.usage });
        }
        // The generated message itself is the expected result; add() is the reference for the metadata.
        expect(viaFastPath.result().parts).to.deep.equal([...first.parts, ...second.parts]);
        expect(viaFastPath.result()).to.deep.equal(viaAdd.result());
      }),
      { seed: 4242, numRuns: 100 },
    );
  });

  it('treats a tool_call part with partial=true as an argument delta', () => {
    const aggregator = new MessageAggregator();
    aggregator.addIndexed('r1', toolCallPart({ id: 'c1', name: 'f', arguments: '{"a"' }), 0, true);
    aggregator.addIndexed('r1', toolCallPart({ id: 'c1', arguments: ':1}' }), 0, true);
    aggregator.addIndexed('r1', textPart('after'), 1, true);
    expect(aggregator.result().parts).to.deep.equal([toolCallPart({ id: 'c1', name: 'f', arguments: '{"a":1}' }), textPart('after')]);
  });

  it('adds a part with a negative index as unindexed', () => {
    const aggregator = new MessageAggregator();
    aggregator.addIndexed('r1', reasoningPart('r'), 0, true);
    aggregator.addIndexed('r1', textPart(''), -1, false);
    expect(aggregator.result()).to.deep.equal({ id: 'r1', modelName: null, parts: [reasoningPart('r')], usage: null, finishReason: null });
  });

  it('records metadata without parts', () => {
    const aggregator = new MessageAggregator();
    aggregator.addMetadata({ id: 'r1', modelName: 'm', usage: tokenUsage(1, 2, 3) });
    aggregator.addMetadata({ finishReason: 'TOOL_EXECUTION' });
    expect(aggregator.result()).to.deep.equal({
      id: 'r1',
      modelName: 'm',
      parts: [],
      usage: tokenUsage(1, 2, 3),
      finishReason: 'TOOL_EXECUTION',
    });
  });

  it('rejects a null part, a non-string text and bad metadata naming them', () => {
    const aggregator = new MessageAggregator();
    expect(() => aggregator.addIndexed('r1', null as never, 0, true)).to.throw(TypeError, 'Expected part to be a message part, got null');
    expect(() => aggregator.addIndexed('r1', { ...textPart('a'), text: null } as never, 0, true)).to.throw(
      TypeError,
      'Expected part.text to be a string, got null',
    );
    expect(() => aggregator.addMetadata(null as never)).to.throw(TypeError, 'Expected meta to be an object, got null');
    expect(() => aggregator.addMetadata({ modelName: 3 as never })).to.throw(TypeError, 'Expected meta.modelName to be a string or null, got number 3');
    expect(aggregator.result().parts).to.deep.equal([]);
  });
});
