// The behaviour every `ResponseStore` owes the relay (SPEC §13 "Stores", the contract in
// lib/relay/response-store.ts), as one suite any store runs: `describeStoreConformance(name,
// makeStore)`. Expected values are written from the contract: event texts are built here and a
// read must give back exactly the events after its cursor, each once, in order.

import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { RelayError, type RelayBatch, type ResponseStore, type StopRequest } from '../../../lib/relay/response-store';

/** The SSE text of event `sequence`, as the producer encodes it (one `id:` line first, a blank line last). */
export function eventText(sequence: number): string {
  return `id: ${sequence}\nevent: delta\ndata: {"index":0,"type":"text","text":"e${sequence}"}\n\n`;
}

/** The batch of events `first … last`. */
export function batchOf(first: number, last: number, terminal = false): RelayBatch {
  let text = '';
  for (let sequence = first; sequence <= last; sequence += 1) text += eventText(sequence);
  return { first, last, terminal, text };
}

/** The text of events `from … to`. */
export function eventsText(from: number, to: number): string {
  return from > to ? '' : batchOf(from, to).text;
}

/** A fresh response id. */
export function newResponseId(): string {
  return `r-${randomBytes(8).toString('hex')}`;
}

/** Reads until the read ends, with a deadline so that a read that never ends fails the test. */
export async function readAll(store: ResponseStore, responseId: string, after: number, timeoutMs = 5000): Promise<RelayBatch[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const batches: RelayBatch[] = [];
  try {
    for await (const batch of store.read(responseId, after, controller.signal)) batches.push(batch);
  } finally {
    clearTimeout(timer);
  }
  if (controller.signal.aborted) throw new Error(`Expected the read of ${responseId} after ${after} to end within ${timeoutMs} ms, got ${batches.length} batches and no end`);
  return batches;
}

/** Checks that `batches` are contiguous from `after + 1` and hold exactly events `after + 1 … last`. */
export function expectEvents(batches: readonly RelayBatch[], after: number, last: number): void {
  let next = after + 1;
  for (const batch of batches) {
    expect(batch.first, `batch ${batch.first}…${batch.last}`).to.equal(next);
    next = batch.last + 1;
  }
  expect(next - 1, 'last sequence read').to.equal(Math.max(after, last));
  expect(batches.map((batch) => batch.text).join('')).to.equal(eventsText(after + 1, last));
}

async function expectRelayError(promise: Promise<unknown>, kind: string): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(RelayError.isInstance(caught), `expected RelayError(${kind}), got ${String(caught)}`).to.equal(true);
  expect((caught as RelayError).kind).to.equal(kind);
}

function stopRequest(stopId: string, reason: string | null = 'enough'): StopRequest {
  return { stopId, by: 'stop', reason, at: '2026-01-02T03:04:05.000Z' };
}

