// `redisStore`: a `ResponseStore` on Redis Streams (SPEC §13 "Stores"). One stream per response
// with explicit ids `0-<first sequence>` (fenced, retry-safe appends), a meta hash, and per process
// a heartbeat key and a control stream. A process uses the client's connection for commands and
// one duplicate for its single blocking XREAD loop, however many responses it produces or reads.

import { positiveInteger } from './check-arguments';
import { fromNodeRedis, type NodeRedisClientLike } from './from-node-redis';
import { KEY_PREFIX_PATTERN, relayKeys } from './redis-keys';
import { RedisStore, type RedisResponseStore } from './redis-response-store';
import type { RelayRedisClient } from './relay-redis-client';

export type { RedisResponseStore } from './redis-response-store';

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /** First part of every key (`/^[A-Za-z0-9_.:-]{1,64}$/`). Default `'ps'`. */
  readonly keyPrefix?: string | undefined;
  /** How often this process refreshes its heartbeat. Default 1000 ms. */
  readonly heartbeatMs?: number | undefined;
  /** How long a heartbeat lives, and how long a silent response waits before its producer is checked. Default 5000 ms. */
  readonly producerTimeoutMs?: number | undefined;
  /** How long one blocking XREAD waits before it is sent again. Default 1000 ms. */
  readonly tailBlockMs?: number | undefined;
}

function isRelayRedisClient(value: object): value is RelayRedisClient {
  const candidate = value as Partial<Record<keyof RelayRedisClient, unknown>>;
  return typeof candidate.createEmptyStream === 'function' && typeof candidate.xRead === 'function' && typeof candidate.duplicate === 'function';
}

/**
 * A `ResponseStore` on Redis Streams (Redis ≥ 6.2). `client` is a connected node-redis v6 client,
 * or any client adapted with `fromNodeRedis` / `fromIoredis`; the store sends its commands on it
 * and opens one more connection (`duplicate()`) for its blocking reads. From its first `open` it
 * refreshes the process heartbeat every `heartbeatMs` (a plain timer); `close()` stops it, ends
 * the blocking connection and leaves `client` open.
 */
export function redisStore(client: NodeRedisClientLike | RelayRedisClient, options: RedisStoreOptions = {}): RedisResponseStore {
  if (client === null || typeof client !== 'object') throw new TypeError(`Expected a Redis client, got ${client === null ? 'null' : typeof client}`);
  let command: RelayRedisClient;
  if (typeof (client as { call?: unknown }).call === 'function' && !('isOpen' in client)) {
    throw new TypeError('Expected a node-redis client, got an ioredis client: pass fromIoredis(client)');
  }
  if (typeof (client as Partial<NodeRedisClientLike>).sendCommand === 'function') command = fromNodeRedis(client as NodeRedisClientLike);
  else if (isRelayRedisClient(client)) command = client;
  else throw new TypeError('Expected a node-redis client, or a client adapted with fromNodeRedis or fromIoredis, got an object without sendCommand');
  const keyPrefix = options.keyPrefix ?? 'ps';
  if (typeof keyPrefix !== 'string' || !KEY_PREFIX_PATTERN.test(keyPrefix)) {
    throw new TypeError(`Expected keyPrefix matching ${String(KEY_PREFIX_PATTERN)}, got ${typeof keyPrefix === 'string' ? JSON.stringify(keyPrefix.slice(0, 80)) : typeof keyPrefix}`);
  }
  const heartbeatMs = positiveInteger('heartbeatMs', options.heartbeatMs, 1000);
  const producerTimeoutMs = positiveInteger('producerTimeoutMs', options.producerTimeoutMs, 5000);
  if (producerTimeoutMs <= heartbeatMs) throw new TypeError(`Expected producerTimeoutMs above heartbeatMs (${heartbeatMs}), got ${producerTimeoutMs}`);
  const tailBlockMs = positiveInteger('tailBlockMs', options.tailBlockMs, 1000);
  return new RedisStore(command, relayKeys(keyPrefix), heartbeatMs, producerTimeoutMs, tailBlockMs);
}
