import { expect } from 'chai';
import { openChunkReader, type ChunkReader, type StreamSource } from '../../lib/transport/byte-source';

async function readAll(reader: ChunkReader): Promise<(Uint8Array | string)[]> {
  const chunks: (Uint8Array | string)[] = [];
  for (;;) {
    const result = await reader.read();
    if (result.done) return chunks;
    chunks.push(result.value);
  }
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('openChunkReader', () => {
  const a = new Uint8Array([97]);
  const b = new Uint8Array([98]);

  it('reads a ReadableStream', async () => {
    expect(await readAll(openChunkReader(streamOf([a, b])))).to.deep.equal([a, b]);
  });

  it('reads the body of a Response', async () => {
    expect(await readAll(openChunkReader(new Response(streamOf([a, b]))))).to.deep.equal([a, b]);
  });

  it('reads a Response without a body as empty', async () => {
    expect(await readAll(openChunkReader(new Response(null, { status: 204 })))).to.deep.equal([]);
  });

  it('reads an async iterable of bytes and strings', async () => {
    async function* chunks() {
      yield a;
      yield 'b';
    }
    expect(await readAll(openChunkReader(chunks()))).to.deep.equal([a, 'b']);
  });

  it('refuses a Response whose body was already read', async () => {
    const response = new Response('data: x\n\n');
    await response.text();
    expect(() => openChunkReader(response)).to.throw(TypeError, 'Expected a Response whose body has not been read');
  });

  it('refuses what is not a source', () => {
    expect(() => openChunkReader('data: x' as unknown as StreamSource)).to.throw(
      TypeError,
      'Expected a Response, a ReadableStream<Uint8Array> or an AsyncIterable of Uint8Array or string chunks, got string "data: x"',
    );
  });

  it('cancel() ends a pending read of a ReadableStream and cancels the stream', async () => {
    let cancelledWith: unknown = 'not cancelled';
    const stream = new ReadableStream<Uint8Array>({
      cancel(reason) {
        cancelledWith = reason;
      },
    });
    const reader = openChunkReader(stream);
    const pending = reader.read();
    reader.cancel('stop');
    reader.cancel('again');
    expect(await pending).to.deep.equal({ done: true, value: undefined });
    expect(cancelledWith).to.equal('stop');
  });

  it('cancel() returns the iterator of an async iterable', async () => {
    let finished = false;
    async function* chunks() {
      try {
        yield a;
        yield b;
      } finally {
        finished = true;
      }
    }
    const reader = openChunkReader(chunks());
    await reader.read();
    reader.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).to.equal(true);
  });
});
