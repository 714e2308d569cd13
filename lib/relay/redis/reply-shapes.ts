// Redis replies as the adapters receive them (RESP2 arrays, RESP3 maps decoded as arrays, `Map`s or
// plain objects, strings or Buffers) turned into the plain shapes of `RelayRedisClient`. Replies
// come from the network: anything of an unexpected shape is an error, never a guess.

import type { RelayStreamEntry, RelayStreamRead } from './relay-redis-client';

function shapeError(what: string, value: unknown): Error {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return new Error(`Expected ${what} in a Redis reply, got ${kind}`);
}

const UTF8 = new TextDecoder();

/** A bulk or simple string reply (bytes are decoded as UTF-8; a number is written in decimal). */
export function replyString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return UTF8.decode(value);
  throw shapeError('a string', value);
}

/** An integer reply. */
export function replyInteger(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw shapeError('an integer', value);
}

/** A map reply (RESP2 flat array, RESP3 map as array, `Map` or object) as a flat `[key, value, …]` list of raw values. */
function flatMapItems(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) {
    const items: unknown[] = [];
    for (const [key, item] of value) items.push(key, item);
    return items;
  }
  if (value !== null && typeof value === 'object') {
    const items: unknown[] = [];
    for (const key of Object.keys(value)) items.push(key, (value as Record<string, unknown>)[key]);
    return items;
  }
  throw shapeError('a map', value);
}

/** A map of strings (e.g. `HGETALL`) as a flat `[field, value, …]` list. */
export function replyStringPairs(value: unknown): string[] {
  const items = flatMapItems(value);
  if (items.length % 2 !== 0) throw new Error(`Expected an even number of map items in a Redis reply, got ${items.length}`);
  return items.map(replyString);
}

function streamEntry(value: unknown): RelayStreamEntry {
  if (!Array.isArray(value) || value.length !== 2) throw shapeError('a stream entry [id, fields]', value);
  return { id: replyString(value[0]), fields: replyStringPairs(value[1]) };
}

/** An `XRANGE` / `XREVRANGE` reply. */
export function replyStreamEntries(value: unknown): RelayStreamEntry[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw shapeError('a list of stream entries', value);
  return value.map(streamEntry);
}

/** An `XREAD` reply: RESP2 `[[key, entries], …]`, or a RESP3 map of key → entries in any decoding; null when nothing came. */
export function replyStreamReads(value: unknown): RelayStreamRead[] | null {
  if (value === null || value === undefined) return null;
  const reads: RelayStreamRead[] = [];
  if (Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2 && !Array.isArray(item[0]))) {
    for (const item of value as unknown[][]) reads.push({ key: replyString(item[0]), entries: replyStreamEntries(item[1]) });
    return reads;
  }
  const items = flatMapItems(value);
  if (items.length % 2 !== 0) throw new Error(`Expected an even number of map items in an XREAD reply, got ${items.length}`);
  for (let i = 0; i < items.length; i += 2) reads.push({ key: replyString(items[i]), entries: replyStreamEntries(items[i + 1]) });
  return reads;
}

/** A flat `[field, value, …]` list as a Map, the first value of a repeated field winning. */
export function firstFieldValues(flat: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i] as string;
    if (!fields.has(name)) fields.set(name, flat[i + 1] as string);
  }
  return fields;
}
