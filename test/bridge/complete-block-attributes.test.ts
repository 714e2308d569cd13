import { expect } from 'chai';
import { PartsBridge } from '../../lib/bridge/parts-bridge';
import { recordingHandler } from '../support/recording-handler';
import { reasoningPart, textPart, toolCallPart, unknownPart, withAttributes } from '../../lib/parts/factories';
import type { MessagePart } from '../../lib/parts/types';
import { buildChain } from './build-chain';

// `completeBlock(part?, attributes?)`: the adapter-side way to set attributes (e.g. a provider's
// item id) on the part a provider block produced. The user's callbacks never see it.

const annotations = { provider: 'openai', kind: 'annotations', data: '[]' };

function run(steps: (chain: ReturnType<typeof buildChain>) => void): MessagePart[] {
  const user = recordingHandler();
  const chain = buildChain(user);
  steps(chain);
  chain.complete();
  expect(user.responses).to.have.length(1);
  return [...user.responses[0].aiMessage.parts];
}

describe('PartsBridge#completeBlock with attributes', () => {
  it('sets them on the run of text deltas the block streamed, and on nothing after it', () => {
    const parts = run((c) => {
      c.text('Hel');
      c.text('lo');
      c.bridge.completeBlock(null, { itemId: 'msg_1' });
      c.text('Next.');
      c.bridge.completeBlock();
    });
    expect(parts).to.deep.equal([textPart('Hello', { attributes: { itemId: 'msg_1' } }), textPart('Next.')]);
  });

  it('sets them on a reasoning run whose payload arrived last, not on the tool call whose deltas came between', () => {
    const parts = run((c) => {
      c.thinking('Plan');
      c.toolDelta(0, 'call_1', 'f', '{"a":');
      c.thinking('', { provider: 'openai', kind: 'encrypted_content', data: 'ENC' });
      c.bridge.completeBlock(null, { itemId: 'rs_1' });
      c.toolDelta(0, 'call_1', 'f', '1}');
      c.toolComplete(0, 'call_1', 'f', '{"a":1}');
      c.bridge.completeBlock(null, { itemId: 'fc_1' });
    });
    expect(parts).to.deep.equal([
      reasoningPart('Plan', { payload: { provider: 'openai', kind: 'encrypted_content', data: 'ENC' }, attributes: { itemId: 'rs_1' } }),
      toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{"a":1}' }, { attributes: { itemId: 'fc_1' } }),
    ]);
  });

  it('sets them on the text part it hands over with the block, joined to the run', () => {
    const parts = run((c) => {
      c.text('Cited.');
      c.bridge.completeBlock(textPart('', { payload: annotations }), { itemId: 'msg_1' });
    });
    expect(parts).to.deep.equal([textPart('Cited.', { payload: annotations, attributes: { itemId: 'msg_1' } })]);
  });

  it('merges them over the attributes of a whole part it hands over', () => {
    const parts = run((c) => {
      c.bridge.completeBlock(unknownPart('openai', 'web_search_call', '{"id":"ws_1"}', { attributes: { source: 'wire' } }), { itemId: 'ws_1' });
    });
    expect(parts).to.deep.equal([unknownPart('openai', 'web_search_call', '{"id":"ws_1"}', { attributes: { source: 'wire', itemId: 'ws_1' } })]);
  });

  it('keeps the incomplete mark of a tool call kept incomplete beside them', () => {
    const parts = run((c) => {
      c.toolDelta(0, 'call_1', 'f', '{"a":');
      c.bridge.keepIncompleteToolCall({ index: 0, id: 'call_1', name: 'f', arguments: '{"a":' });
      c.bridge.completeBlock(null, { itemId: 'fc_1' });
    });
    expect(parts).to.deep.equal([toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{"a":' }, { attributes: { incomplete: 'true', itemId: 'fc_1' } })]);
  });

  it('puts them nowhere when the block produced no part (the previous block keeps its own)', () => {
    const parts = run((c) => {
      c.text('One.');
      c.bridge.completeBlock(null, { itemId: 'msg_1' });
      c.bridge.completeBlock(null, { itemId: 'rs_empty' });
      c.toolDelta(0, 'call_1', 'f', '{}');
      c.bridge.completeBlock(null, { itemId: 'only_deltas' });
    });
    expect(parts).to.deep.equal([
      textPart('One.', { attributes: { itemId: 'msg_1' } }),
      toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{}' }, { attributes: { incomplete: 'true' } }),
    ]);
  });

  it('shows them in partialResponse() once the block completed', () => {
    const user = recordingHandler();
    const c = buildChain(user);
    c.text('So far');
    c.bridge.completeBlock(null, { itemId: 'msg_1' });
    expect(c.bridge.partialResponse().aiMessage.parts).to.deep.equal([textPart('So far', { attributes: { itemId: 'msg_1' } })]);
  });

  it('takes a key named like a prototype property as a plain attribute', () => {
    const parts = run((c) => {
      c.text('x');
      c.bridge.completeBlock(null, JSON.parse('{"__proto__":"p","itemId":"m"}') as Record<string, string>);
    });
    expect(Object.getPrototypeOf(parts[0].attributes)).to.equal(Object.prototype);
    expect(Object.entries(parts[0].attributes)).to.deep.equal([
      ['__proto__', 'p'],
      ['itemId', 'm'],
    ]);
  });

  it('rejects attributes that are not strings, naming the field, and changes nothing', () => {
    const bridge = new PartsBridge(recordingHandler());
    expect(() => bridge.completeBlock(null, { itemId: 7 } as unknown as Record<string, string>)).to.throw(TypeError, 'Expected attributes.itemId to be a string, got');
    expect(() => bridge.completeBlock(null, [] as unknown as Record<string, string>)).to.throw(TypeError, 'Expected attributes to be an object of strings');
    expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([]);
  });
});

describe('withAttributes and the part factories', () => {
  it('keep an attribute named __proto__ as an own key, the prototype untouched', () => {
    const attributes = JSON.parse('{"__proto__":"p","constructor":"c"}') as Record<string, string>;
    const part = withAttributes(textPart('x'), attributes);
    expect(Object.getPrototypeOf(part.attributes)).to.equal(Object.prototype);
    expect(Object.entries(part.attributes)).to.deep.equal([
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
    expect(Object.entries(textPart('x', { attributes }).attributes)).to.deep.equal(Object.entries(part.attributes));
  });
});
