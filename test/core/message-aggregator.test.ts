import { expect } from 'chai';
import type { AggregatedMessage, AggregationChunk } from '../../lib/core/message-aggregator';
import { MessageAggregator } from '../../lib/core/message-aggregator';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart } from '../../lib/parts/factories';
import { StreamingPartIndexer } from '../../lib/parts/streaming-part-indexer';
import { StreamingParts } from '../../lib/parts/streaming-parts';
import type { MessagePart } from '../../lib/parts/types';

const { partial, complete } = StreamingParts;
const signature = (data: string) => ({ provider: 'anthropic', kind: 'signature', data });
const call = (id: string, args = '{}') => toolCallPart({ id, type: 'function', name: 'weather', arguments: args });
const argDelta = (id: string | null, args: string, name: string | null = 'weather') => toolCallPart({ id, name, arguments: args });
const image = mediaPart({ id: null, mimeType: 'image/png', name: null, dataKind: 'url', data: 'https://x/a.png' });

function aggregate(chunks: readonly AggregationChunk[]): AggregatedMessage {
  const aggregator = new MessageAggregator();
  for (const chunk of chunks) aggregator.add(chunk);
  return aggregator.result();
}

/** One chunk per part, all with the given id (or none). */
function partsOf(parts: readonly MessagePart[], id?: string): MessagePart[] {
  return aggregate(parts.map((part) => ({ id, parts: [part] }))).parts;
}

const empty: AggregatedMessage = { id: null, modelName: null, parts: [], usage: null, finishReason: null };