const CREATED_AT = '2026-01-02T03:04:05.000Z';
const TTL_MS = 60_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when `condition()` holds (checked every 5 ms), or fails after `timeoutMs`. */
async function until(what: string, condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/**
 * Runs the store contract on the stores `makeStore` makes (a fresh one per test, closed after it).
 * The suite leaves all waiting to the store: no test advances a fake clock.
 */
export function describeStoreConformance(name: string, makeStore: () => ResponseStore | Promise<ResponseStore>): void {
  describe(`ResponseStore conformance: ${name}`, function () {
    this.timeout(10_000);
    let stores: ResponseStore[] = [];
    const fresh = async (): Promise<ResponseStore> => {
      const store = await makeStore();
      stores.push(store);
      return store;
    };
    const opened = async (store: ResponseStore, ttlMs = TTL_MS): Promise<string> => {
      const responseId = newResponseId();
      await store.open(responseId, { producerId: store.producerId, createdAt: CREATED_AT }, { ttlMs });
      return responseId;
    };
    afterEach(async () => {
      await Promise.all(stores.map((store) => store.close()));
      stores = [];
    });

    describe('open', () => {
      it('creates an empty log in state streaming, owned by the producer', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        expect(await store.info(responseId)).to.deep.equal({ state: 'streaming', producerId: store.producerId, last: 0, createdAt: CREATED_AT, stop: null });
      });

      it('rejects a second open of the same id with conflict, and the first producer keeps it', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await expectRelayError(store.open(responseId, { producerId: 'someone-else', createdAt: CREATED_AT }, { ttlMs: TTL_MS }), 'conflict');
        expect((await store.info(responseId))?.producerId).to.equal(store.producerId);
      });

      it('knows nothing of an id never opened', async () => {
        const store = await fresh();
        expect(await store.info(newResponseId())).to.equal(null);
      });
    });

    describe('append', () => {
      it('stores contiguous batches; info follows the last sequence, and a terminal batch ends the response', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 3));
        expect((await store.info(responseId))?.last).to.equal(3);
        await store.append(responseId, batchOf(4, 4));
        await store.append(responseId, batchOf(5, 7, true));
        const info = await store.info(responseId);
        expect(info?.last).to.equal(7);
        expect(info?.state).to.equal('ended');
      });

      it('resolves a retry of the very batch already stored, and keeps it once', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 2));
        await store.append(responseId, batchOf(3, 5));
        await store.append(responseId, batchOf(3, 5));
        await store.append(responseId, batchOf(6, 6, true));
        await store.append(responseId, batchOf(6, 6, true));
        expectEvents(await readAll(store, responseId, 0), 0, 6);
      });

      it('fences out another batch at a sequence already written (a reaper got there first)', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 2));
        const reaped: RelayBatch = { first: 3, last: 3, terminal: true, text: 'id: 3\nevent: error\ndata: {"by":"reaper"}\n\n' };
        await store.append(responseId, reaped);
        await expectRelayError(store.append(responseId, batchOf(3, 5)), 'fenced');
        await expectRelayError(store.append(responseId, { ...batchOf(1, 2), text: eventText(1) }), 'fenced');
        const batches = await readAll(store, responseId, 0);
        expect(batches.map((batch) => batch.text).join('')).to.equal(eventsText(1, 2) + reaped.text);
      });

      it('fences out a batch after the terminal', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 2, true));
        await expectRelayError(store.append(responseId, batchOf(3, 4)), 'fenced');
        await expectRelayError(store.append(responseId, batchOf(3, 3, true)), 'fenced');
        expect((await store.info(responseId))?.last).to.equal(2);
      });

      it('rejects an append to an unknown log with lost', async () => {
        const store = await fresh();
        await expectRelayError(store.append(newResponseId(), batchOf(1, 1)), 'lost');
      });

      it('rejects a malformed batch with a TypeError', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        for (const batch of [
          { first: 0, last: 1, terminal: false, text: '' },
          { first: 2, last: 1, terminal: false, text: '' },
          { first: 1, last: 1, terminal: 'no', text: '' },
        ]) {
          let caught: unknown;
          try {
            await store.append(responseId, batch as unknown as RelayBatch);
          } catch (error) {
            caught = error;
          }
          expect(caught, JSON.stringify(batch)).to.be.instanceOf(TypeError);
        }
      });
    });

    describe('read', () => {
      const SIZES = [1, 3, 1, 4, 2, 1];
      const appendAll = async (store: ResponseStore, responseId: string, sizes: readonly number[], terminalAt: number | null): Promise<number> => {
        let first = 1;
        for (const [i, size] of sizes.entries()) {
          await store.append(responseId, batchOf(first, first + size - 1, i === terminalAt));
          first += size;
        }
        return first - 1;
      };

      it('gives a finished log from every cursor: the first batch cut at after + 1, each event once, then ends', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const last = await appendAll(store, responseId, SIZES, SIZES.length - 1);
        for (let after = 0; after <= last + 1; after += 1) {
          const batches = await readAll(store, responseId, after);
          expectEvents(batches, after, last);
          if (after < last) expect(batches[batches.length - 1]?.terminal, `after ${after}`).to.equal(true);
        }
      });

      it('gives stored batches, then live ones, with no gap and no repeat, for every cursor', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const stored = await appendAll(store, responseId, SIZES, null);
        const reads = [];
        for (let after = 0; after <= stored; after += 1) reads.push(readAll(store, responseId, after).then((batches) => ({ after, batches })));
        await sleep(50);
        let first = stored + 1;
        for (const size of [2, 1, 3]) {
          await store.append(responseId, batchOf(first, first + size - 1));
          first += size;
          await sleep(10);
        }
        await store.append(responseId, batchOf(first, first, true));
        for (const { after, batches } of await Promise.all(reads)) expectEvents(batches, after, first);
      });

      it('pages through a long log (more batches than one page)', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const count = 600;
        for (let sequence = 1; sequence <= count; sequence += 1) await store.append(responseId, batchOf(sequence, sequence, sequence === count));
        expectEvents(await readAll(store, responseId, 0), 0, count);
        expectEvents(await readAll(store, responseId, 550), 550, count);
      });

      it('serves a read that starts at the very start of an empty log, live', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const reading = readAll(store, responseId, 0);
        await sleep(30);
        await store.append(responseId, batchOf(1, 2));
        await store.append(responseId, batchOf(3, 3, true));
        expectEvents(await reading, 0, 3);
      });

      it('rejects a read of an unknown id with unknown', async () => {
        const store = await fresh();
        await expectRelayError(readAll(store, newResponseId(), 0), 'unknown');
      });

      it('ends a live read when its signal aborts, and other reads go on', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 1));
        const controller = new AbortController();
        const seen: RelayBatch[] = [];
        const aborted = (async () => {
          for await (const batch of store.read(responseId, 0, controller.signal)) seen.push(batch);
        })();
        const other = readAll(store, responseId, 0);
        await until('the first batch', () => seen.length === 1);
        // Abort while the read waits for live batches (its catch-up is long done).
        await sleep(100);
        controller.abort();
        await aborted;
        await store.append(responseId, batchOf(2, 2, true));
        expectEvents(await other, 0, 2);
        expect(seen.map((batch) => batch.first)).to.deep.equal([1]);
      });

      it('gives nothing when the signal is already aborted', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 1, true));
        const batches: RelayBatch[] = [];
        for await (const batch of store.read(responseId, 0, AbortSignal.abort())) batches.push(batch);
        expect(batches).to.deep.equal([]);
      });

      it('ends a waiting read with closed when the store closes', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const reading = readAll(store, responseId, 0);
        await sleep(30);
        await store.close();
        await expectRelayError(reading, 'closed');
      });
    });

    describe('liveness and stop', () => {
      it('calls its own producer alive once it produces, and an unknown producer not', async () => {
        const store = await fresh();
        await opened(store);
        expect(await store.alive(store.producerId)).to.equal(true);
        expect(await store.alive(`p-${randomBytes(8).toString('hex')}`)).to.equal(false);
      });

      it('keeps the first stop on the response and wakes the producer with it', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        const calls: [string, StopRequest][] = [];
        const unsubscribe = store.subscribeStops(store.producerId, (id, request) => calls.push([id, request]));
        await store.requestStop(responseId, stopRequest('s1'));
        await until('the stop to reach the producer', () => calls.length === 1);
        expect(calls[0]).to.deep.equal([responseId, stopRequest('s1')]);
        await store.requestStop(responseId, stopRequest('s2', null));
        expect((await store.info(responseId))?.stop).to.deep.equal(stopRequest('s1'));
        await until('the second stop to reach the producer', () => calls.length === 2);
        expect(calls[1]?.[1].stopId).to.equal('s1');
        unsubscribe();
        await store.requestStop(responseId, stopRequest('s3'));
        await sleep(100);
        expect(calls).to.have.length(2);
      });

      it('delivers a stop asked before anyone subscribed', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.requestStop(responseId, stopRequest('early', null));
        const calls: string[] = [];
        const unsubscribe = store.subscribeStops(store.producerId, (id, request) => calls.push(`${id} ${request.stopId}`));
        await until('the early stop', () => calls.length === 1);
        unsubscribe();
        expect(calls).to.deep.equal([`${responseId} early`]);
      });
    });

    describe('retention and expiry', () => {
      it('keeps a finished log retainMs, then forgets it', async () => {
        const store = await fresh();
        const responseId = await opened(store);
        await store.append(responseId, batchOf(1, 2, true));
        await store.retain(responseId, 150);
        expectEvents(await readAll(store, responseId, 0), 0, 2);
        await sleep(300);
        expect(await store.info(responseId)).to.equal(null);
        await expectRelayError(readAll(store, responseId, 0), 'unknown');
      });

      it('forgets a log that sees no write for ttlMs; its producer then gets lost', async () => {
        const store = await fresh();
        const responseId = await opened(store, 150);
        await sleep(300);
        expect(await store.info(responseId)).to.equal(null);
        await expectRelayError(store.append(responseId, batchOf(1, 1)), 'lost');
      });
    });
  });
}
