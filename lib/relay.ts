/**
 * The relay entry, `partstream/relay` (SPEC §13): re-exports only. Everything that touches a
 * response store is here — stores, the producer, the server, stop — and the viewer side too
 * (`followRelay`; `consumeStream(body, handler, { format: 'partstream' })` is in the root entry).
 * Nothing of a particular store's client library loads from the root entry.
 *
 * @module partstream/relay
 */

// Stores
export type { ResponseStore, RelayBatch, RelayInfo, ProducerInfo, StopRequest, OpenResponseOptions, RelayErrorKind } from './relay/response-store';
export { RelayError, RELAY_ID_PATTERN } from './relay/response-store';
export type { MemoryStoreOptions } from './relay/memory-store';
export { memoryStore, MemoryResponseStore } from './relay/memory-store';
export type { ReadLogOptions } from './relay/read-log';
export { readLog } from './relay/read-log';

// The Redis store (Redis Streams; the client library is the application's: node-redis, or ioredis through fromIoredis)
export type {
  RedisResponseStore,
  RedisStoreOptions,
  NodeRedisClientLike,
  IoredisClientLike,
  RelayRedisClient,
  RelayStreamEntry,
  RelayStreamRead,
  RelayXAddOptions,
  RelayNewEntry,
  RelayXAddAllResult,
} from './relay/redis/index';
export { redisStore, fromNodeRedis, fromIoredis } from './relay/redis/index';

// Producer
export type { OpenRelayOptions, Relay, RelayEnd } from './relay/open-relay';
export { openRelay } from './relay/open-relay';
export type { StreamRelay, RecordedStream, StreamRecorder } from './driver/consume-stream';
export type { CoreRecorder, RecordedToolCall } from './core/core-recorder';
export type { DeltaType } from './parts/part-index-counter';

// Server
export type { RelayResponseOptions } from './relay/relay-response';
export { relay, RELAY_HEADERS } from './relay/relay-response';
export type { NodeRequestLike, NodeResponseLike } from './relay/relay-to-node';
export { relayToNode } from './relay/relay-to-node';

// Stop
export type { StopResponseOptions, StopResult } from './relay/stop-response';
export { stopResponse } from './relay/stop-response';

// Viewer
export type { FollowRelayOptions, ReconnectOptions } from './relay/follow-relay';
export { followRelay } from './relay/follow-relay';