describe('MessageAggregator', () => {
  describe('indexed slots', () => {
    it('aggregates the seed example into reasoning "Think more.", text "Hello" and the tool call, in that order', () => {
      const indexer = new StreamingPartIndexer();
      const stamped = [reasoningPart('Think '), reasoningPart('more.'), textPart('Hel'), textPart('lo'), call('c1')].map((p) => indexer.stamp(p));
      expect(aggregate(stamped.map((part) => ({ parts: [part] })))).to.deep.equal({
        ...empty,
        parts: [reasoningPart('Think more.'), textPart('Hello'), call('c1')],
      });
    });

    it('appends reasoning text and summary, each staying null until a delta carries one', () => {
      const parts = partsOf([partial(reasoningPart(null, { summary: 'Sum' }), 0), partial(reasoningPart('A', { summary: null }), 0), partial(reasoningPart('B', { summary: 'mary' }), 0)]);
      expect(parts).to.deep.equal([reasoningPart('AB', { summary: 'Summary' })]);
    });

    it('keeps reasoning text null when no delta carried any', () => {
      expect(partsOf([partial(reasoningPart(null, { summary: 'S' }), 0)])).to.deep.equal([reasoningPart(null, { summary: 'S' })]);
    });

    it('lets a non-null payload replace the stored one and a null payload keep it', () => {
      const parts = partsOf([
        partial(reasoningPart('a', { payload: signature('one') }), 0),
        partial(reasoningPart('b'), 0),
        partial(reasoningPart('', { payload: signature('two') }), 0),
        partial(reasoningPart('c'), 0),
      ]);
      expect(parts).to.deep.equal([reasoningPart('abc', { payload: signature('two') })]);
    });

    it('replaces accumulated deltas with a complete part of the same index', () => {
      const parts = partsOf([partial(textPart('Hel'), 0), partial(textPart('lo'), 0), complete(textPart('Hello!'), 0)], 'r1');
      expect(parts).to.deep.equal([textPart('Hello!')]);
    });

    it('replaces the slot with a part of another type (same response id)', () => {
      expect(partsOf([partial(textPart('a'), 0), partial(reasoningPart('b'), 0)], 'r1')).to.deep.equal([reasoningPart('b')]);
    });

    it('replaces rather than appends partial parts of kinds that have nothing to append', () => {
      const parts = partsOf([partial(unknownPart('p', 'k', '{"a":1}'), 0), partial(unknownPart('p', 'k', '{"a":2}'), 0)]);
      expect(parts).to.deep.equal([unknownPart('p', 'k', '{"a":2}')]);
    });

    it('takes the attributes of the last part of the slot, streaming attributes stripped', () => {
      const parts = partsOf([partial(textPart('a', { attributes: { itemId: 'msg_1', first: 'y' } }), 0), partial(textPart('b', { attributes: { itemId: 'msg_2' } }), 0), complete(call('c1'), 1)]);
      expect(parts).to.deep.equal([textPart('ab', { attributes: { itemId: 'msg_2' } }), call('c1')]);
    });

    it('orders slots by index, not by arrival', () => {
      const parts = partsOf([complete(call('c2'), 2), partial(textPart('t'), 1), partial(reasoningPart('r'), 0)], 'r1');
      expect(parts).to.deep.equal([reasoningPart('r'), textPart('t'), call('c2')]);
    });

    it('merges several parts of one chunk', () => {
      const result = aggregate([{ parts: [partial(reasoningPart('r'), 0), partial(textPart('a'), 1)] }, { parts: [partial(textPart('b'), 1), complete(call('c1'), 2)] }]);
      expect(result.parts).to.deep.equal([reasoningPart('r'), textPart('ab'), call('c1')]);
    });

    it('reads the partial flag in any case', () => {
      const flagged = (text: string) => textPart(text, { attributes: { partIndex: '0', partial: 'TRUE' } });
      expect(partsOf([flagged('a'), flagged('b')])).to.deep.equal([textPart('ab')]);
    });
  });

  describe('tool-call deltas', () => {
    it('accumulates argument deltas and lets the complete call replace them', () => {
      const parts = partsOf([
        partial(argDelta('c1', '{"ci'), 0),
        partial(argDelta('c1', 'ty":"Oslo"}'), 0),
        complete(toolCallPart({ id: 'c1', type: 'function', name: 'weather', arguments: '{"city":"Oslo"}' }), 0),
      ]);
      expect(parts).to.deep.equal([toolCallPart({ id: 'c1', type: 'function', name: 'weather', arguments: '{"city":"Oslo"}' })]);
    });

    it('keeps the accumulated deltas as the tool call when the complete call never arrives', () => {
      const parts = partsOf([partial(textPart('Let me check'), 0), partial(argDelta('c1', '{"city":'), 1), partial(argDelta('c1', '"Os'), 1)]);
      expect(parts).to.deep.equal([textPart('Let me check'), toolCallPart({ id: 'c1', name: 'weather', arguments: '{"city":"Os' })]);
    });

    it('takes id, name and type from the first delta and overwrites them only with non-blank values', () => {
      const parts = partsOf([
        partial(toolCallPart({ id: 'c1', type: 'function', name: 'weather', arguments: '{' }), 0),
        partial(toolCallPart({ id: '', type: ' ', name: null, arguments: '"a":1' }), 0),
        partial(toolCallPart({ id: null, type: 'custom', name: 'forecast', arguments: null }), 0),
        partial(toolCallPart({ id: 'c1b', type: null, name: '', arguments: '}' }), 0),
      ]);
      expect(parts).to.deep.equal([toolCallPart({ id: 'c1b', type: 'custom', name: 'forecast', arguments: '{"a":1}' })]);
    });

    it('keeps blank values of the first delta until a non-blank one arrives', () => {
      const parts = partsOf([partial(toolCallPart({ id: '', name: null, arguments: null }), 0)]);
      expect(parts).to.deep.equal([toolCallPart({ id: '', name: null, arguments: null })]);
    });

    it('lets a non-null delta payload replace the stored one', () => {
      const thought = { provider: 'gemini', kind: 'thoughtSignature', data: 'ts' };
      const parts = partsOf([partial(argDelta('c1', '{', 'f'), 0), partial(toolCallPart({ id: 'c1', arguments: '}' }, { payload: thought }), 0)]);
      expect(parts).to.deep.equal([toolCallPart({ id: 'c1', name: 'f', arguments: '{}' }, { payload: thought })]);
    });

    it('does not raise the highest index: a text delta after a later-indexed argument delta continues its part (no id)', () => {
      const parts = partsOf([partial(textPart('a'), 0), partial(argDelta('c1', '{}'), 1), partial(textPart('b'), 0)]);
      expect(parts).to.deep.equal([textPart('ab'), argDelta('c1', '{}')]);
    });

    it('does not start a group when deltas of parallel calls interleave (no id)', () => {
      const parts = partsOf([
        partial(argDelta('a', '{"x":'), 0),
        partial(argDelta('b', '{"y":'), 1),
        partial(argDelta('a', '1}'), 0),
        partial(argDelta('b', '2}'), 1),
        complete(call('a', '{"x":1}'), 0),
        complete(call('b', '{"y":2}'), 1),
      ]);
      expect(parts).to.deep.equal([call('a', '{"x":1}'), call('b', '{"y":2}')]);
    });

    it('does not start a group when a delta reaches a slot holding a complete part (no id)', () => {
      const parts = partsOf([complete(call('c1'), 0), partial(argDelta('c1', 'late'), 0), partial(textPart('t'), 1)]);
      expect(parts).to.deep.equal([call('c1'), textPart('t')]);
    });

    it('lets the complete call arrive at its deltas slot without starting a group (no id)', () => {
      const indexer = new StreamingPartIndexer();
      const stamped = [
        indexer.stamp(reasoningPart('Let me ')),
        indexer.stampToolCallDelta(argDelta('c1', '{"q":')),
        indexer.stamp(reasoningPart('check.')),
        indexer.stampToolCallDelta(argDelta('c1', '1}')),
        indexer.stamp(call('c1', '{"q":1}')),
        indexer.stamp(textPart('Done.')),
      ];
      expect(partsOf(stamped)).to.deep.equal([reasoningPart('Let me check.'), call('c1', '{"q":1}'), textPart('Done.')]);
    });
  });

  describe('groups', () => {
    it('groups by response id in first-seen order when two responses interleave', () => {
      const result = aggregate([
        { id: 'r1', parts: [partial(textPart('Hel'), 0)] },
        { id: 'r2', parts: [partial(textPart('Bon'), 0)] },
        { id: 'r1', parts: [partial(textPart('lo'), 0)] },
        { id: 'r2', parts: [partial(textPart('jour'), 0), complete(call('c2'), 1)] },
        { id: 'r1', parts: [complete(call('c1'), 1)] },
      ]);
      expect(result.parts).to.deep.equal([textPart('Hello'), call('c1'), textPart('Bonjour'), call('c2')]);
    });

    it('with an id, appends a partial that arrives after a complete part of the same type', () => {
      expect(partsOf([complete(textPart('Hello'), 0), partial(textPart(' world'), 0)], 'r1')).to.deep.equal([textPart('Hello world')]);
    });

    it('with an id, lets a repeated complete part replace the slot', () => {
      expect(partsOf([complete(call('c1', '{}'), 0), complete(call('c1', '{"a":1}'), 0)], 'r1')).to.deep.equal([call('c1', '{"a":1}')]);
    });

    it('with an id, never splits on a backwards index', () => {
      expect(partsOf([partial(textPart('a'), 1), partial(reasoningPart('r'), 0), partial(textPart('b'), 1)], 'r1')).to.deep.equal([reasoningPart('r'), textPart('ab')]);
    });

    it('without an id, starts a group when the index goes below the highest index', () => {
      const parts = partsOf([partial(textPart('round one'), 0), complete(call('c1'), 1), partial(textPart('round two'), 0)]);
      expect(parts).to.deep.equal([textPart('round one'), call('c1'), textPart('round two')]);
    });

    it('without an id, continues the group when the index stays at the highest index', () => {
      expect(partsOf([partial(reasoningPart('r'), 0), partial(textPart('a'), 1), partial(textPart('b'), 1)])).to.deep.equal([reasoningPart('r'), textPart('ab')]);
    });

    it('without an id, starts a group when the slot already holds a complete part', () => {
      expect(partsOf([complete(call('c1'), 0), complete(call('c2'), 0)])).to.deep.equal([call('c1'), call('c2')]);
      expect(partsOf([complete(textPart('a'), 0), partial(textPart('b'), 0)])).to.deep.equal([textPart('a'), textPart('b')]);
    });

    it('without an id, starts a group when the slot holds a part of another type', () => {
      expect(partsOf([partial(reasoningPart('r'), 0), partial(textPart('t'), 0)])).to.deep.equal([reasoningPart('r'), textPart('t')]);
    });

    it('without an id, lets a complete part replace deltas of its own type', () => {
      expect(partsOf([partial(textPart('a'), 0), complete(textPart('abc'), 0)])).to.deep.equal([textPart('abc')]);
    });

    it('without an id, starts a group when the last group has an id', () => {
      const result = aggregate([{ id: 'r1', parts: [partial(textPart('with id'), 0)] }, { parts: [partial(textPart('without'), 0)] }, { parts: [partial(textPart(' id'), 0)] }]);
      expect(result.parts).to.deep.equal([textPart('with id'), textPart('without id')]);
    });

    it('treats a blank id as no id', () => {
      expect(partsOf([partial(textPart('a'), 0), partial(reasoningPart('b'), 0)], '  ')).to.deep.equal([textPart('a'), reasoningPart('b')]);
    });
  });

  describe('unindexed parts (legacy)', () => {
    it('concatenates unindexed text into one text part', () => {
      expect(partsOf([textPart('Hel'), textPart(''), textPart('lo')])).to.deep.equal([textPart('Hello')]);
    });

    it('keeps the last non-null text payload and the last text attributes', () => {
      const parts = partsOf([textPart('a', { payload: signature('s'), attributes: { x: '1' } }), textPart('b', { attributes: { y: '2' } })]);
      expect(parts).to.deep.equal([textPart('ab', { payload: signature('s'), attributes: { y: '2' } })]);
    });

    it('appends unindexed tool calls in arrival order', () => {
      expect(partsOf([call('c1'), call('c2'), call('c1')])).to.deep.equal([call('c1'), call('c2'), call('c1')]);
    });

    it('carries reasoning, unknown parts and tool results in arrival order and drops media', () => {
      const result = toolResultPart({ id: 'c1', content: [textPart('sunny')] });
      const parts = partsOf([unknownPart('p', 'k', '{}'), image, reasoningPart('r1'), result, reasoningPart('r2')]);
      expect(parts).to.deep.equal([unknownPart('p', 'k', '{}'), reasoningPart('r1'), result, reasoningPart('r2')]);
    });

    it('orders the result: indexed slots, carried parts, the text, then the unindexed tool calls', () => {
      const parts = partsOf(
        [call('u1'), textPart('plain '), reasoningPart('carried'), partial(textPart('indexed'), 1), textPart('text'), partial(reasoningPart('first'), 0), call('u2'), unknownPart('p', 'k', '{}')],
        'r1',
      );
      expect(parts).to.deep.equal([reasoningPart('first'), textPart('indexed'), reasoningPart('carried'), unknownPart('p', 'k', '{}'), textPart('plain text'), call('u1'), call('u2')]);
    });

    it('drops empty unindexed text when something was indexed', () => {
      expect(partsOf([partial(textPart('a'), 0), textPart(''), textPart('')])).to.deep.equal([textPart('a')]);
    });

    it('keeps an empty text part when nothing was indexed and an unindexed text part arrived', () => {
      expect(partsOf([textPart('')])).to.deep.equal([textPart('')]);
      expect(partsOf([call('c1'), textPart('')])).to.deep.equal([textPart(''), call('c1')]);
    });

    it('adds no text part when no text part arrived', () => {
      expect(aggregate([{ parts: [] }])).to.deep.equal(empty);
    });

    it('reads a malformed or negative index as no index', () => {
      const bad = (text: string, partIndex: string) => textPart(text, { attributes: { partIndex, partial: 'true', keep: 'me' } });
      const parts = partsOf([partial(reasoningPart('r'), 0), bad('a', 'abc'), bad('b', '1.5'), bad('c', '-1'), bad('d', '99999999999')]);
      expect(parts).to.deep.equal([reasoningPart('r'), textPart('abcd', { attributes: { keep: 'me' } })]);
    });

    it('strips streaming attributes from carried parts and tool calls', () => {
      const flagged = { attributes: { partial: 'true', partIndex: 'x', id: 'i' } };
      const parts = partsOf([reasoningPart('r', flagged), toolCallPart({ id: 'c' }, flagged)]);
      expect(parts).to.deep.equal([reasoningPart('r', { attributes: { id: 'i' } }), toolCallPart({ id: 'c' }, { attributes: { id: 'i' } })]);
    });
  });

  describe('usage and metadata', () => {
    const usage = (input: number | null, output: number | null, total: number | null, [cacheRead, cacheWrite, reasoning]: ReadonlyArray<number | null> = [null, null, null]) => ({
      inputTokenCount: input,
      outputTokenCount: output,
      totalTokenCount: total,
      cacheReadInputTokenCount: cacheRead,
      cacheWriteInputTokenCount: cacheWrite,
      reasoningTokenCount: reasoning,
    });

    it('keeps the last positive value per field', () => {
      const result = aggregate([
        { parts: [], usage: usage(10, 1, 11) },
        { parts: [], usage: usage(0, 5, null) },
        { parts: [], usage: usage(null, 7, 0) },
        { parts: [], usage: usage(12, null, 19) },
      ]);
      expect(result.usage).to.deep.equal(usage(12, 7, 19));
    });

    it('ignores chunks that report no tokens', () => {
      const result = aggregate([{ parts: [], usage: usage(3, 4, 7) }, { parts: [] }, { parts: [], usage: null }, { parts: [], usage: usage(0, 0, 0) }]);
      expect(result.usage).to.deep.equal(usage(3, 4, 7));
    });

    it('reports null usage when no chunk reported any tokens', () => {
      expect(aggregate([{ parts: [], usage: usage(0, null, 0) }, { parts: [] }]).usage).to.equal(null);
    });

    it('keeps per detail (cache read, cache write, reasoning) the last value reported, 0 included', () => {
      const result = aggregate([
        { parts: [], usage: usage(10, 1, 11, [4, 2, 1]) },
        { parts: [], usage: usage(10, 5, 15, [0, null, 3]) },
        { parts: [], usage: usage(null, null, null, [null, null, null]) },
      ]);
      expect(result.usage).to.deep.equal(usage(10, 5, 15, [0, 2, 3]));
    });

    it('reports usage when a chunk reported only a detail', () => {
      expect(aggregate([{ parts: [], usage: usage(null, null, null, [null, 0, null]) }]).usage).to.deep.equal(usage(null, null, null, [null, 0, null]));
    });

    it('reads a usage object made without the details as reporting none', () => {
      const legacy = { inputTokenCount: 2, outputTokenCount: 3, totalTokenCount: 5 } as unknown as ReturnType<typeof usage>;
      expect(aggregate([{ parts: [], usage: legacy }]).usage).to.deep.equal(usage(2, 3, 5));
    });

    it('keeps a field null that was never reported', () => {
      expect(aggregate([{ parts: [], usage: usage(null, 9, null) }]).usage).to.deep.equal(usage(null, 9, null));
    });

    it('takes the last non-blank id, model name and finish reason', () => {
      const result = aggregate([
        { id: 'r1', modelName: 'm1', parts: [], finishReason: 'LENGTH' },
        { id: ' ', modelName: '', parts: [], finishReason: null },
        { id: 'r2', modelName: 'm2', parts: [] },
        { id: null, modelName: null, parts: [], finishReason: 'STOP' },
      ]);
      expect(result).to.deep.equal({ ...empty, id: 'r2', modelName: 'm2', finishReason: 'STOP' });
    });

    it('returns an empty aggregate before any chunk', () => {
      expect(new MessageAggregator().result()).to.deep.equal(empty);
    });

    it('keeps aggregating after result() was called', () => {
      const aggregator = new MessageAggregator();
      aggregator.add({ id: 'r1', parts: [partial(textPart('Hel'), 0)] });
      const first = aggregator.result();
      aggregator.add({ id: 'r1', parts: [partial(textPart('lo'), 0)], finishReason: 'STOP' });
      expect([first, aggregator.result()]).to.deep.equal([
        { ...empty, id: 'r1', parts: [textPart('Hel')] },
        { ...empty, id: 'r1', parts: [textPart('Hello')], finishReason: 'STOP' },
      ]);
    });

    it('returns a fresh parts array that the caller may change', () => {
      const aggregator = new MessageAggregator();
      aggregator.add({ parts: [partial(textPart('a'), 0)] });
      aggregator.result().parts.push(textPart('mine'));
      expect(aggregator.result().parts).to.deep.equal([textPart('a')]);
    });
  });

  describe('bad input', () => {
    it('rejects a null chunk naming it', () => {
      expect(() => new MessageAggregator().add(null as never)).to.throw(TypeError, 'Expected chunk to be an object, got null');
    });

    it('rejects a chunk without a parts array', () => {
      expect(() => new MessageAggregator().add({} as never)).to.throw(TypeError, 'Expected chunk.parts to be an array of parts, got undefined');
    });

    it('rejects a null part naming its position', () => {
      expect(() => new MessageAggregator().add({ parts: [textPart('a'), null as never] })).to.throw(TypeError, 'Expected chunk.parts[1] to be a message part, got null');
    });

    it('rejects a non-string text naming the field', () => {
      const bad = { ...textPart('a'), text: 5 } as unknown as MessagePart;
      expect(() => new MessageAggregator().add({ parts: [bad] })).to.throw(TypeError, 'Expected chunk.parts[0].text to be a string, got number 5');
    });

    it('rejects non-string tool-call arguments naming the field', () => {
      const bad = { ...call('c1'), toolCall: { id: 'c1', type: null, name: 'f', arguments: {} } } as unknown as MessagePart;
      expect(() => new MessageAggregator().add({ parts: [bad] })).to.throw(TypeError, 'Expected chunk.parts[0].toolCall.arguments to be a string, got an object');
    });

    it('rejects bad metadata naming the field', () => {
      const aggregator = new MessageAggregator();
      expect(() => aggregator.add({ parts: [], id: 5 as never })).to.throw(TypeError, 'Expected chunk.id to be a string or null, got number 5');
      expect(() => aggregator.add({ parts: [], finishReason: 'stop' as never })).to.throw(TypeError, /Expected chunk.finishReason to be 'STOP'/);
      expect(() => aggregator.add({ parts: [], usage: { inputTokenCount: '3' } as never })).to.throw(TypeError, 'Expected chunk.usage.inputTokenCount to be a number or null, got string "3"');
    });

    it('leaves the aggregate untouched when it rejects a chunk', () => {
      const aggregator = new MessageAggregator();
      aggregator.add({ id: 'r1', parts: [partial(textPart('a'), 0)] });
      expect(() => aggregator.add({ id: 'r2', parts: [partial(textPart('b'), 0), null as never], finishReason: 'STOP' })).to.throw(TypeError);
      expect(aggregator.result()).to.deep.equal({ ...empty, id: 'r1', parts: [textPart('a')] });
    });
  });

  describe('#aggregate', () => {
    async function* source(chunks: readonly AggregationChunk[]): AsyncGenerator<AggregationChunk> {
      for (const chunk of chunks) yield chunk;
    }

    it('yields the chunks through unchanged and hands the aggregate to onComplete at the end', async () => {
      const chunks: AggregationChunk[] = [
        { id: 'r1', parts: [partial(textPart('Hel'), 0)] },
        { id: 'r1', parts: [partial(textPart('lo'), 0)], finishReason: 'STOP' },
      ];
      const seen: AggregationChunk[] = [];
      const completions: AggregatedMessage[] = [];
      for await (const chunk of new MessageAggregator().aggregate(source(chunks), (result) => completions.push(result))) {
        expect(completions).to.deep.equal([]);
        seen.push(chunk);
      }
      expect(seen).to.have.ordered.members(chunks);
      expect(completions).to.deep.equal([{ ...empty, id: 'r1', parts: [textPart('Hello')], finishReason: 'STOP' }]);
    });

    it('does not call onComplete when the source fails, and passes the failure on', async () => {
      async function* failing(): AsyncGenerator<AggregationChunk> {
        yield { parts: [textPart('a')] };
        throw new Error('connection reset');
      }
      const completions: AggregatedMessage[] = [];
      const seen: AggregationChunk[] = [];
      let caught: unknown = null;
      try {
        for await (const chunk of new MessageAggregator().aggregate(failing(), (result) => completions.push(result))) seen.push(chunk);
      } catch (error) {
        caught = error;
      }
      expect([seen.length, (caught as Error).message, completions]).to.deep.equal([1, 'connection reset', []]);
    });

    it('rejects a source that is not async iterable and a missing callback', () => {
      const aggregator = new MessageAggregator();
      expect(() => aggregator.aggregate([] as never, () => undefined)).to.throw(TypeError, 'Expected chunks to be an AsyncIterable, got an array');
      expect(() => aggregator.aggregate(source([]), undefined as never)).to.throw(TypeError, 'Expected onComplete to be a function, got undefined');
    });
  });
});
