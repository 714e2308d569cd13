import { expect } from 'chai';
import { completeToolCall, partialToolCall } from '../../../lib/handler/values';
import { ToolCallAccumulator } from '../../../lib/providers/shared/tool-call-accumulator';

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

  it('completes a call with its fragments joined in arrival order', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, 'call_1', 'get_weather');
    calls.append(0, '{"city":');
    calls.append(0, '"Paris"}');
    expect(calls.argumentsOf(0)).to.equal('{"city":"Paris"}');
    expect(calls.complete(0)).to.deep.equal(completeToolCall(0, { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }));
    expect(calls.isOpen(0)).to.equal(false);
    expect(calls.has(0)).to.equal(true);
  });

  it('completes a call without arguments with "{}"', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, null, 'list_files');
    expect(calls.complete(0)).to.deep.equal(completeToolCall(0, { id: null, name: 'list_files', arguments: '{}' }));
  });

  it('lets a completion replace the streamed arguments and carry a payload', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, null, 'f');
    calls.append(0, '{"a"');
    const payload = { provider: 'google', kind: 'thought_signature', data: 'sig' };
    expect(calls.complete(0, { arguments: '{"a":1}', payload })).to.deep.equal(completeToolCall(0, { id: null, name: 'f', arguments: '{"a":1}' }, payload));
  });

  it('completes each call once: later fragments and completions of it are ignored', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, 'a', 'f');
    calls.complete(0);
    expect(calls.append(0, 'x')).to.equal(null);
    expect(calls.complete(0)).to.equal(null);
    expect(calls.openCount).to.equal(0);
  });

  it('completes all open calls in start order, asking for each completion by key', () => {
    const calls = new ToolCallAccumulator<string>();
    calls.start('z', 'id_z', 'first');
    calls.start('a', 'id_a', 'second');
    calls.start('m', 'id_m', 'third');
    calls.append('a', '{"x":1}');
    calls.complete('m');
    const completed = calls.completeAll((key) => (key === 'z' ? { arguments: '{"whole":true}' } : undefined));
    expect(completed).to.deep.equal([
      completeToolCall(0, { id: 'id_z', name: 'first', arguments: '{"whole":true}' }),
      completeToolCall(1, { id: 'id_a', name: 'second', arguments: '{"x":1}' }),
    ]);
    expect(calls.completeAll()).to.deep.equal([]);
  });

  it('fills in an id and a name that arrive after the call started, and yields no partials while the name is unknown', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, null, '');
    expect(calls.append(0, '{"q":')).to.equal(null);
    calls.identify(0, 'call_9', 'search');
    calls.identify(0, 'call_other', 'other');
    expect(calls.idOf(0)).to.equal('call_9');
    expect(calls.append(0, '1}')).to.deep.equal(partialToolCall(0, 'call_9', 'search', '1}'));
    expect(calls.complete(0)).to.deep.equal(completeToolCall(0, { id: 'call_9', name: 'search', arguments: '{"q":1}' }));
  });

  it('yields no complete tool call for a call that never got a name', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(0, 'call_1', ' ');
    calls.append(0, '{}');
    expect(calls.complete(0)).to.equal(null);
    expect(calls.callCount).to.equal(1);
  });

  it('rejects a key that was used before', () => {
    const calls = new ToolCallAccumulator<number>();
    calls.start(3, 'a', 'f');
    calls.complete(3);
    expect(() => calls.start(3, 'b', 'g')).to.throw(TypeError, 'Expected a tool call key not used before, got 3');
  });
});
