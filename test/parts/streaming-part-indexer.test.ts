import { expect } from 'chai';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart } from '../../lib/parts/factories';
import { StreamingPartIndexer } from '../../lib/parts/streaming-part-indexer';
import { StreamingParts } from '../../lib/parts/streaming-parts';
import type { MessagePart } from '../../lib/parts/types';

/** `partial 0` / `complete 2` / `unstamped` for each stamped part. */
function stamps(parts: readonly MessagePart[]): string[] {
  return parts.map((part) => {
    const index = StreamingParts.partIndex(part);
    if (index === null) return 'unstamped';
    return `${StreamingParts.isPartial(part) ? 'partial' : 'complete'} ${index}`;
  });
}

const call = (id: string, args: string | null = '{}') => toolCallPart({ id, type: 'function', name: 'weather', arguments: args });
const delta = (id: string, args: string) => toolCallPart({ id, name: 'weather', arguments: args });

describe('StreamingPartIndexer#stamp', () => {
  it('stamps the seed example: reasoning, reasoning, text, text, tool call → partial 0, partial 0, partial 1, partial 1, complete 2', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [reasoningPart('Think '), reasoningPart('more.'), textPart('Hel'), textPart('lo'), call('c1')].map((p) => indexer.stamp(p));
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 0', 'partial 1', 'partial 1', 'complete 2']);
  });

  it('returns a copy that differs from the input only in the streaming attributes', () => {
    const part = textPart('Hel', { payload: { provider: 'gemini', kind: 'thoughtSignature', data: 's' }, attributes: { a: 'b' } });
    expect(new StreamingPartIndexer().stamp(part)).to.deep.equal({
      type: 'text',
      text: 'Hel',
      payload: { provider: 'gemini', kind: 'thoughtSignature', data: 's' },
      attributes: { a: 'b', partIndex: '0', partial: 'true' },
    });
  });

  it('returns an empty text placeholder without payload unchanged, without an index', () => {
    const placeholder = textPart('');
    expect(new StreamingPartIndexer().stamp(placeholder)).to.equal(placeholder);
  });

  it('does not let an empty text placeholder end a reasoning run', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [reasoningPart('a'), textPart(''), reasoningPart('b'), textPart('c')].map((p) => indexer.stamp(p));
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'unstamped', 'partial 0', 'partial 1']);
  });

  it('stamps an empty text part that carries a payload as a delta', () => {
    const indexer = new StreamingPartIndexer();
    const signed = textPart('', { payload: { provider: 'gemini', kind: 'thoughtSignature', data: 's' } });
    expect(stamps([indexer.stamp(reasoningPart('r')), indexer.stamp(signed)])).to.deep.equal(['partial 0', 'partial 1']);
  });

  it('stamps a signature-only reasoning delta (text "" with payload) into the current reasoning run', () => {
    const indexer = new StreamingPartIndexer();
    const sig = reasoningPart('', { payload: { provider: 'anthropic', kind: 'signature', data: 's' } });
    expect(stamps([indexer.stamp(reasoningPart('r')), indexer.stamp(sig)])).to.deep.equal(['partial 0', 'partial 0']);
  });

  it('starts a new index when a text run follows a tool call', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [textPart('a'), call('c1'), textPart('b')].map((p) => indexer.stamp(p));
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'complete 1', 'partial 2']);
  });

  it('gives every complete part its own index, one after another', () => {
    const indexer = new StreamingPartIndexer();
    const image = mediaPart({ id: null, mimeType: 'image/png', name: null, dataKind: 'url', data: 'u' });
    const stamped = [call('c1'), call('c2'), image, unknownPart('p', 'k', '{}'), toolResultPart({ id: 'c1' })].map((p) => indexer.stamp(p));
    expect(stamps(stamped)).to.deep.equal(['complete 0', 'complete 1', 'complete 2', 'complete 3', 'complete 4']);
  });

  it('alternating reasoning and text take a new index at every switch', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [reasoningPart('a'), textPart('b'), reasoningPart('c'), textPart('d')].map((p) => indexer.stamp(p));
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 1', 'partial 2', 'partial 3']);
  });

  it('gives a complete tool call the index of its deltas and ends the run', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [
      indexer.stamp(textPart('a')),
      indexer.stampToolCallDelta(delta('c1', '{"ci')),
      indexer.stampToolCallDelta(delta('c1', 'ty":1}')),
      indexer.stamp(call('c1')),
      indexer.stamp(textPart('b')),
    ];
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 1', 'partial 1', 'complete 1', 'partial 2']);
  });

  it("gives a later call that reuses a completed call's id an index of its own", () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [
      indexer.stampToolCallDelta(delta('c1', '{}')),
      indexer.stamp(call('c1')),
      indexer.stampToolCallDelta(delta('c1', '{"n":2}')),
      indexer.stamp(call('c1')),
      indexer.stamp(call('c1')),
    ];
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'complete 0', 'partial 1', 'complete 1', 'complete 2']);
  });

  it('gives a complete tool call without streamed deltas the next index', () => {
    const indexer = new StreamingPartIndexer();
    indexer.stampToolCallDelta(delta('c1', '{}'));
    expect(stamps([indexer.stamp(call('c2'))])).to.deep.equal(['complete 1']);
  });

  it('gives a complete tool call with a null id the next index', () => {
    const indexer = new StreamingPartIndexer();
    expect(stamps([indexer.stamp(toolCallPart({ name: 'f' })), indexer.stamp(toolCallPart({ name: 'g' }))])).to.deep.equal(['complete 0', 'complete 1']);
  });

  it('rejects a null part naming it', () => {
    expect(() => new StreamingPartIndexer().stamp(null as never)).to.throw(TypeError, 'Expected part to be a message part, got null');
  });
});

