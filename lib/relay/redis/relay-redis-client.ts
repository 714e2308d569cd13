// The few Redis commands the Redis response store issues, as a structural interface. A client
// library is reached through an adapter (`fromNodeRedis`, `fromIoredis`), so partstream itself
// depends on no Redis package; any client that can send these commands can be adapted.

/** One stream entry: its id (`<ms>-<seq>`) and its fields as a flat `[field, value, …]` list. */
export interface RelayStreamEntry {
  readonly id: string;
  readonly fields: readonly string[];
}

/** The entries `XREAD` returned for one stream key. */
export interface RelayStreamRead {
  readonly key: string;
  readonly entries: readonly RelayStreamEntry[];
}

/** Options of `RelayRedisClient.xAdd`. */
export interface RelayXAddOptions {
  /** `NOMKSTREAM`: add nothing (and answer null) when the stream does not exist. */
  readonly noMkStream?: boolean | undefined;
  /** `MAXLEN ~ n`: let Redis trim the stream's head to about `n` entries. */
  readonly approxMaxLen?: number | undefined;
}

/** An entry for `RelayRedisClient.xAddAll`: its explicit id and its fields as a flat `[field, value, …]` list. */
export interface RelayNewEntry {
  readonly id: string;
  readonly fields: readonly (string | Uint8Array)[];
}

/** What `RelayRedisClient.xAddAll` did: how many entries are in the stream now, and why it stopped. */
export interface RelayXAddAllResult {
  /** The entries added, or found already there with the very same fields, from the first on. */
  readonly added: number;
  /** `done`: all of them; `taken`: the next id is held by another entry (or is below the stream's top); `missing`: no stream. */
  readonly stop: 'done' | 'taken' | 'missing';
}

/**
 * The commands `redisStore` sends (Redis ≥ 6.2). Replies are plain strings, numbers, booleans and
 * arrays whatever the protocol (RESP2 or RESP3) or the library's reply mapping; a server error
 * rejects with an `Error` whose message is the server's.
 */
export interface RelayRedisClient {
  /**
   * `XADD key [NOMKSTREAM] [MAXLEN ~ n] id field value …`: the entry's id, or null when `NOMKSTREAM`
   * found no stream. A binary value (a producer's UTF-8 batch) is a Node `Buffer`, read back as a string.
   */
  xAdd(key: string, id: string, fields: readonly (string | Uint8Array)[], options?: RelayXAddOptions): Promise<string | null>;
  /**
   * Optional: `XADD key NOMKSTREAM id field value …` for each of `entries` in order, as one atomic
   * step (a script, one round trip). An id already held by an entry with exactly the same fields
   * counts as added (a retry of an earlier call); it stops at the first id held by anything else
   * or below the stream's top, and when the stream does not exist. Both adapters implement it;
   * without it the store sends one `XADD` per entry.
   */
  xAddAll?(key: string, entries: readonly RelayNewEntry[]): Promise<RelayXAddAllResult>;
  /** `XRANGE key start end COUNT count`, in id order. */
  xRange(key: string, start: string, end: string, count: number): Promise<RelayStreamEntry[]>;
  /** `XREVRANGE key end start COUNT count`, highest id first. */
  xRevRange(key: string, end: string, start: string, count: number): Promise<RelayStreamEntry[]>;
  /**
   * `XREAD COUNT count BLOCK blockMs STREAMS k1 … kn id1 … idn`: the entries after each id, or
   * null when `blockMs` passed (or the call was unblocked) with nothing new. Each key at most once.
   */
  xRead(streams: readonly { readonly key: string; readonly id: string }[], count: number, blockMs: number): Promise<RelayStreamRead[] | null>;
  /** `XGROUP CREATE key <group> $ MKSTREAM`: creates an empty stream; rejects when `key` already has that group. */
  createEmptyStream(key: string, group: string): Promise<void>;
  /** `XSETID key id`: raises the stream's last id, so that no explicit id at or below it can be added. */
  xSetId(key: string, id: string): Promise<void>;
  /** `HSETNX key field value`: true when the field was set (it did not exist). */
  hSetNx(key: string, field: string, value: string): Promise<boolean>;
  /**
   * `HSETNX key field value` and, when it set the field, `PEXPIRE key ms`, as one step (a script):
   * true when the field was set. A key claimed so has its TTL even if the claimer dies at once.
   */
  hSetNxPx(key: string, field: string, value: string, ms: number): Promise<boolean>;
  /** `HSET key field value …` with a flat `[field, value, …]` list. */
  hSet(key: string, fieldsAndValues: readonly string[]): Promise<void>;
  /** `HGETALL key` as a flat `[field, value, …]` list (empty when the key does not exist). */
  hGetAll(key: string): Promise<string[]>;
  /** `SET key value PX ms`. */
  setPx(key: string, value: string, ms: number): Promise<void>;
  /** `EXISTS key` of one key. */
  exists(key: string): Promise<boolean>;
  /** `PEXPIRE key ms`: true when the key exists. */
  pExpire(key: string, ms: number): Promise<boolean>;
  /** `CLIENT ID` of this connection. */
  clientId(): Promise<number>;
  /** `CLIENT UNBLOCK id`: true when that connection was blocked and is now released. */
  clientUnblock(id: number): Promise<boolean>;
  /** A new connection to the same server, connected (or connecting and queueing commands), for blocking reads. */
  duplicate(): Promise<RelayRedisClient>;
  /** Closes this connection at once, failing its pending commands (used on connections the store made). */
  destroy(): void;
}
