import { expect } from 'chai';
import { join } from 'path';
import { runHeapScript } from '../support/heap-script';

// What a decoder holds between reads is its own: an idle stream keeps the fragment of the line
// (or the open event) it was cut off in, never the whole network chunk that fragment came from.

type DecoderFactory = 'createSseDecoder' | 'createNdjsonDecoder';

/**
 * Runs `setup`, then makes `count` decoders, each fed by `body` (which sees `decoder` and `i`), in a
 * process with the collector exposed; returns the bytes per decoder that the heap grew by. What
 * `setup` makes (and the script keeps: `texts`) is not counted.
 */
function retainedPerDecoder(factory: DecoderFactory, count: number, body: string, setup = 'const texts = [];'): number {
  const script = `
    const { ${factory} } = require(${JSON.stringify(join(__dirname, `../../lib/wire/${factory === 'createSseDecoder' ? 'sse-decoder' : 'ndjson-decoder'}`))});
    ${setup}
    const kept = [];
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < ${count}; i++) {
      const decoder = ${factory}();
      ${body}
      kept.push(decoder);
    }
    gc();
    gc();
    // Both lists are read after the collection, so that neither is dead (and collected) before it.
    process.stdout.write(String((process.memoryUsage().heapUsed - before) / ${count}) + ' ' + kept.length + ' ' + texts.length);
  `;
  const [bytes, kept] = runHeapScript(script).map(Number);
  expect(kept).to.equal(count);
  return bytes;
}

/** The MiB retained by 100 decoders, each fed by `body`. */
function retainedMiB(factory: DecoderFactory, body: string): number {
  return (retainedPerDecoder(factory, 100, body) * 100) / 2 ** 20;
}

// 100 decoders, each fed a 200 KB text of its own (a network chunk): with views into the texts
// some 20 MB would stay alive; with their own strings, a few hundred bytes each.
const CHUNK = "'x'.repeat(200000) + String(i)";

describe('decoders between reads', function () {
  this.timeout(30_000);

  it('SSE: a line cut off at the end of a chunk does not keep the chunk', () => {
    expect(retainedMiB('createSseDecoder', `decoder.feed(${CHUNK} + '\\n\\ndata: {"delta":"a line cut off at the end of the chunk' + i);`)).to.be.below(2);
  });

  it('SSE: an event left open (its data line read, its blank line not yet) does not keep the chunk', () => {
    expect(retainedMiB('createSseDecoder', `decoder.feed(${CHUNK} + '\\n\\nevent: content_block_delta\\ndata: {"delta":"a whole data line, number ' + i + '"}\\n');`)).to.be.below(2);
  });

  it('NDJSON: a line cut off at the end of a chunk does not keep the chunk', () => {
    expect(retainedMiB('createNdjsonDecoder', `decoder.feed('{"a":1}\\n' + ${CHUNK} + '\\n{"message":{"content":"a line cut off at the end ' + i);`)).to.be.below(2);
  });
});

/**
 * Bytes a decoder keeps (beyond the texts it was fed, which the script keeps anyway) while it waits
 * inside a line: its own fields and a view of the fragment held. A buffer of fragments emptied and
 * refilled at every read (`pending.length = 0`, then `push`) or a frame list made afresh for the
 * next read would be new young objects each read, held across the wait for the next one: with
 * thousands of streams open they outlive minor collections and are copied and promoted.
 */
function keptPerDecoder(factory: DecoderFactory, text: string): number {
  // Flat strings (joined, not concatenated), so that reading them allocates nothing.
  return retainedPerDecoder(factory, 100_000, 'decoder.feed(texts[i]);', `const texts = []; for (let i = 0; i < 100000; i++) texts.push([${JSON.stringify(text)}, i].join(''));`);
}

describe('decoders waiting inside a line', function () {
  this.timeout(30_000);

  // Measured: 234 B per SSE decoder and 153 B per NDJSON decoder; 408 and 297 B with a fragment
  // buffer that is emptied at every line end (and, SSE, a fresh frame list kept for the next read).
  it('SSE: a decoder holds its fields and its fragment, no buffer made per read', () => {
    const text = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\nevent: content_block_delta\ndata: {"type":"content_bl';
    expect(keptPerDecoder('createSseDecoder', text)).to.be.below(320);
  });

  it('NDJSON: a decoder holds its fields and its fragment, no buffer made per read', () => {
    expect(keptPerDecoder('createNdjsonDecoder', '{"message":{"content":"Hi"}}\n{"message":{"cont')).to.be.below(225);
  });
});
