// CRC-32 as zlib, PNG and the AWS event stream compute it: the reflected IEEE polynomial
// 0xEDB88320, initial value and final XOR 0xFFFFFFFF. Read eight bytes per step through eight
// tables ("slicing by 8", two little-endian words read through a DataView): about four times the
// speed of one table lookup per byte, for 8 KiB of tables.

const POLYNOMIAL = 0xedb88320;

/**
 * The eight 256-entry tables, one after another: table k maps a byte to its CRC k bytes further on.
 * Int32Array rather than Uint32Array: the XORs work on signed 32-bit words either way, and reading
 * signed entries measured faster (an unsigned one above 2³¹ does not fit the compiler's int32 path).
 */
function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
}

// Built when the module loads (2048 entries, a few microseconds): a constant is cheaper to read in
// the loop than a table made on first use.
const TABLES = buildTables();

/** A DataView over exactly the bytes of `bytes`. */
export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The CRC-32 (IEEE, as zlib's `crc32`) of `bytes[start, end)`, as an unsigned 32-bit integer;
 * nothing is copied. `previous` continues an earlier CRC: `crc32(b, m, e, crc32(b, s, m))`
 * equals `crc32(b, s, e)`. Offsets are clamped to the array. A caller that reads many ranges of
 * the same bytes passes `view`, a `viewOf(bytes)` made once, through which words are read.
 */
export function crc32(bytes: Uint8Array, start = 0, end: number = bytes.length, previous = 0, view: DataView = viewOf(bytes)): number {
  const t = TABLES;
  let i = start > 0 ? start : 0;
  const stop = end < bytes.length ? end : bytes.length;
  let c = ~previous;
  for (const eight = stop - 8; i <= eight; i += 8) {
    // Little-endian words: the first byte is the low byte, as the reflected CRC consumes them.
    const lo = c ^ view.getInt32(i, true);
    const hi = view.getInt32(i + 4, true);
    c =
      t[1792 + (lo & 0xff)] ^
      t[1536 + ((lo >>> 8) & 0xff)] ^
      t[1280 + ((lo >>> 16) & 0xff)] ^
      t[1024 + (lo >>> 24)] ^
      t[768 + (hi & 0xff)] ^
      t[512 + ((hi >>> 8) & 0xff)] ^
      t[256 + ((hi >>> 16) & 0xff)] ^
      t[hi >>> 24];
  }
  for (; i < stop; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
