import { expect } from 'chai';
import { StringPieces } from '../../lib/core/string-pieces';

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
});
