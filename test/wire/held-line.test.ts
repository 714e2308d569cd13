import { expect } from 'chai';
import { HeldLine } from '../../lib/wire/held-line';

describe('HeldLine', () => {
  it('holds nothing at first: take gives back the end it is handed', () => {
    const line = new HeldLine();
    expect([line.empty, line.length, line.take('data: x')]).to.deep.equal([true, 0, 'data: x']);
  });

  it('joins one held fragment with the end of its line, then holds nothing', () => {
    const line = new HeldLine();
    line.hold('data: {"a"');
    expect([line.empty, line.length]).to.deep.equal([false, 10]);
    expect(line.take(':1}')).to.equal('data: {"a":1}');
    expect([line.empty, line.length, line.take('next')]).to.deep.equal([true, 0, 'next']);
  });

  it('gives back a single fragment as it is when the line ends with the next text', () => {
    const line = new HeldLine();
    const fragment = 'data: a fragment of some length';
    line.hold(fragment);
    expect(line.take('')).to.equal(fragment);
  });

  it('joins a line spread over many texts in order, counting every character', () => {
    const line = new HeldLine();
    for (const fragment of ['da', 'ta', ': ', '{"', 'a"', ':1']) line.hold(fragment);
    expect(line.length).to.equal(12);
    expect(line.take('}')).to.equal('data: {"a":1}');
    line.hold('x');
    line.hold('y');
    expect(line.take('')).to.equal('xy');
  });

  it('lets go of everything on clear', () => {
    const line = new HeldLine();
    line.hold('a');
    line.hold('b');
    line.hold('c');
    line.clear();
    expect([line.empty, line.length, line.take('d')]).to.deep.equal([true, 0, 'd']);
  });
});
