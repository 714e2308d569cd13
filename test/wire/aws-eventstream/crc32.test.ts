import { expect } from 'chai';
import fc from 'fast-check';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from '../../../lib/wire/aws-eventstream/crc32';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('crc32', () => {
  it('gives the standard check value of "123456789" (0xCBF43926) and 0 for no bytes', () => {
    expect(crc32(ascii('123456789'))).to.equal(0xcbf43926);
    expect(crc32(new Uint8Array(0))).to.equal(0);
  });

  it('reads only bytes[start, end), without copying, and is unsigned', () => {
    const bytes = ascii('xx123456789yy');
    expect(crc32(bytes, 2, 11)).to.equal(0xcbf43926);
    // 0xFF×4 has its top bit set: the result must not come back negative.
    expect(crc32(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).to.equal(0xffffffff);
  });

  it('reads a view into a larger buffer (at an odd offset) as its own bytes', () => {
    const backing = ascii('#xx123456789yy');
    const view = backing.subarray(1);
    expect(crc32(view, 2, 11)).to.equal(0xcbf43926);
    expect(crc32(ascii('0123456789abcdefghij').subarray(3, 19))).to.equal(zlibCrc32(ascii('3456789abcdefghi')));
  });

  it('continues an earlier CRC', () => {
    const bytes = ascii('123456789');
    expect(crc32(bytes, 4, 9, crc32(bytes, 0, 4))).to.equal(0xcbf43926);
  });

  it("equals zlib's crc32 on any bytes and any range, alone and continued (seed 2024)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), fc.nat(), (bytes, a, b, c) => {
        const [start, middle, end] = [a, b, c].map((n) => n % (bytes.length + 1)).sort((x, y) => x - y);
        const range = bytes.subarray(start, end);
        expect(crc32(bytes, start, end)).to.equal(zlibCrc32(range));
        expect(crc32(bytes, middle, end, crc32(bytes, start, middle))).to.equal(zlibCrc32(range));
      }),
      { seed: 2024, numRuns: 2000 },
    );
  });
});