describe('StreamingPartIndexer#stampToolCallDelta', () => {
  it('gives the first delta of a call the next index and keeps it for later deltas of that id', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [
      indexer.stampToolCallDelta(delta('a', '{')),
      indexer.stampToolCallDelta(delta('b', '{')),
      indexer.stampToolCallDelta(delta('a', '}')),
      indexer.stampToolCallDelta(delta('b', '}')),
    ];
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 1', 'partial 0', 'partial 1']);
  });

  it('returns the delta stamped partial with its fields untouched', () => {
    expect(new StreamingPartIndexer().stampToolCallDelta(delta('a', '{"x"'))).to.deep.equal({
      type: 'tool_call',
      toolCall: { id: 'a', type: null, name: 'weather', arguments: '{"x"' },
      payload: null,
      attributes: { partIndex: '0', partial: 'true' },
    });
  });

  it('keeps a reasoning run open across tool-call argument deltas', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [
      indexer.stamp(reasoningPart('Let me ')),
      indexer.stampToolCallDelta(delta('c1', '{"q":')),
      indexer.stamp(reasoningPart('check.')),
      indexer.stampToolCallDelta(delta('c1', '1}')),
      indexer.stamp(reasoningPart(' Done.')),
      indexer.stamp(call('c1')),
      indexer.stamp(reasoningPart('After')),
    ];
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 1', 'partial 0', 'partial 1', 'partial 0', 'complete 1', 'partial 2']);
  });

  it('keeps a text run open across tool-call argument deltas', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [indexer.stamp(textPart('a')), indexer.stampToolCallDelta(delta('c1', '{}')), indexer.stamp(textPart('b'))];
    expect(stamps(stamped)).to.deep.equal(['partial 0', 'partial 1', 'partial 0']);
  });

  it('rejects a delta without an id, a part that is not a tool call, and null', () => {
    const indexer = new StreamingPartIndexer();
    expect(() => indexer.stampToolCallDelta(toolCallPart({ arguments: '{' }))).to.throw(TypeError, 'Expected delta.toolCall.id to be a string, got null');
    expect(() => indexer.stampToolCallDelta(textPart('x') as never)).to.throw(TypeError, 'Expected delta to be a tool_call part, got a text part');
    expect(() => indexer.stampToolCallDelta(null as never)).to.throw(TypeError, 'Expected delta to be a message part, got null');
  });

  it('leaves the indexer unchanged after rejecting a delta', () => {
    const indexer = new StreamingPartIndexer();
    expect(() => indexer.stampToolCallDelta(toolCallPart({}))).to.throw(TypeError);
    expect(stamps([indexer.stamp(textPart('a'))])).to.deep.equal(['partial 0']);
  });
});

describe('StreamingPartIndexer#stamp over a mixed sequence', () => {
  // reasoning a → 0 (run opens), empty text → -1 (placeholder, run stays open), delta c1 → 1 (first
  // delta of c1), reasoning b → 0 (the run goes on across the delta), text t → 2 (new run), delta c1 →
  // 1, complete c1 → 1 (its deltas' index), complete c2 → 3, text u → 4 (a tool call ended the run).
  const sequence: Array<['part', MessagePart] | ['delta', string]> = [
    ['part', reasoningPart('a')],
    ['part', textPart('')],
    ['delta', 'c1'],
    ['part', reasoningPart('b')],
    ['part', textPart('t')],
    ['delta', 'c1'],
    ['part', call('c1')],
    ['part', call('c2')],
    ['part', textPart('u')],
  ];
  const EXPECTED = [0, -1, 1, 0, 2, 1, 1, 3, 4];

  it('gives each part and delta its hand-derived index, none for the placeholder', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = sequence.map(([kind, value]) => (kind === 'part' ? indexer.stamp(value) : indexer.stampToolCallDelta(delta(value, 'x'))));
    expect(stamped.map((part) => StreamingParts.partIndex(part) ?? -1)).to.deep.equal(EXPECTED);
  });
});
