// The adapter for ioredis (`ioredis@^6`): commands go through `call`, whose replies keep RESP2
// shapes by default and plain objects under `replyMapping: 'resp3'`; both are read.

import { commandClient, type RawRedisConnection } from './command-client';
import type { RelayRedisClient } from './relay-redis-client';

/** The part of an ioredis v6 client (`new Redis()`) the adapter uses. */
export interface IoredisClientLike {
  call(command: string, ...args: (string | number | Uint8Array)[]): Promise<unknown>;
  duplicate(): IoredisClientLike;
  disconnect(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

function rawConnection(client: IoredisClientLike): RawRedisConnection {
  return {
    send: (args) => client.call(args[0] as string, ...args.slice(1)),
    duplicate: async () => {
      // ioredis connects by itself and queues commands until it is ready.
      const copy = client.duplicate();
      copy.on('error', () => {});
      return rawConnection(copy);
    },
    destroy: () => client.disconnect(),
  };
}

/**
 * Adapts an ioredis v6 client for `redisStore`. The store sends its commands through it and makes
 * its blocking connection with `client.duplicate()`; the caller keeps owning `client`.
 */
export function fromIoredis(client: IoredisClientLike): RelayRedisClient {
  if (client === null || typeof client !== 'object' || typeof client.call !== 'function' || typeof client.duplicate !== 'function') {
    throw new TypeError(`Expected an ioredis client (with call and duplicate), got ${client === null ? 'null' : typeof client}`);
  }
  return commandClient(rawConnection(client));
}
