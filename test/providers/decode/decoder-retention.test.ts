import { expect } from 'chai';
import { join } from 'path';
import { runHeapScript } from '../../support/heap-script';

// What a decoder holds between reads is its own: an idle stream keeps the fragment of the line
// (or the open event) it was cut off in, never the whole network chunk that fragment came from.

/** Runs `body` in a process with the collector exposed; returns the MiB retained by the decoders it keeps. */
function retainedMiB(factory: string, body: string): number {
  const script = `
    const { ${factory} } = require(${JSON.stringify(join(__dirname, `../../../lib/wire/${factory === 'createSseDecoder' ? 'sse-decoder' : 'ndjson-decoder'}`))});
    const kept = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) {
      const decoder = ${factory}();
      ${body}
      kept.push(decoder);
    }
    gc();
    process.stdout.write(String((process.memoryUsage().heapUsed - before) / 2 ** 20) + ' ' + kept.length);
  `;
  const [mib, count] = runHeapScript(script).map(Number);
  expect(count).to.equal(100);
  return mib;
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
