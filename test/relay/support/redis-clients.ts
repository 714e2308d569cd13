// The two client libraries the Redis store is tested with, connected to a private server and
// adapted; each client carries a connection name so CLIENT LIST can count its connections.

import Redis from 'ioredis';
import { createClient } from 'redis';
import { fromIoredis } from '../../../lib/relay/redis/from-ioredis';
import { fromNodeRedis } from '../../../lib/relay/redis/from-node-redis';
import type { RelayRedisClient } from '../../../lib/relay/redis/relay-redis-client';

/** The client libraries with an adapter, and the reply decodings they can be set to. */
export type RedisLibrary = 'node-redis' | 'ioredis' | 'node-redis RESP2' | 'ioredis replyMapping resp3';

/** The two libraries as they come by default (RESP3 for both). */
export const REDIS_LIBRARIES: readonly RedisLibrary[] = ['node-redis', 'ioredis'];

/** Both libraries with each reply decoding the adapters read: RESP2 arrays, RESP3 maps as arrays and as objects. */
export const REDIS_CLIENT_VARIANTS: readonly RedisLibrary[] = ['node-redis', 'ioredis', 'node-redis RESP2', 'ioredis replyMapping resp3'];

/** A connected, adapted client and the way to close it. */
export interface TestRedisClient {
  readonly client: RelayRedisClient;
  /** Sends one raw command on this client's own connection. */
  raw(args: readonly string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Connects `library` to `url` under the connection name `name`. */
export async function connectRedis(library: RedisLibrary, url: string, name: string): Promise<TestRedisClient> {
  if (library === 'node-redis' || library === 'node-redis RESP2') {
    const client = createClient({ url, name, RESP: library === 'node-redis' ? 3 : 2, socket: { reconnectStrategy: (retries) => Math.min(20 * (retries + 1), 200) } });
    client.on('error', () => {});
    await client.connect();
    return {
      client: fromNodeRedis(client),
      raw: (args) => client.sendCommand([...args]),
      close: async () => client.destroy(),
    };
  }
  const client = new Redis(url, { connectionName: name, replyMapping: library === 'ioredis' ? 'legacy' : 'resp3', retryStrategy: (times) => Math.min(20 * times, 200), maxRetriesPerRequest: null });
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('end', () => reject(new Error('ioredis could not connect')));
  });
  return {
    client: fromIoredis(client),
    raw: (args) => client.call(args[0] as string, ...args.slice(1)),
    close: async () => client.disconnect(),
  };
}
