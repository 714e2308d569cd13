// `RelayRedisClient` over one function that sends a command as its arguments and resolves the raw
// reply: the command syntax and reply shapes live here once, the adapters only reach their library.

import type { RelayRedisClient, RelayStreamEntry, RelayStreamRead, RelayXAddOptions } from './relay-redis-client';
import { replyInteger, replyStreamEntries, replyStreamReads, replyString, replyStringPairs } from './reply-shapes';

/** What an adapter provides: a raw command sender, a way to open a second connection, and a hard close. */
export interface RawRedisConnection {
  /** A value is a string, or binary (a Node `Buffer` where the library needs one: `log-entry.ts` makes it). */
  send(args: readonly (string | Uint8Array)[]): Promise<unknown>;
  duplicate(): Promise<RawRedisConnection>;
  destroy(): void;
}

/** `hSetNxPx` as one script: the field and the key's TTL are set together or not at all. */
const HSETNX_PX_SCRIPT = "if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) return 1 end return 0";

class CommandClient implements RelayRedisClient {
  readonly #raw: RawRedisConnection;

  constructor(raw: RawRedisConnection) {
    this.#raw = raw;
  }

  async xAdd(key: string, id: string, fields: readonly (string | Uint8Array)[], options: RelayXAddOptions = {}): Promise<string | null> {
    const args: (string | Uint8Array)[] = ['XADD', key];
    if (options.noMkStream === true) args.push('NOMKSTREAM');
    if (options.approxMaxLen !== undefined) args.push('MAXLEN', '~', String(options.approxMaxLen));
    args.push(id, ...fields);
    const reply = await this.#raw.send(args);
    return reply === null || reply === undefined ? null : replyString(reply);
  }

  async xRange(key: string, start: string, end: string, count: number): Promise<RelayStreamEntry[]> {
    return replyStreamEntries(await this.#raw.send(['XRANGE', key, start, end, 'COUNT', String(count)]));
  }

  async xRevRange(key: string, end: string, start: string, count: number): Promise<RelayStreamEntry[]> {
    return replyStreamEntries(await this.#raw.send(['XREVRANGE', key, end, start, 'COUNT', String(count)]));
  }

  async xRead(streams: readonly { readonly key: string; readonly id: string }[], count: number, blockMs: number): Promise<RelayStreamRead[] | null> {
    const args = ['XREAD', 'COUNT', String(count), 'BLOCK', String(blockMs), 'STREAMS'];
    for (const stream of streams) args.push(stream.key);
    for (const stream of streams) args.push(stream.id);
    return replyStreamReads(await this.#raw.send(args));
  }

  async createEmptyStream(key: string, group: string): Promise<void> {
    await this.#raw.send(['XGROUP', 'CREATE', key, group, '$', 'MKSTREAM']);
  }

  async xSetId(key: string, id: string): Promise<void> {
    await this.#raw.send(['XSETID', key, id]);
  }

  async hSetNxPx(key: string, field: string, value: string, ms: number): Promise<boolean> {
    return replyInteger(await this.#raw.send(['EVAL', HSETNX_PX_SCRIPT, '1', key, field, value, String(ms)])) === 1;
  }

  async hSetNx(key: string, field: string, value: string): Promise<boolean> {
    return replyInteger(await this.#raw.send(['HSETNX', key, field, value])) === 1;
  }

  async hSet(key: string, fieldsAndValues: readonly string[]): Promise<void> {
    await this.#raw.send(['HSET', key, ...fieldsAndValues]);
  }

  async hGetAll(key: string): Promise<string[]> {
    const reply = await this.#raw.send(['HGETALL', key]);
    return reply === null || reply === undefined ? [] : replyStringPairs(reply);
  }

  async setPx(key: string, value: string, ms: number): Promise<void> {
    await this.#raw.send(['SET', key, value, 'PX', String(ms)]);
  }

  async exists(key: string): Promise<boolean> {
    return replyInteger(await this.#raw.send(['EXISTS', key])) === 1;
  }

  async pExpire(key: string, ms: number): Promise<boolean> {
    return replyInteger(await this.#raw.send(['PEXPIRE', key, String(ms)])) === 1;
  }

  async clientId(): Promise<number> {
    return replyInteger(await this.#raw.send(['CLIENT', 'ID']));
  }

  async clientUnblock(id: number): Promise<boolean> {
    return replyInteger(await this.#raw.send(['CLIENT', 'UNBLOCK', String(id)])) === 1;
  }

  async duplicate(): Promise<RelayRedisClient> {
    return new CommandClient(await this.#raw.duplicate());
  }

  destroy(): void {
    this.#raw.destroy();
  }
}

/** A `RelayRedisClient` that sends every command through `raw`. */
export function commandClient(raw: RawRedisConnection): RelayRedisClient {
  return new CommandClient(raw);
}
