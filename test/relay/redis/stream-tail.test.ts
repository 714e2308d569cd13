import { expect } from 'chai';
import type { RelayStreamEntry } from '../../../lib/relay/redis/relay-redis-client';
import { StreamTail } from '../../../lib/relay/redis/stream-tail';
import { REDIS_LIBRARIES, connectRedis, type TestRedisClient } from '../support/redis-clients';
import { useRedisServer } from '../support/redis-server';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A subscription's view: the ids it was given, in order. */
function recorder(): { ids: string[]; listener: { entries(entries: readonly RelayStreamEntry[]): void; fail(error: Error): void } } {
  const ids: string[] = [];
  return {
    ids,
    listener: {
      entries: (entries) => ids.push(...entries.map((entry) => entry.id)),
      fail: (error) => ids.push(`failed: ${error.message}`),
    },
  };
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${timeoutMs} ms`);
    await sleep(2);
  }
}

describe('StreamTail (one blocking XREAD for all live reads of a process)', function () {
  this.timeout(20_000);
  const server = useRedisServer();
  const admin = (args: readonly string[]): Promise<unknown> => server().admin(args);
  let key = 0;
  const nextKey = (): string => `tail:{0}:${++key}`;

  for (const library of REDIS_LIBRARIES) {
    describe(`through ${library}`, () => {
      let client: TestRedisClient;
      let tail: StreamTail;
      beforeEach(async () => {
        client = await connectRedis(library, server().url, `tail-${library}`);
      });
      afterEach(async () => {
        tail.close();
        await client.close();
      });

      it('gives each subscription of one stream exactly the entries after its own cursor', async () => {
        tail = new StreamTail(client.client, 5000);
        const stream = nextKey();
        for (const id of ['0-1', '0-2', '0-3']) await admin(['XADD', stream, id, 'f', 'v']);
        const early = recorder();
        const late = recorder();
        tail.subscribe(stream, '0-1', early.listener);
        tail.subscribe(stream, '0-3', late.listener);
        await until('the stored entries after 0-1', () => early.ids.length >= 2, 3000);
        for (const id of ['0-4', '0-5']) await admin(['XADD', stream, id, 'f', 'v']);
        await until('the new entries', () => early.ids.length >= 4 && late.ids.length >= 2, 3000);
        await sleep(50);
        expect(early.ids).to.deep.equal(['0-2', '0-3', '0-4', '0-5']);
        expect(late.ids).to.deep.equal(['0-4', '0-5']);
      });

      it('lets a joining subscription in at once by unblocking the XREAD in flight (CLIENT UNBLOCK)', async () => {
        tail = new StreamTail(client.client, 5000);
        const first = nextKey();
        const second = nextKey();
        const a = recorder();
        tail.subscribe(first, '0-0', a.listener);
        await admin(['XADD', first, '0-1', 'f', 'v']);
        await until('the first stream entry', () => a.ids.length === 1, 3000);
        await sleep(50);
        const b = recorder();
        tail.subscribe(second, '0-0', b.listener);
        await sleep(50);
        await admin(['XADD', second, '0-1', 'f', 'v']);
        // Well inside the 5 s block the loop would otherwise sit out.
        await until('the joining stream entry', () => b.ids.length === 1, 2500);
        expect(b.ids).to.deep.equal(['0-1']);
      });

      it('serves a joining subscription within one block when CLIENT ID and CLIENT UNBLOCK are not allowed', async () => {
        await admin(['ACL', 'SETUSER', 'noclient', 'on', '>secret-for-tests', '~*', '&*', '+@all', '-client|id', '-client|unblock']);
        const limitedUrl = server().url.replace('redis://', 'redis://noclient:secret-for-tests@');
        const limited = await connectRedis(library, limitedUrl, `tail-limited-${library}`);
        try {
          tail = new StreamTail(limited.client, 400);
          const first = nextKey();
          const second = nextKey();
          const a = recorder();
          tail.subscribe(first, '0-0', a.listener);
          await sleep(50);
          const b = recorder();
          tail.subscribe(second, '0-0', b.listener);
          await admin(['XADD', second, '0-1', 'f', 'v']);
          await until('the joining stream entry', () => b.ids.length === 1, 3000);
          expect(b.ids).to.deep.equal(['0-1']);

          // A subscription that joins behind the XREAD in flight (which it cannot interrupt here)
          // gets nothing from that XREAD's answer: its own next XREAD reads from its own cursor.
          for (const id of ['0-1', '0-2', '0-3']) await admin(['XADD', first, id, 'f', 'v']);
          await until('the first stream entries', () => a.ids.length === 3, 3000);
          const behind = recorder();
          tail.subscribe(first, '0-1', behind.listener);
          await admin(['XADD', first, '0-4', 'f', 'v']);
          await until('the entries after 0-1', () => behind.ids.length >= 3, 3000);
          await sleep(50);
          expect(behind.ids).to.deep.equal(['0-2', '0-3', '0-4']);
          expect(a.ids).to.deep.equal(['0-1', '0-2', '0-3', '0-4']);
        } finally {
          tail.close();
          await limited.close();
        }
      });
    });
  }
});
