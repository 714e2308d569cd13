import { expect } from 'chai';
import { memoryStore } from '../../lib/relay/memory-store';
import { RelayError, type RelayBatch } from '../../lib/relay/response-store';

const PRODUCER = { producerId: 'p1', createdAt: '2026-01-01T00:00:00.000Z' };

/** A batch of events first…last as the producer writes them (`id: n\nevent: e\ndata: {}\n\n`). */
function batch(first: number, last: number, terminal = false): RelayBatch {
  let text = '';
  for (let n = first; n <= last; n++) text += `id: ${n}\nevent: ${n === last && terminal ? 'complete' : 'delta'}\ndata: {"n":${n}}\n\n`;
  return { first, last, terminal, text };
}

async function collect(iterable: AsyncIterable<RelayBatch>): Promise<RelayBatch[]> {
  const out: RelayBatch[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    expect(RelayError.isInstance(error)).to.equal(true);
    return error as RelayError;
  }
  throw new Error('Expected a rejection');
}

describe('memoryStore', () => {
  it('claims an id once: a second open is conflict', async () => {
    const store = memoryStore();
    await store.open('r', PRODUCER, { ttlMs: 60_000 });
    expect((await rejection(store.open('r', PRODUCER, { ttlMs: 60_000 }))).kind).to.equal('conflict');
  });

  it('fences appends: a gap or an append after the terminal is fenced, a retried identical batch resolves, an unknown log is lost', async () => {
    const store = memoryStore();
    await store.open('r', PRODUCER, { ttlMs: 60_000 });
    await store.append('r', batch(1, 3));
    await store.append('r', batch(1, 3));
    expect((await rejection(store.append('r', batch(5, 6)))).kind).to.equal('fenced');
    expect((await rejection(store.append('r', { ...batch(1, 3), text: 'other' }))).kind).to.equal('fenced');
    await store.append('r', batch(4, 5, true));
    expect((await rejection(store.append('r', batch(6, 6, true)))).kind).to.equal('fenced');
    await store.append('r', batch(4, 5, true));
    expect((await rejection(store.append('nope', batch(1, 1)))).kind).to.equal('lost');
    expect(await store.info('r')).to.deep.include({ state: 'ended', last: 5, producerId: 'p1' });
  });

  it('reads catch-up then live, the first batch cut at after + 1, and ends after the terminal', async () => {
    const store = memoryStore();
    await store.open('r', PRODUCER, { ttlMs: 60_000 });
    await store.append('r', batch(1, 4));
    const reading = collect(store.read('r', 2, new AbortController().signal));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.append('r', batch(5, 6));
    await store.append('r', batch(7, 7, true));
    const batches = await reading;
    expect(batches.map((b) => [b.first, b.last, b.terminal])).to.deep.equal([
      [3, 4, false],
      [5, 6, false],
      [7, 7, true],
    ]);
    expect(batches[0]?.text).to.equal(batch(3, 4).text);
    expect(await collect(store.read('r', 7, new AbortController().signal))).to.deep.equal([]);
    expect((await rejection(collect(store.read('nope', 0, new AbortController().signal)))).kind).to.equal('unknown');
  });

  it('ends a waiting read when its signal aborts', async () => {
    const store = memoryStore();
    await store.open('r', PRODUCER, { ttlMs: 60_000 });
    const controller = new AbortController();
    const reading = collect(store.read('r', 0, controller.signal));
    setTimeout(() => controller.abort(), 5);
    expect(await reading).to.deep.equal([]);
  });

  it('bounds the number of responses and the size of one', async () => {
    const store = memoryStore({ maxResponses: 2, maxResponseBytes: 100 });
    await store.open('a', PRODUCER, { ttlMs: 60_000 });
    await store.open('b', PRODUCER, { ttlMs: 60_000 });
    expect((await rejection(store.open('c', PRODUCER, { ttlMs: 60_000 }))).kind).to.equal('too-large');
    expect((await rejection(store.append('a', { first: 1, last: 1, terminal: false, text: 'x'.repeat(101) }))).kind).to.equal('too-large');
  });

  it('expires a log after its TTL and after retainMs', async () => {
    const store = memoryStore({ sweepMs: 5 });
    await store.open('r', PRODUCER, { ttlMs: 20 });
    await store.open('kept', PRODUCER, { ttlMs: 60_000 });
    await store.append('kept', batch(1, 1, true));
    await store.retain('kept', 20);
    expect(await store.info('r')).to.not.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await store.info('r')).to.equal(null);
    expect(await store.info('kept')).to.equal(null);
  });

  it('records the first stop and wakes the producing process', async () => {
    const store = memoryStore();
    const other = store.peer('p2');
    await other.open('r', { producerId: 'p2', createdAt: PRODUCER.createdAt }, { ttlMs: 60_000 });
    const heard: string[] = [];
    const unsubscribe = other.subscribeStops('p2', (id, request) => heard.push(`${id}:${request.by}`));
    await store.requestStop('r', { stopId: 's1', by: 'user', reason: null, at: 'now' });
    await store.requestStop('r', { stopId: 's2', by: 'admin', reason: null, at: 'later' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The first stop wins: a second one wakes the producer again with the stored stop.
    expect(heard).to.deep.equal(['r:user', 'r:user']);
    expect((await store.info('r'))?.stop?.stopId).to.equal('s1');
    unsubscribe();
  });

  it('tells a producer alive while its process view is open', async () => {
    const store = memoryStore();
    const other = store.peer('p2');
    expect(await store.alive('p2')).to.equal(true);
    await other.close();
    expect(await store.alive('p2')).to.equal(false);
    expect(await store.alive(store.producerId)).to.equal(true);
  });
});
