import { expect } from 'chai';
import { createNdjsonDecoder } from '../../lib/wire/ndjson-decoder';
import { bytewise, decodeChunks, splitsInTwo, utf8 } from '../support/decode-chunks';

function decode(...chunks: (string | Uint8Array)[]) {
  return decodeChunks(createNdjsonDecoder(), chunks);
}

describe('createNdjsonDecoder', () => {
  it('parses every line as JSON', () => {
    expect(decode('{"message":{"content":"Hi"}}\n{"done":true}\n')).to.deep.equal({
      frames: [
        { ok: true, value: { message: { content: 'Hi' } } },
        { ok: true, value: { done: true } },
      ],
      truncatedFrame: false,
      ended: false,
    });
  });

  it('hands back the text of a line that is not JSON, untouched', () => {
    expect(decode('{"a":1}\n not json {\n').frames).to.deep.equal([
      { ok: true, value: { a: 1 } },
      { ok: false, text: ' not json {' },
    ]);
  });

  it('skips blank lines', () => {
    expect(decode('\n  \n{"a":1}\n\r\n\n').frames).to.deep.equal([{ ok: true, value: { a: 1 } }]);
  });

  it('accepts CRLF line ends, also split between chunks', () => {
    expect(decode('{"a":1}\r', '\n{"b":2}\r\n').frames).to.deep.equal([
      { ok: true, value: { a: 1 } },
      { ok: true, value: { b: 2 } },
    ]);
  });

  it('keeps a multibyte character split across chunks whole', () => {
    const body = utf8('{"t":"é€𝄞"}\n');
    for (const [, chunks] of splitsInTwo(body)) {
      expect(decode(...chunks).frames).to.deep.equal([{ ok: true, value: { t: 'é€𝄞' } }]);
    }
  });

  it('drops a byte-order mark', () => {
    expect(decode(utf8('\uFEFF{"a":1}\n')).frames).to.deep.equal([{ ok: true, value: { a: 1 } }]);
  });

  it('delivers a last line without its line feed when it parses', () => {
    expect(decode('{"a":1}\n{"done":true}')).to.deep.equal({
      frames: [
        { ok: true, value: { a: 1 } },
        { ok: true, value: { done: true } },
      ],
      truncatedFrame: false,
      ended: false,
    });
  });

  it('reports a last line cut before its end as truncated and does not deliver it', () => {
    expect(decode('{"a":1}\n{"done":tr')).to.deep.equal({
      frames: [{ ok: true, value: { a: 1 } }],
      truncatedFrame: true,
      ended: false,
    });
  });

  describe('split anywhere', () => {
    const transcript =
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":"Grüße 👋"},"done":false}\r\n' +
      '\n' +
      'oops\n' +
      '{"model":"m","message":{"thinking":"€"},"done":false}\n' +
      '{"model":"m","done":true,"done_reason":"stop"}\n';
    const bytes = utf8(transcript);
    const whole = decode(bytes);

    it('decodes the unsplit transcript', () => {
      expect(whole.frames.map((line) => line.ok)).to.deep.equal([true, false, true, true]);
      expect(whole.truncatedFrame).to.equal(false);
    });

    it('gives the same lines for a split at every byte offset', () => {
      for (const [at, chunks] of splitsInTwo(bytes)) expect(decode(...chunks), `split at ${at}`).to.deep.equal(whole);
    });

    it('gives the same lines fed one byte at a time', () => {
      expect(decode(...bytewise(bytes))).to.deep.equal(whole);
    });
  });
});
