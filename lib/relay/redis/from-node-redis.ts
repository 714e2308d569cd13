// The adapter for node-redis (`redis@^6`, `@redis/client`): commands go through `sendCommand` with a
// reply type mapping of its own, so the client's RESP version and type mapping change nothing.

import { commandClient, type RawRedisConnection } from './command-client';
import type { RelayRedisClient } from './relay-redis-client';

/** RESP3 type bytes (`@redis/client`'s `RESP_TYPES`), written out so that nothing here loads the library. */
const RESP_BLOB_STRING = 36;
const RESP_SIMPLE_STRING = 43;
const RESP_VERBATIM_STRING = 61;
const RESP_MAP = 37;
const RESP_SET = 126;

/** Strings as strings and maps as flat arrays, whatever the client was created with. */
const TYPE_MAPPING = {
  [RESP_BLOB_STRING]: String,
  [RESP_SIMPLE_STRING]: String,
  [RESP_VERBATIM_STRING]: String,
  [RESP_MAP]: Array,
  [RESP_SET]: Array,
};

/** The part of a node-redis v6 client (`createClient()` of `redis` or `@redis/client`) the adapter uses. */
export interface NodeRedisClientLike {
  sendCommand(args: readonly (string | Uint8Array)[], options?: { readonly typeMapping?: object | undefined }): Promise<unknown>;
  duplicate(): NodeRedisClientLike;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

function rawConnection(client: NodeRedisClientLike): RawRedisConnection {
  return {
    send: (args) => client.sendCommand(args, { typeMapping: TYPE_MAPPING }),
    duplicate: async () => {
      const copy = client.duplicate();
      // A connection error on a connection the store made must not be an unhandled 'error' event;
      // its commands fail (and are retried by the store) instead.
      copy.on('error', () => {});
      await copy.connect();
      return rawConnection(copy);
    },
    destroy: () => client.destroy(),
  };
}

/**
 * Adapts a connected node-redis v6 client for `redisStore`. The store sends its commands through
 * it and makes its blocking connection with `client.duplicate()`; the caller keeps owning `client`.
 */
export function fromNodeRedis(client: NodeRedisClientLike): RelayRedisClient {
  if (client === null || typeof client !== 'object' || typeof client.sendCommand !== 'function' || typeof client.duplicate !== 'function') {
    throw new TypeError(`Expected a node-redis client (with sendCommand and duplicate), got ${client === null ? 'null' : typeof client}`);
  }
  return commandClient(rawConnection(client));
}
