// The Redis response store and its client adapters (for the `partstream/relay` entry).

export { redisStore } from './redis-store';
export type { RedisResponseStore, RedisStoreOptions } from './redis-store';
export { fromNodeRedis } from './from-node-redis';
export type { NodeRedisClientLike } from './from-node-redis';
export { fromIoredis } from './from-ioredis';
export type { IoredisClientLike } from './from-ioredis';
export type { RelayRedisClient, RelayStreamEntry, RelayStreamRead, RelayXAddOptions, RelayNewEntry, RelayXAddAllResult } from './relay-redis-client';
