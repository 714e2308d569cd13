// `RelayRedisClient` over one function that sends a command as its arguments and resolves the raw
// reply: the command syntax and reply shapes live here once, the adapters only reach their library.

import type { RelayNewEntry, RelayRedisClient, RelayStreamEntry, RelayStreamRead, RelayXAddAllResult, RelayXAddOptions } from './relay-redis-client';
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

/**
 * `xAddAll` as one script: ARGV = entry count, fields per entry (a flat count), then each entry's
 * id and fields. An XADD refused because the id is taken (or below the top) passes when the entry
 * stored at that id has exactly these fields; any other server error is the script's error.
 */
const XADD_ALL_SCRIPT = `local n, f = tonumber(ARGV[1]), tonumber(ARGV[2])
local at = 3
for i = 1, n do
  local id = ARGV[at]
  local fields = {}
  for k = 1, f do fields[k] = ARGV[at + k] end
  at = at + f + 1
  local added = redis.pcall('XADD', KEYS[1], 'NOMKSTREAM', id, unpack(fields))
  if added == false then return {i - 1, 'missing'} end
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller than the target stream top item', 1, true) then return added end
    local found = redis.call('XRANGE', KEYS[1], id, id)[1]
    if found == nil or found[1] ~= id or #found[2] ~= f then return {i - 1, 'taken'} end
    for k = 1, f do
      if found[2][k] ~= fields[k] then return {i - 1, 'taken'} end
    end
  end
end
return {n, 'done'}`;

const XADD_ALL_STOPS: ReadonlySet<string> = new Set(['done', 'taken', 'missing']);

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

  async xAddAll(key: string, entries: readonly RelayNewEntry[]): Promise<RelayXAddAllResult> {
    const width = entries[0]?.fields.length ?? 0;
    const args: (string | Uint8Array)[] = ['EVAL', XADD_ALL_SCRIPT, '1', key, String(entries.length), String(width)];
    for (const entry of entries) {
      if (entry.fields.length !== width) throw new TypeError(`Expected every entry of xAddAll to have ${width} fields, got ${entry.fields.length}`);
      args.push(entry.id, ...entry.fields);
    }
    const reply = await this.#raw.send(args);
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error(`Expected [added, stop] from the xAddAll script, got ${Array.isArray(reply) ? `an array of ${reply.length}` : typeof reply}`);
    const added = replyInteger(reply[0]);
    const stop = replyString(reply[1]);
    if (!XADD_ALL_STOPS.has(stop) || added < 0 || added > entries.length) throw new Error(`Unexpected reply from the xAddAll script: ${added} ${stop.slice(0, 20)}`);
    return { added, stop: stop as RelayXAddAllResult['stop'] };
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
