import { expect } from 'chai';
import { setMaxListeners } from 'node:events';
import { MAX_QUEUED_ENTRIES } from '../../../lib/relay/redis/live-feed';
import { redisStore, type RedisResponseStore } from '../../../lib/relay/redis/redis-store';
import { RelayError, type RelayBatch } from '../../../lib/relay/response-store';
import { REDIS_LIBRARIES, connectRedis, type TestRedisClient } from '../support/redis-clients';
import { useRedisServer } from '../support/redis-server';
import { rejectionOf } from '../../support/rejection';
import { startReplyDroppingProxy } from '../support/reply-dropping-proxy';
import { batchOf, eventText, expectEvents, newResponseId, readAll } from '../support/store-conformance';

const CREATED_AT = '2026-01-02T03:04:05.000Z';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The connections the server has under `name` (CLIENT LIST). */
async function connectionsNamed(admin: (args: readonly string[]) => Promise<unknown>, name: string): Promise<number> {
  const list = String(await admin(['CLIENT', 'LIST']));
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
}

/** `INFO commandstats` as command name → calls. */
async function commandCalls(admin: (args: readonly string[]) => Promise<unknown>): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of String(await admin(['INFO', 'commandstats'])).split(/\r?\n/)) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match !== null) calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

/** Appends `batch` as the relay producer does: a failed attempt is sent again, unchanged, until it lands. */
async function appendRetrying(store: RedisResponseStore, responseId: string, batch: RelayBatch): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await store.append(responseId, batch);
      return attempt;
    } catch (error) {
      if (!RelayError.isInstance(error) || error.kind !== 'store' || attempt > 200) throw error;
      await sleep(5);
    }
  }
}

/** Reads to the end as a reconnecting viewer does: after a failed read it reads again after the last sequence it got. */
async function readResuming(store: RedisResponseStore, responseId: string, after: number): Promise<RelayBatch[]> {
  const batches: RelayBatch[] = [];
  let cursor = after;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      for (const batch of await readAll(store, responseId, cursor, 20_000)) {
        batches.push(batch);
        cursor = batch.last;
      }
      return batches;
    } catch (error) {
      if (!RelayError.isInstance(error) || error.kind !== 'store') throw error;
      // A failed read keeps what it already gave: readAll threw, so take it again from the cursor.
      await sleep(5);
    }
  }
  throw new Error('Expected the read to end within 200 attempts');
}

