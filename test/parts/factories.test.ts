import { expect } from 'chai';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart, withAttributes } from '../../lib/parts/factories';

const signature = { provider: 'anthropic', kind: 'signature', data: 'sig==' };

describe('part factories', () => {
  describe('textPart', () => {
    it('builds a frozen text part with no payload and no attributes by default', () => {
      const part = textPart('Hello');
      expect(part).to.deep.equal({ type: 'text', text: 'Hello', payload: null, attributes: {} });
      expect(Object.isFrozen(part)).to.equal(true);
      expect(Object.isFrozen(part.attributes)).to.equal(true);
    });

    it('accepts an empty text', () => {
      expect(textPart('').text).to.equal('');
    });

    it('keeps a payload and copies the attributes', () => {
      const attributes = { itemId: 'msg_1' };
      const part = textPart('x', { payload: signature, attributes });
      attributes.itemId = 'changed';
      expect(part).to.deep.equal({ type: 'text', text: 'x', payload: signature, attributes: { itemId: 'msg_1' } });
      expect(Object.isFrozen(part.payload)).to.equal(true);
    });

    it('rejects a non-string text with a TypeError naming the field', () => {
      expect(() => textPart(42 as unknown as string)).to.throw(TypeError, 'Expected text to be a string, got number 42');
      expect(() => textPart(null as unknown as string)).to.throw(TypeError, 'Expected text to be a string, got null');
    });

    it('rejects a malformed payload naming the offending field', () => {
      expect(() => textPart('x', { payload: { provider: 'a', kind: 'b' } as never })).to.throw(TypeError, 'Expected payload.data to be a string, got undefined');
      expect(() => textPart('x', { payload: 'sig' as never })).to.throw(TypeError, /Expected payload to be \{provider, kind, data\} or null/);
    });

    it('rejects a non-string attribute value naming the attribute', () => {
      expect(() => textPart('x', { attributes: { partIndex: 1 as unknown as string } })).to.throw(TypeError, 'Expected attributes.partIndex to be a string, got number 1');
    });
  });

  describe('reasoningPart', () => {
    it('builds a reasoning part with text and summary', () => {
      expect(reasoningPart('think', { summary: 'sum', payload: signature })).to.deep.equal({
        type: 'reasoning',
        text: 'think',
        summary: 'sum',
        payload: signature,
        attributes: {},
      });
    });

    it('allows null text and a missing summary', () => {
      expect(reasoningPart(null, { payload: signature })).to.deep.equal({
        type: 'reasoning',
        text: null,
        summary: null,
        payload: signature,
        attributes: {},
      });
    });

    it('rejects a non-string text or summary naming the field', () => {
      expect(() => reasoningPart(1 as unknown as string)).to.throw(TypeError, 'Expected text to be a string or null, got number 1');
      expect(() => reasoningPart('x', { summary: [] as unknown as string })).to.throw(TypeError, 'Expected summary to be a string or null, got an array');
    });
  });

  describe('toolCallPart', () => {
    it('fills omitted fields with null', () => {
      expect(toolCallPart({ id: 'call_1', name: 'weather' })).to.deep.equal({
        type: 'tool_call',
        toolCall: { id: 'call_1', type: null, name: 'weather', arguments: null },
        payload: null,
        attributes: {},
      });
    });

    it('freezes the tool call', () => {
      expect(Object.isFrozen(toolCallPart({ id: 'c', type: 'function', name: 'f', arguments: '{}' }).toolCall)).to.equal(true);
    });

    it('rejects a non-object tool call and a non-string field naming it', () => {
      expect(() => toolCallPart(null as never)).to.throw(TypeError, 'Expected toolCall to be an object, got null');
      expect(() => toolCallPart({ arguments: { a: 1 } as unknown as string })).to.throw(TypeError, 'Expected toolCall.arguments to be a string or null, got an object');
    });
  });

  describe('toolResultPart', () => {
    it('defaults to empty content and isError false', () => {
      expect(toolResultPart({ id: 'call_1', name: 'weather' })).to.deep.equal({
        type: 'tool_result',
        id: 'call_1',
        name: 'weather',
        content: [],
        isError: false,
        payload: null,
        attributes: {},
      });
    });

    it('keeps its content parts in a frozen array', () => {
      const part = toolResultPart({ id: 'c', content: [textPart('sunny')], isError: true });
      expect(part.content).to.deep.equal([textPart('sunny')]);
      expect(part.isError).to.equal(true);
      expect(Object.isFrozen(part.content)).to.equal(true);
    });

    it('rejects content that is not a list of parts, naming the element', () => {
      expect(() => toolResultPart({ content: [null as never] })).to.throw(TypeError, 'Expected result.content[0] to be a message part, got null');
      expect(() => toolResultPart({ content: 'x' as never })).to.throw(TypeError, /Expected result.content to be an array of parts/);
    });

    it('rejects a non-boolean isError', () => {
      expect(() => toolResultPart({ isError: 'yes' as never })).to.throw(TypeError, 'Expected result.isError to be a boolean, got string "yes"');
    });
  });

  describe('mediaPart', () => {
    it('copies the bytes so later writes to the caller buffer do not change the part', () => {
      const bytes = new Uint8Array([1, 2, 3]);
      const part = mediaPart({ id: null, mimeType: 'image/png', name: 'a.png', dataKind: 'bytes', data: bytes });
      bytes[0] = 9;
      expect(part).to.deep.equal({
        type: 'media',
        media: { id: null, mimeType: 'image/png', name: 'a.png', dataKind: 'bytes', data: new Uint8Array([1, 2, 3]) },
        payload: null,
        attributes: {},
      });
    });

    it('accepts a URL or string data', () => {
      const part = mediaPart({ id: 'm', mimeType: 'image/png', name: null, dataKind: 'url', data: 'https://x/a.png' });
      expect(part.media).to.deep.equal({ id: 'm', mimeType: 'image/png', name: null, dataKind: 'url', data: 'https://x/a.png' });
    });

    it('rejects a missing mime type, an unknown data kind or data of the wrong kind', () => {
      expect(() => mediaPart({ dataKind: 'url', data: 'u' } as never)).to.throw(TypeError, 'Expected media.mimeType to be a string, got undefined');
      expect(() => mediaPart({ mimeType: 'a/b', dataKind: 'file', data: 'u' } as never)).to.throw(TypeError, /Expected media.dataKind/);
      expect(() => mediaPart({ mimeType: 'a/b', dataKind: 'bytes', data: 'AAA=' } as never)).to.throw(TypeError, 'Expected media.data to be a Uint8Array, got string "AAA="');
    });
  });

  describe('unknownPart', () => {
    it('keeps provider, kind and raw JSON verbatim', () => {
      expect(unknownPart('openai', 'web_search_call', '{"id":"ws_1"}')).to.deep.equal({
        type: 'unknown',
        provider: 'openai',
        kind: 'web_search_call',
        rawJson: '{"id":"ws_1"}',
        payload: null,
        attributes: {},
      });
    });

    it('rejects a non-string field naming it', () => {
      expect(() => unknownPart('p', 'k', undefined as never)).to.throw(TypeError, 'Expected rawJson to be a string, got undefined');
    });
  });

  describe('withAttributes', () => {
    it('returns a frozen copy with the attributes replaced and everything else unchanged', () => {
      const part = textPart('x', { payload: signature, attributes: { a: '1' } });
      const copy = withAttributes(part, { b: '2' });
      expect(copy).to.deep.equal({ type: 'text', text: 'x', payload: signature, attributes: { b: '2' } });
      expect(part.attributes).to.deep.equal({ a: '1' });
      expect(Object.isFrozen(copy)).to.equal(true);
    });

    it('rejects a part that is not a part and attributes that are not strings', () => {
      expect(() => withAttributes(null as never, {})).to.throw(TypeError, 'Expected part to be a message part, got null');
      expect(() => withAttributes(textPart('x'), { a: null as never })).to.throw(TypeError, 'Expected attributes.a to be a string, got null');
    });
  });
});
