import { expect } from 'chai';
import fc from 'fast-check';
import { join } from 'path';
import { StringPieces } from '../../lib/core/string-pieces';
import { retainedByScript } from '../support/heap-script';

describe('StringPieces', () => {
  it('reads back the concatenation across block boundaries, before and after further appends', () => {
    const pieces = new StringPieces('start:');
    let expected = 'start:';
    for (let i = 0; i < 2500; i++) {
      const piece = i % 7 === 0 ? '' : `${i % 10}é𝄞`;
      pieces.append(piece);
      expected += piece;
      if (i === 1023 || i === 2047) expect(pieces.read()).to.equal(expected);
    }
    expect(pieces.read()).to.equal(expected);
    expect(pieces.read()).to.equal(expected);
  });

  it('reads an empty start with nothing appended as the empty string', () => {
    const pieces = new StringPieces('');
    expect(pieces.read()).to.equal('');
    pieces.append('a');
    expect(pieces.read()).to.equal('a');
  });

  it('equals plain concatenation for any appends and reads, in any order (property)', () => {
    const step = fc.oneof(
      fc.string({ maxLength: 4 }).map((text) => ({ text })),
      fc.constant({ read: true as const }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), fc.array(step, { maxLength: 300 }), (first, steps) => {
        const pieces = new StringPieces(first);
        let expected = first;
        for (const s of steps) {
          if ('read' in s) expect(pieces.read()).to.equal(expected);
          else {
            pieces.append(s.text);
            expected += s.text;
          }
        }
        expect(pieces.read()).to.equal(expected);
        expect(pieces.read()).to.equal(expected);
      }),
      { seed: 0x5712, numRuns: 300 },
    );
  });
});

/**
 * What thousands of open streams hold is most of a busy service's heap: the text gathered so far
 * must be held as its characters in a few joined blocks, not as one string per delta (a 16-byte
 * header and a few characters each). 2,000 texts of 1,000 distinct 4-character deltas each: the
 * characters are 4,000 bytes per text. Measured: 5.0–5.6 KB per text; with 128-piece blocks (up
 * to 127 delta strings and their list held unjoined) 7.7 KB. A core whose 1,000-delta reasoning
 * run gave way to a text run: 4.1 KB; 6.3 KB when the ended run keeps its blocks and pieces.
 */
describe('StringPieces and ResponseCore: what a text being gathered holds', function () {
  this.timeout(60_000);
  const SETUP = `
    const { StringPieces } = require(${JSON.stringify(join(__dirname, '../../lib/core/string-pieces'))});
    const { ResponseCore } = require(${JSON.stringify(join(__dirname, '../../lib/core/response-core'))});
    // A fresh 4-character string per delta, as a decoder cuts one out of each frame.
    const delta = (i) => String.fromCharCode(97 + (i % 26), 97 + ((i >> 5) % 26), 48 + (i % 10), 65 + ((i >> 3) % 26));
  `;

  it('a text of 1,000 deltas holds under 1.6 bytes per character', () => {
    const { retainedMiB, report } = retainedByScript(
      SETUP,
      `for (let t = 0; t < 2000; t++) {
        const pieces = new StringPieces('');
        for (let i = 0; i < 1000; i++) pieces.append(delta(i + t));
        kept.push(pieces);
      }`,
      'kept[7].read().length',
    );
    expect(Number(report[0])).to.equal(4000);
    const perText = (retainedMiB * 2 ** 20) / 2000;
    expect(perText).to.be.below(1.6 * 4000);
  });

  it('a run of deltas that ended is held as one string: a core whose reasoning run gave way to text', () => {
    const { retainedMiB, report } = retainedByScript(
      SETUP,
      `for (let t = 0; t < 2000; t++) {
        const core = new ResponseCore();
        for (let i = 0; i < 1000; i++) core.delta('reasoning', delta(i + t), null);
        core.delta('text', 'x', null);
        kept.push(core);
      }`,
      'kept[7].response().aiMessage.parts.map((p) => p.text.length).join(",")',
    );
    expect(report[0]).to.equal('4000,1');
    const perCore = (retainedMiB * 2 ** 20) / 2000;
    // The core's own objects (counter, slots, the text run) take well under 1 KB.
    expect(perCore).to.be.below(4000 + 1200);
  });
});
