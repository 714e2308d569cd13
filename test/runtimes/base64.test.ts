import { expect } from 'chai';
import fc from 'fast-check';
import { base64ToBytes, bytesToBase64 } from '../../lib/parts/base64';
import { mediaPart } from '../../lib/parts/factories';
import { partFromJSON, partToJSON } from '../../lib/parts/json';

// Node's Buffer is the reference here only: the library itself may not use it (it exists on Node alone).
const nodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** The encoder works in pieces of 0x8000 bytes; these lengths sit on and around the piece edges. */
const PIECE = 0x8000;

describe('portable base64 (bytesToBase64 / base64ToBytes)', () => {
  it('encodes the RFC 4648 test vectors', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      const bytes = new TextEncoder().encode(plain);
      expect(bytesToBase64(bytes), plain).to.equal(encoded);
      expect(Array.from(base64ToBytes(encoded)), encoded).to.deep.equal(Array.from(bytes));
    }
  });

  it('encodes every byte value, the high ones included, as Node does', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesToBase64(all)).to.equal(nodeBase64(all));
    expect(Array.from(base64ToBytes(nodeBase64(all)))).to.deep.equal(Array.from(all));
  });

  it('reads only the view of a subarray, not its whole buffer', () => {
    const whole = Uint8Array.from({ length: 64 }, (_, i) => 255 - i);
    const view = whole.subarray(5, 22);
    expect(bytesToBase64(view)).to.equal(nodeBase64(view));
  });

  it('matches Node on lengths around its piece size', () => {
    for (const length of [PIECE - 2, PIECE - 1, PIECE, PIECE + 1, PIECE + 2, 3 * PIECE + 1]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 2654435761) >>> 24);
      const encoded = bytesToBase64(bytes);
      expect(encoded, `length ${length}`).to.equal(nodeBase64(bytes));
      expect(Buffer.from(base64ToBytes(encoded)).equals(Buffer.from(bytes)), `length ${length}`).to.equal(true);
    }
  });

  it('matches Node on random bytes and views (seed 20261101)', () => {
    const views = fc
      .tuple(fc.uint8Array({ minLength: 0, maxLength: 3000 }), fc.nat(40), fc.nat(40))
      .map(([bytes, head, tail]) => bytes.subarray(Math.min(head, bytes.length), Math.max(Math.min(head, bytes.length), bytes.length - tail)));
    fc.assert(
      fc.property(views, (bytes) => {
        const encoded = bytesToBase64(bytes);
        expect(encoded).to.equal(nodeBase64(bytes));
        const decoded = base64ToBytes(encoded);
        expect(decoded).to.be.instanceOf(Uint8Array);
        expect(Buffer.from(decoded).equals(Buffer.from(bytes))).to.equal(true);
      }),
      { seed: 20261101, numRuns: 300 },
    );
  });

  it('takes time linear in the size (8 round trips of 512 KiB against one of 4 MiB)', () => {
    const bytesOf = (size: number): Uint8Array => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 40503) & 255;
      return bytes;
    };
    const small = bytesOf(1 << 19);
    const large = bytesOf(4 << 20);
    // The same number of bytes either way: linear code takes about as long for both, quadratic
    // code 8 times as long for the large one. Repeating the small one averages out its noise.
    const best = (work: () => void): number => {
      let fastest = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        work();
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    const smallTime = best(() => {
      for (let i = 0; i < 8; i++) base64ToBytes(bytesToBase64(small));
    });
    const largeTime = best(() => base64ToBytes(bytesToBase64(large)));
    expect(largeTime / Math.max(smallTime, 1)).to.be.below(4);
  });
});

describe('partToJSON / partFromJSON on byte media (no Buffer)', () => {
  it('round-trips bytes through base64 text equal to Node’s', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7 + 3) & 255);
    const json = partToJSON(mediaPart({ id: null, mimeType: 'image/png', name: 'dot.png', dataKind: 'bytes', data }));
    expect((json.media as { data: string }).data).to.equal(nodeBase64(data));
    const back = partFromJSON(JSON.parse(JSON.stringify(json)));
    if (back.type !== 'media' || back.media.dataKind !== 'bytes') throw new Error(`Expected a byte media part, got ${back.type}`);
    expect(Array.from(back.media.data)).to.deep.equal(Array.from(data));
  });
});