describe('redisStore on a real redis-server', function () {
  this.timeout(30_000);
  const server = useRedisServer();
  const admin = (args: readonly string[]): Promise<unknown> => server().admin(args);

  for (const library of REDIS_LIBRARIES) {
    describe(`through ${library}`, () => {
      const clients: TestRedisClient[] = [];
      const stores: RedisResponseStore[] = [];
      const connectNamed = async (name: string): Promise<TestRedisClient> => {
        const client = await connectRedis(library, server().url, name);
        clients.push(client);
        return client;
      };
      const storeOn = (client: TestRedisClient, options: Parameters<typeof redisStore>[1] = {}): RedisResponseStore => {
        const store = redisStore(client.client, { heartbeatMs: 200, producerTimeoutMs: 1000, tailBlockMs: 300, ...options });
        stores.push(store);
        return store;
      };
      const open = async (store: RedisResponseStore): Promise<string> => {
        const responseId = newResponseId();
        await store.open(responseId, { producerId: store.producerId, createdAt: CREATED_AT }, { ttlMs: 60_000 });
        return responseId;
      };
      afterEach(async () => {
        await Promise.all(stores.splice(0).map((store) => store.close()));
        await Promise.all(clients.splice(0).map((client) => client.close()));
      });

      it('serves many producers and readers of one process on at most two connections', async () => {
        const name = `two-${library}`;
        const store = storeOn(await connectNamed(name));
        const responses = await Promise.all(Array.from({ length: 12 }, () => open(store)));
        const stops: string[] = [];
        const unsubscribe = store.subscribeStops(store.producerId, (responseId) => stops.push(responseId));
        const reads = responses.flatMap((responseId) => [0, 2, 5].map((after) => readAll(store, responseId, after, 20_000).then((batches) => ({ after, batches }))));
        await sleep(50);
        let most = 0;
        await Promise.all(
          responses.map(async (responseId) => {
            for (let first = 1; first <= 20; first += 2) {
              await store.append(responseId, batchOf(first, first + 1, first + 1 === 20));
              most = Math.max(most, await connectionsNamed(admin, name));
            }
          }),
        );
        await store.requestStop(responses[0] as string, { stopId: 's', by: 'stop', reason: null, at: CREATED_AT });
        for (const { after, batches } of await Promise.all(reads)) expectEvents(batches, after, 20);
        while (stops.length === 0) await sleep(5);
        unsubscribe();
        most = Math.max(most, await connectionsNamed(admin, name));
        // The client's own connection and the store's one blocking connection, never more.
        expect(most).to.equal(2);
      });

      it('costs nothing but the one blocked XREAD while its reads wait, however many they are', async () => {
        const producer = storeOn(await connectNamed(`idle-producer-${library}`));
        const responses = await Promise.all(Array.from({ length: 25 }, () => open(producer)));
        // The producer goes quiet (no heartbeat); the viewer process only waits.
        await producer.close();
        const viewer = storeOn(await connectNamed(`idle-viewer-${library}`), { tailBlockMs: 200 });
        const controller = new AbortController();
        setMaxListeners(responses.length + 10, controller.signal);
        const reads = responses.map(async (responseId) => {
          for await (const batch of viewer.read(responseId, 0, controller.signal)) void batch;
        });
        await sleep(150);
        await admin(['CONFIG', 'RESETSTAT']);
        await sleep(600);
        const calls = await commandCalls(admin);
        controller.abort();
        await Promise.all(reads);
        calls.delete('config|resetstat');
        calls.delete('info');
        const xread = calls.get('xread') ?? 0;
        calls.delete('xread');
        // One XREAD per 200 ms block (a few more while a late read joins), not one per read.
        expect(xread).to.be.within(1, 6);
        expect([...calls.keys()]).to.deep.equal([]);
      });

      it('loses nothing and repeats nothing while every connection is killed again and again', async () => {
        const producer = storeOn(await connectNamed(`killed-producer-${library}`));
        const viewer = storeOn(await connectNamed(`killed-viewer-${library}`));
        const responseId = await open(producer);
        const last = 360;
        const reads = [0, 0, 7, 100, 359].map((after) => readResuming(viewer, responseId, after).then((batches) => ({ after, batches })));
        let killing = true;
        let kills = 0;
        const killer = (async () => {
          while (killing) {
            await sleep(15);
            kills += Number(await admin(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']));
          }
        })();
        let retried = 0;
        for (let first = 1; first <= last; first += 3) retried += (await appendRetrying(producer, responseId, batchOf(first, first + 2, first + 2 === last))) - 1;
        killing = false;
        await killer;
        for (const { after, batches } of await Promise.all(reads)) expectEvents(batches, after, last);
        expect(kills, 'connections killed').to.be.greaterThan(5);
        expect(retried + kills, 'appends retried or connections killed').to.be.greaterThan(0);
      });

      it('resolves an append retried after its reply was lost (the first attempt landed)', async () => {
        const proxy = await startReplyDroppingProxy(server().port);
        try {
          const through = await connectRedis(library, proxy.url, `lost-reply-${library}`);
          clients.push(through);
          const store = storeOn(through, { heartbeatMs: 10_000, producerTimeoutMs: 20_000 });
          const responseId = await open(store);
          await store.append(responseId, batchOf(1, 2));
          proxy.dropNextReply();
          const attempts = await appendRetrying(store, responseId, batchOf(3, 5));
          expect(proxy.dropped, 'replies lost').to.equal(1);
          // ioredis may send the command again by itself after reconnecting; either way it landed once.
          expect(attempts).to.be.within(1, 2);
          await appendRetrying(store, responseId, batchOf(6, 6, true));
          expectEvents(await readAll(store, responseId, 0), 0, 6);
          const entries = (await admin(['XLEN', `ps:{0}:r:${responseId}:log`])) as number;
          expect(entries).to.equal(3);
        } finally {
          await proxy.close();
        }
      });

      it('tells a landed retry from a different batch at the same sequence written beside the store', async () => {
        const store = storeOn(await connectNamed(`beside-${library}`));
        const responseId = await open(store);
        const log = `ps:{0}:r:${responseId}:log`;
        // The first attempt of batch 1…2 landed; its reply never came back.
        await admin(['XADD', log, 'NOMKSTREAM', '0-1', 'l', '2', 't', '0', 'w', eventText(1) + eventText(2)]);
        await store.append(responseId, batchOf(1, 2));
        let caught: unknown;
        try {
          await store
            .append(responseId, { first: 3, last: 3, terminal: false, text: eventText(3) })
            .then(() => store.append(responseId, { first: 3, last: 4, terminal: false, text: eventText(3) + eventText(4) }));
        } catch (error) {
          caught = error;
        }
        expect(RelayError.isInstance(caught) && caught.kind).to.equal('fenced');
        expect((await store.info(responseId))?.last).to.equal(3);
      });

      it('appends a run of waiting batches in one script call, one entry and one XADD each; a retry resolves, another writer fences it, a terminal seals', async () => {
        const store = storeOn(await connectNamed(`batches-${library}`));
        const responseId = await open(store);
        const log = `ps:{0}:r:${responseId}:log`;
        const before = await commandCalls(admin);
        await store.appendBatches(responseId, [batchOf(1, 2), batchOf(3, 3), batchOf(4, 6)]);
        const after = await commandCalls(admin);
        expect((after.get('xadd') ?? 0) - (before.get('xadd') ?? 0), 'XADDs').to.equal(3);
        expect((after.get('eval') ?? 0) - (before.get('eval') ?? 0), 'script calls').to.equal(1);
        expect(await admin(['XLEN', log])).to.equal(3);
        // Its reply was lost: the same run again resolves and adds nothing.
        await store.appendBatches(responseId, [batchOf(1, 2), batchOf(3, 3), batchOf(4, 6)]);
        expect(await admin(['XLEN', log])).to.equal(3);
        // Another writer's entry at 7: the run is fenced there, and what it already held stays.
        await admin(['XADD', log, 'NOMKSTREAM', '0-7', 'l', '7', 't', '1', 'w', eventText(7)]);
        const caught = await rejectionOf(() => store.appendBatches(responseId, [batchOf(7, 8), batchOf(9, 9, true)]));
        expect(RelayError.isInstance(caught) && caught.kind).to.equal('fenced');
        expect(String((caught as Error).message)).to.include('sequence 7');
        expect(await admin(['XLEN', log])).to.equal(4);

        const sealed = await open(store);
        await store.appendBatches(sealed, [batchOf(1, 1), batchOf(2, 3, true)]);
        expect((await store.info(sealed))?.state).to.equal('ended');
        expectEvents(await readAll(store, sealed, 0), 0, 3);
        const late = await rejectionOf(() => store.appendBatches(sealed, [batchOf(4, 4), batchOf(5, 5)]));
        expect(RelayError.isInstance(late) && late.kind).to.equal('fenced');

        const gone = await open(store);
        await admin(['DEL', `ps:{0}:r:${gone}:log`]);
        const lost = await rejectionOf(() => store.appendBatches(gone, [batchOf(1, 1), batchOf(2, 2)]));
        expect(RelayError.isInstance(lost) && lost.kind).to.equal('lost');
      });

      it('keeps its keys under the prefix, hash-tagged, with TTLs, and leaves the alive key to lapse after close', async () => {
        const store = storeOn(await connectNamed(`keys-${library}`), { keyPrefix: 'tst', heartbeatMs: 100, producerTimeoutMs: 300 });
        const responseId = newResponseId();
        await store.open(responseId, { producerId: store.producerId, createdAt: CREATED_AT }, { ttlMs: 60_000 });
        await store.append(responseId, batchOf(1, 1));
        await store.requestStop(responseId, { stopId: 'k', by: 'stop', reason: 'r', at: CREATED_AT });
        const keys = ((await admin(['KEYS', 'tst:*'])) as string[]).filter((key) => key.includes(responseId) || key.includes(store.producerId)).sort();
        expect(keys).to.deep.equal([`tst:{0}:r:${responseId}:log`, `tst:{0}:r:${responseId}:meta`, `tst:{p:${store.producerId}}:alive`, `tst:{p:${store.producerId}}:ctl`].sort());
        for (const key of keys) {
          const ttl = Number(await admin(['PTTL', key]));
          expect(ttl, key).to.be.greaterThan(0);
        }
        expect(await admin(['HGET', `tst:{0}:r:${responseId}:meta`, 'owner'])).to.equal(store.producerId);
        const other = storeOn(await connectNamed(`keys-other-${library}`), { keyPrefix: 'tst' });
        expect(await other.alive(store.producerId)).to.equal(true);
        // Refreshed every 100 ms, the 300 ms heartbeat outlives its first beat.
        await sleep(450);
        expect(await other.alive(store.producerId)).to.equal(true);
        await store.close();
        await sleep(450);
        expect(await other.alive(store.producerId)).to.equal(false);
      });

      it('claims a response with its TTL in one step: a producer that dies right after winning leaves no meta key for good', async () => {
        const client = (await connectNamed(`claim-${library}`)).client;
        // The process "dies" after its claim: every command of open() after the election fails.
        const dying = new Proxy(client, {
          get(target, name) {
            if (name === 'hSet' || name === 'pExpire' || name === 'createEmptyStream') return () => Promise.reject(new Error('the process died'));
            const value: unknown = Reflect.get(target, name);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
        const store = redisStore(dying, { heartbeatMs: 200, producerTimeoutMs: 1000, tailBlockMs: 300 });
        stores.push(store);
        const responseId = newResponseId();
        let caught: unknown;
        await store.open(responseId, { producerId: store.producerId, createdAt: CREATED_AT }, { ttlMs: 60_000 }).catch((error: unknown) => (caught = error));
        expect(RelayError.isInstance(caught) && caught.kind).to.equal('store');
        const meta = `ps:{0}:r:${responseId}:meta`;
        expect(await admin(['HGET', meta, 'owner'])).to.equal(store.producerId);
        const ttl = Number(await admin(['PTTL', meta]));
        expect(ttl).to.be.within(1, 60_000);
      });

      it("pushes a producing log's TTL out with its appends, at most every tenth of the TTL", async () => {
        const store = storeOn(await connectNamed(`ttl-${library}`));
        const responseId = newResponseId();
        await store.open(responseId, { producerId: store.producerId, createdAt: CREATED_AT }, { ttlMs: 5000 });
        const log = `ps:{0}:r:${responseId}:log`;
        await sleep(550);
        await admin(['CONFIG', 'RESETSTAT']);
        const started = Date.now();
        for (let first = 1; first <= 20; first += 1) await store.append(responseId, batchOf(first, first));
        const took = Date.now() - started;
        const calls = (await commandCalls(admin)).get('pexpire') ?? 0;
        // The first append after a tenth of the TTL (500 ms) refreshes log and meta; later ones only
        // when another tenth has passed.
        expect(calls).to.be.within(2, 2 * (1 + Math.floor(took / 500)));
        for (const key of [log, `ps:{0}:r:${responseId}:meta`]) {
          // Refreshed during the appends, not 550 ms before them at the open.
          expect(Number(await admin(['PTTL', key])), key).to.be.greaterThan(5000 - (Date.now() - started) - 100);
        }
      });

      it('gives a reader that stops pulling everything once it pulls again (it leaves the live loop and catches up)', async () => {
        const store = storeOn(await connectNamed(`slow-${library}`));
        const responseId = await open(store);
        await store.append(responseId, batchOf(1, 1));
        const iterator = store.read(responseId, 0, new AbortController().signal)[Symbol.asyncIterator]();
        const batches: RelayBatch[] = [(await iterator.next()).value as RelayBatch];
        const pending = iterator.next();
        await sleep(50);
        await store.append(responseId, batchOf(2, 2));
        batches.push((await pending).value as RelayBatch);
        // More live entries than a read may hold while nobody pulls.
        const last = 2 + MAX_QUEUED_ENTRIES + 100;
        for (let first = 3; first <= last; first += 1) await store.append(responseId, batchOf(first, first, first === last));
        for (;;) {
          const step = await iterator.next();
          if (step.done === true) break;
          batches.push(step.value);
        }
        expectEvents(batches, 0, last);
      });

      it('wakes the producing process when another process asks for the stop', async () => {
        const producer = storeOn(await connectNamed(`stop-producer-${library}`));
        const stopper = storeOn(await connectNamed(`stop-stopper-${library}`));
        const responseId = await open(producer);
        const woken: string[] = [];
        const unsubscribe = producer.subscribeStops(producer.producerId, (id, request) => woken.push(`${id} ${request.stopId} ${request.reason}`));
        await sleep(50);
        const asked = Date.now();
        await stopper.requestStop(responseId, { stopId: 'x', by: 'stop', reason: 'user', at: CREATED_AT });
        while (woken.length === 0 && Date.now() - asked < 3000) await sleep(2);
        unsubscribe();
        expect(woken).to.deep.equal([`${responseId} x user`]);
        expect((await stopper.info(responseId))?.stop?.stopId).to.equal('x');
      });
    });
  }

  it('rejects misuse with a TypeError', () => {
    const fake = { sendCommand: async () => null, duplicate: () => fake, connect: async () => {}, destroy: () => {}, on: () => {} };
    expect(() => redisStore(null as never)).to.throw(TypeError, /Expected a Redis client/);
    expect(() => redisStore({} as never)).to.throw(TypeError, /fromIoredis/);
    const ioredisLike = { call: async () => null, sendCommand: () => {}, duplicate: () => ioredisLike, status: 'ready' };
    expect(() => redisStore(ioredisLike as never)).to.throw(TypeError, /got an ioredis client: pass fromIoredis/);
    expect(() => redisStore(fake, { keyPrefix: 'a b' })).to.throw(TypeError, /keyPrefix/);
    expect(() => redisStore(fake, { heartbeatMs: 0 })).to.throw(TypeError, /heartbeatMs/);
    expect(() => redisStore(fake, { heartbeatMs: 1000, producerTimeoutMs: 1000 })).to.throw(TypeError, /producerTimeoutMs/);
    const store = redisStore(fake);
    expect(() => store.read('bad id', 0, new AbortController().signal)).to.throw(TypeError, /response id/);
    expect(() => store.read('ok', -1, new AbortController().signal)).to.throw(TypeError, /after/);
    void store.close();
  });
});
