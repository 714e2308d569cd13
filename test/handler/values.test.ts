import { expect } from 'chai';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata, tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';

const signature = { provider: 'anthropic', kind: 'signature', data: 'sig==' };

describe('partialResponse / partialThinking', () => {
  it('returns a frozen object with the text and no payload key when none is given', () => {
    const value = partialResponse('Hel');
    expect(value).to.deep.equal({ text: 'Hel' });
    expect(Object.keys(value)).to.deep.equal(['text']);
    expect(Object.isFrozen(value)).to.equal(true);
  });

  it('keeps whitespace-only text as content', () => {
    expect(partialThinking(' \n')).to.deep.equal({ text: ' \n' });
  });

  it('accepts empty text only together with a payload (a signature-only event)', () => {
    expect(partialThinking('', signature)).to.deep.equal({ text: '', payload: signature });
    expect(partialResponse('', signature)).to.deep.equal({ text: '', payload: signature });
    expect(() => partialThinking('')).to.throw(TypeError, 'Expected partial thinking text to be non-empty (empty text needs a payload), got string ""');
    expect(() => partialResponse('')).to.throw(TypeError, /partial response text to be non-empty/);
  });

  it('rejects a non-string text and a malformed payload, naming the field', () => {
    expect(() => partialResponse(42 as unknown as string)).to.throw(TypeError, 'Expected partial response text to be a string, got number 42');
    expect(() => partialThinking('x', { provider: 'a' } as never)).to.throw(TypeError, /partial thinking payload to be \{provider, kind, data\}/);
  });
});

describe('partialToolCall', () => {
  it('returns a frozen PartialToolCall', () => {
    const value = partialToolCall(0, 'call_1', 'get_weather', '{"ci');
    expect(value).to.deep.equal({ index: 0, id: 'call_1', name: 'get_weather', partialArguments: '{"ci' });
    expect(Object.isFrozen(value)).to.equal(true);
  });

  it('accepts a null id (providers that send none)', () => {
    expect(partialToolCall(1, null, 'f', '{').id).to.equal(null);
  });

  it('rejects a negative or fractional index, a blank name and empty arguments', () => {
    expect(() => partialToolCall(-1, 'c', 'f', '{')).to.throw(TypeError, 'Expected partial tool call index to be an integer ≥ 0, got number -1');
    expect(() => partialToolCall(0.5, 'c', 'f', '{')).to.throw(TypeError, /index to be an integer/);
    expect(() => partialToolCall(0, 'c', '  ', '{')).to.throw(TypeError, 'Expected partial tool call name to be a non-blank string, got string "  "');
    expect(() => partialToolCall(0, 'c', 'f', '')).to.throw(TypeError, 'Expected partial tool call partialArguments to be a non-empty string, got string ""');
    expect(() => partialToolCall(0, 7 as unknown as string, 'f', '{')).to.throw(TypeError, /id to be a string or null/);
  });
});

describe('completeToolCall', () => {
  it('turns empty or blank arguments into "{}"', () => {
    expect(completeToolCall(0, { id: 'c', name: 'now', arguments: '' })).to.deep.equal({
      index: 0,
      toolExecutionRequest: { id: 'c', name: 'now', arguments: '{}' },
    });
    expect(completeToolCall(0, { id: 'c', name: 'now', arguments: ' \n' }).toolExecutionRequest.arguments).to.equal('{}');
  });

  it('carries a payload such as a thought signature', () => {
    const payload = { provider: 'gemini', kind: 'thought_signature', data: 'abc' };
    expect(completeToolCall(2, { id: null, name: 'f', arguments: '{"a":1}' }, payload)).to.deep.equal({
      index: 2,
      toolExecutionRequest: { id: null, name: 'f', arguments: '{"a":1}' },
      payload,
    });
  });

  it('rejects a blank tool name and a negative index', () => {
    expect(() => completeToolCall(0, { id: 'c', name: '', arguments: '{}' })).to.throw(TypeError, /tool execution request name to be a non-blank string/);
    expect(() => completeToolCall(-2, { id: 'c', name: 'f', arguments: '{}' })).to.throw(TypeError, /complete tool call index/);
  });
});

describe('tokenUsage', () => {
  const NO_DETAILS = { cacheReadInputTokenCount: null, cacheWriteInputTokenCount: null, reasoningTokenCount: null };

  it('derives the total from input and output when both are known', () => {
    expect(tokenUsage(10, 5)).to.deep.equal({ inputTokenCount: 10, outputTokenCount: 5, totalTokenCount: 15, ...NO_DETAILS });
  });

  it('keeps an explicit total and leaves it null when a side is unknown', () => {
    expect(tokenUsage(10, 5, 20)).to.deep.equal({ inputTokenCount: 10, outputTokenCount: 5, totalTokenCount: 20, ...NO_DETAILS });
    expect(tokenUsage(null, 5)).to.deep.equal({ inputTokenCount: null, outputTokenCount: 5, totalTokenCount: null, ...NO_DETAILS });
  });

  it('keeps the details given, 0 included, and leaves the others null', () => {
    expect(tokenUsage(10, 5, null, { cacheReadInputTokenCount: 0, reasoningTokenCount: 3 })).to.deep.equal({
      inputTokenCount: 10,
      outputTokenCount: 5,
      totalTokenCount: 15,
      cacheReadInputTokenCount: 0,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: 3,
    });
  });

  it('rejects a detail that is not a count, naming it', () => {
    expect(() => tokenUsage(1, 1, null, { cacheWriteInputTokenCount: -4 })).to.throw(TypeError, 'Expected token usage cacheWriteInputTokenCount to be an integer ≥ 0 or null, got number -4');
  });

  it('rejects negative and fractional counts', () => {
    expect(() => tokenUsage(-1, 0)).to.throw(TypeError, 'Expected token usage inputTokenCount to be an integer ≥ 0 or null, got number -1');
    expect(() => tokenUsage(1, 1.5)).to.throw(TypeError, /outputTokenCount/);
  });
});

