import { expect } from 'chai';
import { createSseDecoder } from '../../lib/wire/sse-decoder';
import { bytewise, decodeChunks, splitsInTwo, utf8 } from '../support/decode-chunks';

function decode(...chunks: (string | Uint8Array)[]) {
  return decodeChunks(createSseDecoder(), chunks);
}

describe('createSseDecoder', () => {
  describe('frames', () => {
    it('decodes the event name and the data of a frame', () => {
      expect(decode('event: message_start\ndata: {"type":"message_start"}\n\n')).to.deep.equal({
        frames: [{ event: 'message_start', data: '{"type":"message_start"}' }],
        truncatedFrame: false,
        ended: false,
      });
    });

    it('gives a frame without an event line the event name null', () => {
      expect(decode('data: {"a":1}\n\ndata: {"b":2}\n\n').frames).to.deep.equal([
        { event: null, data: '{"a":1}' },
        { event: null, data: '{"b":2}' },
      ]);
    });

    it('joins several data lines with a line feed and keeps the data untouched', () => {
      expect(decode('data: {"a":\ndata:  1 }\n\n').frames).to.deep.equal([{ event: null, data: '{"a":\n 1 }' }]);
    });

    it('ignores id and retry lines', () => {
      expect(decode('id: 7\nretry: 1000\ndata: x\n\n').frames).to.deep.equal([{ event: null, data: 'x' }]);
    });
  });

  describe('chunk-boundary hazards', () => {
    it('treats a CR at the end of a chunk as a line end when no LF follows', () => {
      expect(decode('data: a\r', '\r', 'data: b\r\r').frames).to.deep.equal([
        { event: null, data: 'a' },
        { event: null, data: 'b' },
      ]);
    });

    it('reads a CRLF split between two chunks as one line end', () => {
      expect(decode('event: e\r', '\ndata: a\r', '\n\r', '\n').frames).to.deep.equal([{ event: 'e', data: 'a' }]);
    });

    it('drops a byte-order mark, also when its bytes are split', () => {
      const body = utf8('\uFEFFdata: a\n\n');
      expect(decode(body).frames).to.deep.equal([{ event: null, data: 'a' }]);
      expect(decode(body.subarray(0, 1), body.subarray(1, 2), body.subarray(2)).frames).to.deep.equal([{ event: null, data: 'a' }]);
      expect(decode('\uFEFF', 'data: a\n\n').frames).to.deep.equal([{ event: null, data: 'a' }]);
    });

    it('keeps a multibyte character split across chunks whole', () => {
      const body = utf8('data: é€𝄞\n\n');
      const expected = [{ event: null, data: 'é€𝄞' }];
      for (const [, chunks] of splitsInTwo(body)) expect(decode(...chunks).frames).to.deep.equal(expected);
      expect(decode(...bytewise(body)).frames).to.deep.equal(expected);
    });

    it('never surfaces comment (keep-alive) lines', () => {
      expect(decode(': keep-alive\n\n', 'event: e\n: inside a frame\ndata: a\n\n', ':\n\n').frames).to.deep.equal([{ event: 'e', data: 'a' }]);
    });

    it('ends the stream at data: [DONE], delivered as the last frame, and ignores what follows', () => {
      expect(decode('data: a\n\ndata:  [DONE] \n\ndata: b\n\n')).to.deep.equal({
        frames: [
          { event: null, data: 'a' },
          { event: null, data: '[DONE]' },
        ],
        truncatedFrame: false,
        ended: true,
      });
    });

    it('drops blank frames', () => {
      expect(decode('data:\n\n', 'data: \n\n', 'event: ping\n\n', 'data:  \ndata:\n\n').frames).to.deep.equal([]);
    });
  });

  describe('end of the text', () => {
    it('delivers a last frame whose lines arrived but whose blank line did not', () => {
      expect(decode('data: a\n\ndata: b\n')).to.deep.equal({
        frames: [
          { event: null, data: 'a' },
          { event: null, data: 'b' },
        ],
        truncatedFrame: false,
        ended: false,
      });
      expect(decode('data: b\r').frames).to.deep.equal([{ event: null, data: 'b' }]);
    });

    it('reports a frame cut inside a line as truncated and does not deliver it', () => {
      expect(decode('data: a\n\nevent: e\ndata: {"ty')).to.deep.equal({
        frames: [{ event: null, data: 'a' }],
        truncatedFrame: true,
        ended: false,
      });
      expect(decode('data: a\n\neve').truncatedFrame).to.equal(true);
    });

    it('does not count a trailing comment or whitespace as an unfinished frame', () => {
      expect(decode('data: a\n\n: ping').truncatedFrame).to.equal(false);
      expect(decode('data: a\n\n  ').truncatedFrame).to.equal(false);
      expect(decode('').truncatedFrame).to.equal(false);
    });

    it('does not report truncation after [DONE]', () => {
      expect(decode('data: [DONE]\n\ndata: {"cut')).to.deep.equal({
        frames: [{ event: null, data: '[DONE]' }],
        truncatedFrame: false,
        ended: true,
      });
    });
  });

  describe('split anywhere', () => {
    const transcript =
      '\uFEFF: hello\r\n\r\n' +
      'event: message_start\r\ndata: {"type":"message_start","text":"Grüße 👋"}\r\n\r\n' +
      'event: ping\ndata: {"type": "ping"}\n\n' +
      'data: {"multi":\ndata: "line"}\r\r' +
      ': keep-alive\n\n' +
      'data:\n\n' +
      'event: content_block_delta\ndata: {"delta":"€"}\n\n' +
      'data: [DONE]\n\n';
    const bytes = utf8(transcript);
    const whole = decode(bytes);

    it('decodes the unsplit transcript', () => {
      expect(whole).to.deep.equal({
        frames: [
          { event: 'message_start', data: '{"type":"message_start","text":"Grüße 👋"}' },
          { event: 'ping', data: '{"type": "ping"}' },
          { event: null, data: '{"multi":\n"line"}' },
          { event: 'content_block_delta', data: '{"delta":"€"}' },
          { event: null, data: '[DONE]' },
        ],
        truncatedFrame: false,
        ended: true,
      });
    });

    it('gives the same frames for a split at every byte offset', () => {
      for (const [at, chunks] of splitsInTwo(bytes)) {
        expect(decode(...chunks), `split at ${at}`).to.deep.equal(whole);
      }
    });

    it('gives the same frames fed one byte at a time', () => {
      expect(decode(...bytewise(bytes))).to.deep.equal(whole);
    });

    it('gives the same frames fed one character at a time as strings', () => {
      expect(decode(...Array.from(transcript))).to.deep.equal(whole);
    });

    it('reports truncation for every cut inside the last frame before [DONE]', () => {
      const body = 'data: {"a":1}\n\nevent: e\ndata: {"b":2}\n\n';
      const frameStart = body.indexOf('event: e');
      for (let cut = frameStart + 1; cut < body.length; cut++) {
        const result = decode(body.slice(0, cut));
        const lineEnds = body[cut - 1] === '\n';
        expect(result.truncatedFrame, `cut at ${cut}`).to.equal(!lineEnds);
      }
    });
  });
});
