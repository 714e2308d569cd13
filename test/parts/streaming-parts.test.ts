import { expect } from 'chai';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { StreamingParts } from '../../lib/parts/streaming-parts';

const signature = { provider: 'anthropic', kind: 'signature', data: 'sig==' };

describe('StreamingParts', () => {
  it('names the two attributes partIndex and partial', () => {
    expect([StreamingParts.PART_INDEX_ATTRIBUTE, StreamingParts.PARTIAL_ATTRIBUTE]).to.deep.equal(['partIndex', 'partial']);
  });

  describe('partial', () => {
    it('stamps the index and the partial flag, keeping the payload and other attributes', () => {
      const part = reasoningPart('Think', { payload: signature, attributes: { itemId: 'rs_1' } });
      expect(StreamingParts.partial(part, 3)).to.deep.equal({
        type: 'reasoning',
        text: 'Think',
        summary: null,
        payload: signature,
        attributes: { itemId: 'rs_1', partIndex: '3', partial: 'true' },
      });
    });

    it('accepts the largest 32-bit index', () => {
      expect(StreamingParts.partial(textPart('x'), 2147483647).attributes).to.deep.equal({ partIndex: '2147483647', partial: 'true' });
    });

    it('rejects a negative, fractional, too large or non-number index', () => {
      expect(() => StreamingParts.partial(textPart('x'), -1)).to.throw(RangeError, 'Expected index to be an integer in 0 … 2147483647, got -1');
      expect(() => StreamingParts.partial(textPart('x'), 1.5)).to.throw(RangeError, /got 1.5/);
      expect(() => StreamingParts.partial(textPart('x'), 2147483648)).to.throw(RangeError, /got 2147483648/);
      expect(() => StreamingParts.partial(textPart('x'), NaN)).to.throw(RangeError, /got NaN/);
      expect(() => StreamingParts.partial(textPart('x'), '1' as never)).to.throw(TypeError, /got string "1"/);
    });

    it('rejects a null part naming it', () => {
      expect(() => StreamingParts.partial(null as never, 0)).to.throw(TypeError, 'Expected part to be a message part, got null');
    });
  });

  describe('complete', () => {
    it('stamps the index and removes a partial flag', () => {
      const delta = StreamingParts.partial(toolCallPart({ id: 'c' }), 1);
      expect(StreamingParts.complete(delta, 2).attributes).to.deep.equal({ partIndex: '2' });
    });

    it('rejects a negative index', () => {
      expect(() => StreamingParts.complete(textPart('x'), -5)).to.throw(RangeError, /got -5/);
    });
  });

  describe('partIndex', () => {
    const withIndex = (value: string) => textPart('x', { attributes: { partIndex: value } });

    it('reads the stamped index', () => {
      expect(StreamingParts.partIndex(StreamingParts.complete(textPart('x'), 7))).to.equal(7);
    });

    it('is null when the attribute is absent', () => {
      expect(StreamingParts.partIndex(textPart('x'))).to.equal(null);
    });

    it('parses an optional sign and digits in the 32-bit range', () => {
      expect(['+5', '-3', '007', '-0', '2147483647', '-2147483648'].map((v) => StreamingParts.partIndex(withIndex(v)))).to.deep.equal([5, -3, 7, 0, 2147483647, -2147483648]);
    });

    it('reads a malformed index as null', () => {
      const malformed = ['', ' 1', '1 ', '1.0', '1e3', '0x1', 'one', '+', '2147483648', '-2147483649', '99999999999999999999'];
      expect(malformed.map((v) => StreamingParts.partIndex(withIndex(v)))).to.deep.equal(malformed.map(() => null));
    });
  });

  describe('isPartial', () => {
    const withFlag = (value: string) => textPart('x', { attributes: { partial: value } });

    it('is true only for "true" in any case', () => {
      expect(['true', 'TRUE', 'True', 'false', 'yes', '1', ''].map((v) => StreamingParts.isPartial(withFlag(v)))).to.deep.equal([true, true, true, false, false, false, false]);
    });

    it('is false when the attribute is absent', () => {
      expect(StreamingParts.isPartial(textPart('x'))).to.equal(false);
    });
  });

  describe('strip', () => {
    it('returns the same object when nothing was stamped', () => {
      const part = textPart('x', { attributes: { itemId: 'a' } });
      expect(StreamingParts.strip(part)).to.equal(part);
    });

    it('removes both streaming attributes and keeps the rest and the payload', () => {
      const part = StreamingParts.partial(textPart('x', { payload: signature, attributes: { itemId: 'a' } }), 4);
      expect(StreamingParts.strip(part)).to.deep.equal({ type: 'text', text: 'x', payload: signature, attributes: { itemId: 'a' } });
    });

    it('removes a lone partial flag', () => {
      expect(StreamingParts.strip(textPart('x', { attributes: { partial: 'true' } })).attributes).to.deep.equal({});
    });
  });
});
