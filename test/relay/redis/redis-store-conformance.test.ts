import { redisStore } from '../../../lib/relay/redis/redis-store';
import { REDIS_CLIENT_VARIANTS, connectRedis, type TestRedisClient } from '../support/redis-clients';
import { useRedisServer } from '../support/redis-server';
import { describeStoreConformance } from '../support/store-conformance';

describe('redisStore', () => {
  const server = useRedisServer();
  for (const library of REDIS_CLIENT_VARIANTS) {
    describe(`through ${library}`, () => {
      let client: TestRedisClient | undefined;
      before(async () => {
        client = await connectRedis(library, server().url, `conformance-${library.replace(/ /g, '-')}`);
      });
      after(async () => {
        await client?.close();
      });
      describeStoreConformance(`redisStore (${library})`, () => redisStore((client as TestRedisClient).client, { heartbeatMs: 200, producerTimeoutMs: 1000, tailBlockMs: 500 }));
    });
  }
});
