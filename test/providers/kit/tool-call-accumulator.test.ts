import { expect } from 'chai';
import type { IncompleteToolCall } from '../../../lib/bridge/parts-bridge';
import type { CompleteToolCall } from '../../../lib/handler/types';
import { completeToolCall, partialToolCall } from '../../../lib/handler/values';
import { ToolCallAccumulator } from '../../../lib/providers/kit/tool-call-accumulator';
import type { MapperTarget } from '../../../lib/providers/stream-mapper';

/** A target that records the completed calls and the calls kept incomplete, in one list. */
function recordingTarget(): MapperTarget & { readonly ended: (CompleteToolCall | ['incomplete', IncompleteToolCall])[] } {
  const ended: (CompleteToolCall | ['incomplete', IncompleteToolCall])[] = [];
  return {
    ended,
    handler: {
      onCompleteToolCall: (complete) => void ended.push(complete),
      onCompleteResponse() {},
      onError() {},
    },
    handle: { cancel() {}, isCancelled: () => false },
    keepIncompleteToolCall: (call) => void ended.push(['incomplete', call]),
  };
}

describe('ToolCallAccumulator', () => {
  it('numbers calls 0, 1, 2 in the order they start, whatever their keys', () => {
    const calls = new ToolCallAccumulator<number>();
    expect([calls.start(4, 'a', 'f'), calls.start(1, 'b', 'g'), calls.start(7, 'c', 'h')]).to.deep.equal([0, 1, 2]);
    expect(calls.callCount).to.equal(3);
  });

  it('turns each non-empty fragment into a partial tool call of its call', () => {
    const calls = new ToolCallAccumulator<string>();
    calls.start('item_1', 'call_1', 'get_weather');
    expect(calls.append('item_1', '{"city":')).to.deep.equal(partialToolCall(0, 'call_1', 'get_weather', '{"city":'));
    expect(calls.append('item_1', '')).to.equal(null);
    expect(calls.append('item_1', '"Paris"}')).to.deep.equal(partialToolCall(0, 'call_1', 'get_weather', '"Paris"}'));
  });

  it('completes a call with its fragments joined in arrival order, and counts it', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, 'call_1', 'get_weather');
    calls.append(0, '{"city":');
    calls.append(0, '"Paris"}');
    expect(calls.argumentsOf(0)).to.equal('{"city":"Paris"}');
    expect(calls.complete(0, target)).to.equal(true);
    expect(target.ended).to.deep.equal([completeToolCall(0, { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' })]);
    expect(calls.isOpen(0)).to.equal(false);
    expect(calls.has(0)).to.equal(true);
    expect([calls.completedCount, calls.incompleteCount]).to.deep.equal([1, 0]);
  });

  it('completes a call without arguments with "{}"', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, null, 'list_files');
    calls.complete(0, target);
    expect(target.ended).to.deep.equal([completeToolCall(0, { id: null, name: 'list_files', arguments: '{}' })]);
  });

  it('lets a completion replace the streamed arguments and carry a payload', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, null, 'f');
    calls.append(0, '{"a"');
    const payload = { provider: 'google', kind: 'thought_signature', data: 'sig' };
    calls.complete(0, target, { arguments: '{"a":1}', payload });
    expect(target.ended).to.deep.equal([completeToolCall(0, { id: null, name: 'f', arguments: '{"a":1}' }, payload)]);
  });

  it('ends each call once: later fragments, completions and abandons of it are ignored', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, 'a', 'f');
    calls.complete(0, target);
    expect(calls.append(0, 'x')).to.equal(null);
    expect(calls.complete(0, target)).to.equal(false);
    calls.abandon(0, target);
    expect(target.ended).to.have.length(1);
    expect(calls.openCount).to.equal(0);
    expect([calls.completedCount, calls.incompleteCount]).to.deep.equal([1, 0]);
  });

  it('ends all open calls in start order, asking for each completion by key', () => {
    const calls = new ToolCallAccumulator<string>();
    const target = recordingTarget();
    calls.start('z', 'id_z', 'first');
    calls.start('a', 'id_a', 'second');
    calls.start('m', 'id_m', 'third');
    calls.append('a', '{"x":1}');
    calls.complete('m', target);
    calls.endAll(target, 'STOP', (key) => (key === 'z' ? { arguments: '{"whole":true}' } : undefined));
    expect(target.ended).to.deep.equal([
      completeToolCall(2, { id: 'id_m', name: 'third', arguments: '{}' }),
      completeToolCall(0, { id: 'id_z', name: 'first', arguments: '{"whole":true}' }),
      completeToolCall(1, { id: 'id_a', name: 'second', arguments: '{"x":1}' }),
    ]);
    calls.endAll(target, 'STOP');
    expect(target.ended).to.have.length(3);
  });

  it('cuts the open calls when the stream stopped for length: kept incomplete, never completed', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, 'call_a', 'done_first');
    calls.append(0, '{}');
    calls.complete(0, target);
    calls.start(1, 'call_b', 'cut');
    calls.append(1, '{"text":"Hal');
    calls.endAll(target, 'LENGTH');
    expect(target.ended).to.deep.equal([
      completeToolCall(0, { id: 'call_a', name: 'done_first', arguments: '{}' }),
      ['incomplete', { index: 1, id: 'call_b', name: 'cut', arguments: '{"text":"Hal' }],
    ]);
    expect([calls.completedCount, calls.incompleteCount]).to.deep.equal([1, 1]);
    expect(calls.finishReason('LENGTH')).to.equal('LENGTH');
  });

  it('fills in an id and a name that arrive after the call started, and yields no partials while the name is unknown', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, null, '');
    expect(calls.append(0, '{"q":')).to.equal(null);
    calls.identify(0, 'call_9', 'search');
    calls.identify(0, 'call_other', 'other');
    expect(calls.idOf(0)).to.equal('call_9');
    expect(calls.append(0, '1}')).to.deep.equal(partialToolCall(0, 'call_9', 'search', '1}'));
    calls.complete(0, target);
    expect(target.ended).to.deep.equal([completeToolCall(0, { id: 'call_9', name: 'search', arguments: '{"q":1}' })]);
  });

  it('keeps a call that never got a name incomplete, with its arguments; it does not count as a tool call', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, 'call_1', ' ');
    calls.append(0, '{"a":1}');
    expect(calls.complete(0, target)).to.equal(false);
    expect(target.ended).to.deep.equal([['incomplete', { index: 0, id: 'call_1', name: null, arguments: '{"a":1}' }]]);
    expect([calls.callCount, calls.completedCount, calls.incompleteCount]).to.deep.equal([1, 0, 1]);
    expect(calls.finishReason('TOOL_EXECUTION')).to.equal('OTHER');
  });

  it('drops a nameless call that streamed nothing: nothing to keep, nothing counted', () => {
    const calls = new ToolCallAccumulator<number>();
    const target = recordingTarget();
    calls.start(0, 'call_1', '');
    calls.complete(0, target);
    expect(target.ended).to.deep.equal([]);
    expect([calls.completedCount, calls.incompleteCount]).to.deep.equal([0, 0]);
    expect(calls.finishReason('STOP')).to.equal('STOP');
  });

  it('rejects a key that was used before', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(3, 'a', 'f');
    calls.complete(3, recordingTarget());
    expect(() => calls.start(3, 'b', 'g')).to.throw(TypeError, 'Expected a tool call key not used before, got 3');
  });
});