describe('aiMessage / chatResponse / responseMetadata', () => {
  it('derives text, thinking and tool execution requests from the ordered parts', () => {
    const parts = [reasoningPart('Think '), textPart('Hello'), toolCallPart({ id: 'c1', name: 'f', arguments: '' }), reasoningPart(null, { summary: 's' }), textPart(' world')];
    expect(aiMessage(parts, { refusal: 'no' })).to.deep.equal({
      type: 'ai',
      parts,
      text: 'Hello world',
      thinking: 'Think ',
      toolExecutionRequests: [{ id: 'c1', name: 'f', arguments: '{}' }],
      attributes: { refusal: 'no' },
    });
  });

  it('lists as tool execution requests only complete calls: an incomplete or nameless call stays a part only', () => {
    const cut = toolCallPart({ id: 'c2', name: 'g', arguments: '{"q":"pa' }, { attributes: { incomplete: 'true' } });
    const nameless = toolCallPart({ id: 'c3', name: null, arguments: '{}' });
    const blankName = toolCallPart({ id: 'c4', name: '  ', arguments: '{}' });
    const parts = [toolCallPart({ id: 'c1', name: 'f', arguments: '{"a":1}' }), cut, nameless, blankName, toolCallPart({ id: null, name: 'h', arguments: '' })];
    const message = aiMessage(parts);
    expect(message.toolExecutionRequests).to.deep.equal([
      { id: 'c1', name: 'f', arguments: '{"a":1}' },
      { id: null, name: 'h', arguments: '{}' },
    ]);
    expect(message.parts).to.deep.equal(parts);
  });

  it('gives null text and thinking when there are no such parts', () => {
    expect(aiMessage([])).to.deep.equal({ type: 'ai', parts: [], text: null, thinking: null, toolExecutionRequests: [], attributes: {} });
  });

  it('builds a frozen response with all-null metadata by default', () => {
    const response = chatResponse(aiMessage([textPart('x')]));
    expect(response.metadata).to.deep.equal({
      id: null,
      modelName: null,
      tokenUsage: null,
      finishReason: null,
      providerFinishReason: null,
      providerUsage: null,
      providerMetadata: null,
    });
    expect(Object.isFrozen(response)).to.equal(true);
    expect(Object.isFrozen(response.aiMessage.parts)).to.equal(true);
  });

  it('keeps provider objects as deep-frozen copies whose __proto__ keys stay own keys', () => {
    const sent = JSON.parse('{"service_tier":"flex","__proto__":{"polluted":true},"nested":{"constructor":{"prototype":1}}}') as Record<string, unknown>;
    const metadata = responseMetadata({ providerFinishReason: 'pause_turn', providerUsage: sent, providerMetadata: { list: [{ a: 1 }] } });
    expect(metadata.providerFinishReason).to.equal('pause_turn');
    expect(metadata.providerUsage).to.not.equal(sent);
    expect(Object.keys(metadata.providerUsage ?? {})).to.deep.equal(['service_tier', '__proto__', 'nested']);
    expect(Object.getPrototypeOf(metadata.providerUsage)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.isFrozen(metadata.providerUsage) && Object.isFrozen(metadata.providerUsage?.nested) && Object.isFrozen(metadata.providerMetadata?.list)).to.equal(true);
    expect(JSON.stringify(metadata.providerUsage)).to.equal(JSON.stringify(sent));
  });

  it('rejects provider objects that are not plain JSON objects, naming the field', () => {
    expect(() => responseMetadata({ providerUsage: [1] as never })).to.throw(TypeError, /metadata providerUsage to be a plain JSON object or null, got/);
    expect(() => responseMetadata({ providerMetadata: { at: new Date(0) } })).to.throw(TypeError, /metadata providerMetadata to hold only JSON values/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => responseMetadata({ providerMetadata: cyclic })).to.throw(TypeError, /circular/);
    expect(() => responseMetadata({ providerFinishReason: 7 as never })).to.throw(TypeError, /providerFinishReason to be a string or null, got number 7/);
  });

  it('rejects an unknown finish reason', () => {
    expect(() => responseMetadata({ finishReason: 'DONE' as never })).to.throw(TypeError, /finishReason to be one of STOP, LENGTH, TOOL_EXECUTION, CONTENT_FILTER, OTHER or null, got string "DONE"/);
  });
});
