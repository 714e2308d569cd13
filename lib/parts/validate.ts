import { describeValue } from './describe-value';
import type { JsonObject } from './json-object';
import type { MessagePart, MessagePartType, OpaquePayload, PartAttributes } from './types';

/** The six part `type` names, for membership checks. */
export const PART_TYPES: ReadonlySet<string> = new Set<MessagePartType>(['text', 'reasoning', 'tool_call', 'tool_result', 'media', 'unknown']);

const EMPTY_ATTRIBUTES: PartAttributes = Object.freeze({});

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws `TypeError('Expected <field> to be a string, got …')` unless `value` is a string. */
export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new TypeError(`Expected ${field} to be a string, got ${describeValue(value)}`);
  return value;
}

/** Accepts a string, or null/undefined (read as null); anything else is a `TypeError` naming the field. */
export function optionalString(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') {
    throw new TypeError(`Expected ${field} to be a string or null, got ${describeValue(value)}`);
  }
  return value;
}

/** Validates and freezes a payload (`{provider, kind, data}`, all strings) or null. */
export function validatePayload(value: unknown, field = 'payload'): OpaquePayload | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    throw new TypeError(`Expected ${field} to be {provider, kind, data} or null, got ${describeValue(value)}`);
  }
  if (Object.isFrozen(value) && typeof value.provider === 'string' && typeof value.kind === 'string' && typeof value.data === 'string') {
    return value as unknown as OpaquePayload;
  }
  return Object.freeze({
    provider: requireString(value.provider, `${field}.provider`),
    kind: requireString(value.kind, `${field}.kind`),
    data: requireString(value.data, `${field}.data`),
  });
}

/** Validates attributes (an object of string values) and returns a frozen copy. */
export function validateAttributes(value: unknown, field = 'attributes'): PartAttributes {
  if (value === null || value === undefined) return EMPTY_ATTRIBUTES;
  if (!isPlainObject(value)) {
    throw new TypeError(`Expected ${field} to be an object of strings, got ${describeValue(value)}`);
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return EMPTY_ATTRIBUTES;
  const entries: Array<[string, string]> = [];
  for (const key of keys) entries.push([key, requireString(value[key], `${field}.${key}`)]);
  // fromEntries defines own keys: an assignment would drop a `__proto__` key (SPEC §11).
  return Object.freeze(Object.fromEntries(entries));
}

/** Validates the options object every factory takes. */
export function validateOptions(options: unknown): { payload: OpaquePayload | null; attributes: PartAttributes } {
  if (options === undefined || options === null) return { payload: null, attributes: EMPTY_ATTRIBUTES };
  if (!isPlainObject(options)) throw new TypeError(`Expected options to be an object, got ${describeValue(options)}`);
  return { payload: validatePayload(options.payload), attributes: validateAttributes(options.attributes) };
}

/**
 * Throws a `TypeError` naming `field` unless `value` looks like a message part: an object with one
 * of the six `type` names and an attributes object. Fields of the part are checked by the caller.
 */
export function requirePartShape(value: unknown, field: string): MessagePart {
  if (!isPlainObject(value) || typeof value.type !== 'string' || !PART_TYPES.has(value.type)) {
    throw new TypeError(`Expected ${field} to be a message part, got ${describeValue(value)}`);
  }
  if (!isPlainObject(value.attributes)) {
    throw new TypeError(`Expected ${field}.attributes to be an object of strings, got ${describeValue(value.attributes)}`);
  }
  return value as unknown as MessagePart;
}
