import { expect } from 'chai';
import { createUtf8ChunkDecoder } from '../../lib/transport/utf8-chunk-decoder';
import { utf8 } from '../support/decode-chunks';

describe('createUtf8ChunkDecoder', () => {
  it('holds the bytes of an incomplete character until the chunk that completes it', () => {
    const decoder = createUtf8ChunkDecoder();
    const euro = utf8('€');
    expect([decoder.decode(euro.subarray(0, 1)), decoder.decode(euro.subarray(1, 2)), decoder.decode(euro.subarray(2)), decoder.end()]).to.deep.equal(['', '', '€', '']);
  });

  it('turns an incomplete character at the end into U+FFFD', () => {
    const decoder = createUtf8ChunkDecoder();
    expect([decoder.decode(utf8('a€').subarray(0, 2)), decoder.end()]).to.deep.equal(['a', '\uFFFD']);
  });

  it('accepts string chunks mixed with byte chunks', () => {
    const decoder = createUtf8ChunkDecoder();
    const euro = utf8('€');
    expect([decoder.decode('a'), decoder.decode(euro.subarray(0, 2)), decoder.decode('b'), decoder.end()]).to.deep.equal(['a', '', '\uFFFDb', '']);
  });

  it('drops only the first byte-order mark', () => {
    const decoder = createUtf8ChunkDecoder();
    expect([decoder.decode(utf8('\uFEFFa')), decoder.decode('\uFEFF'), decoder.decode(utf8('\uFEFF'))]).to.deep.equal(['a', '\uFEFF', '\uFEFF']);
  });

  it('rejects a chunk that is neither bytes nor a string', () => {
    const decoder = createUtf8ChunkDecoder();
    expect(() => decoder.decode(42 as unknown as string)).to.throw(TypeError, 'Expected a Uint8Array or string chunk, got number 42');
  });
});
