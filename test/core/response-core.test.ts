import { expect } from 'chai';
import { ResponseCore } from '../../lib/core/response-core';
import { ResponseGate } from '../../lib/core/response-gate';
import type { StreamingHandle } from '../../lib/handler/types';
import { aiMessage, chatResponse, responseMetadata } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';

const signed = { provider: 'anthropic', kind: 'signature', data: 'sig' };
const cited = { provider: 'anthropic', kind: 'citations', data: '[]' };

function handle(): StreamingHandle & { cancelled: boolean } {
  return {
    cancelled: false,
    cancel() {
      this.cancelled = true;
    },
    isCancelled() {
      return this.cancelled;
    },
  };
}

describe('ResponseCore', () => {
  it('builds the parts in stream order from every kind of input', () => {
    const core = new ResponseCore();
    // reasoning run → 0 (a tool call's deltas in between take 1 and leave the run open), its
    // signature joins 0; text run → 2; block end; text → 3 with attributes; whole block → 4;
    // the call completes at 1; a call given up without deltas → 5.
    core.delta('reasoning', 'Think', null);
    core.toolCallDelta(7, 'c1', 'f', '{"a"');
    core.delta('reasoning', ' more', null);
    core.delta('reasoning', '', signed);
    core.toolCallDelta(7, null, null, ':1}');
    core.delta('text', 'Hel', null);
    core.delta('text', 'lo', null);
    core.completeBlock(null, null);
    core.delta('text', 'Again', null);
    core.completeBlock(textPart('', { payload: cited }), Object.freeze({ itemId: 'msg_1' }));
    core.completeBlock(unknownPart('anthropic', 'server_tool_use', '{}'), null);
    core.completeToolCall(7, { id: 'c1', name: 'f', arguments: '{"a":1}' });
    core.incompleteToolCall(8, { id: null, name: null, arguments: '{' });
    expect(core.response().aiMessage.parts).to.deep.equal([
      reasoningPart('Think more', { payload: signed }),
      toolCallPart({ id: 'c1', type: 'function', name: 'f', arguments: '{"a":1}' }),
      textPart('Hello'),
      textPart('Again', { payload: cited, attributes: { itemId: 'msg_1' } }),
      unknownPart('anthropic', 'server_tool_use', '{}'),
      toolCallPart({ id: null, type: 'function', name: null, arguments: '{' }, { attributes: { incomplete: 'true' } }),
    ]);
  });

  it('starts a new part for a second payload in one run, and for a delta after a complete tool call', () => {
    const core = new ResponseCore();
    core.delta('reasoning', 'a', signed);
    core.delta('reasoning', 'b', signed);
    core.delta('text', 'x', null);
    core.completeToolCall(0, { id: 'c', name: 'g', arguments: '{}' });
    core.delta('text', 'y', null);
    expect(
      core.response().aiMessage.parts.map((part) => [part.type, part.type === 'tool_call' ? part.toolCall.name : part.type === 'text' || part.type === 'reasoning' ? part.text : null]),
    ).to.deep.equal([
      ['reasoning', 'a'],
      ['reasoning', 'b'],
      ['text', 'x'],
      ['tool_call', 'g'],
      ['text', 'y'],
    ]);
  });

  it('takes nothing once the run ended, and says so', () => {
    const core = new ResponseCore();
    expect(core.delta('text', 'a', null)).to.equal(true);
    const final = core.complete(chatResponse(aiMessage([]), responseMetadata({ id: 'r' })));
    expect(final?.aiMessage.parts).to.deep.equal([textPart('a')]);
    expect(core.complete(chatResponse(aiMessage([]), responseMetadata({ id: 'again' })))).to.equal(null);
    expect([core.delta('text', 'b', null), core.toolCallDelta(0, 'c', 'f', '{}'), core.completeToolCall(0, { id: 'c', name: 'f', arguments: '{}' })]).to.deep.equal([false, false, false]);
    expect(core.response()).to.equal(final);
  });

  it('takes nothing once the handle of the contexts was cancelled, and keeps what came before', () => {
    const core = new ResponseCore();
    const h = handle();
    core.delta('text', 'a', null, h);
    h.cancel();
    expect(core.delta('text', 'b', null)).to.equal(false);
    expect(core.run.status).to.equal('cancelled');
    expect(core.response()).to.deep.equal(chatResponse(aiMessage([textPart('a')]), responseMetadata()));
  });
});

describe('ResponseGate', () => {
  it('ends once: the first of completed / failed wins, a cancel before it wins over both', () => {
    const done = new ResponseGate();
    expect([done.passTerminal('completed'), done.passTerminal('failed'), done.status]).to.deep.equal([true, false, 'completed']);
    const cancelled = new ResponseGate();
    const h = handle();
    cancelled.bind(h);
    h.cancel();
    expect([cancelled.passTerminal('completed'), cancelled.passTerminal('failed'), cancelled.status]).to.deep.equal([false, false, 'cancelled']);
  });

  it('takes the contexts’ handle only while none is bound', () => {
    const run = new ResponseGate();
    const bound = handle();
    const other = handle();
    run.bind(bound);
    other.cancel();
    expect(run.admits(other)).to.equal(true);
    bound.cancel();
    expect(run.admits(other)).to.equal(false);
    const unbound = new ResponseGate();
    expect(unbound.admits(handle())).to.equal(true);
    expect(unbound.admits(other)).to.equal(false);
  });
});
