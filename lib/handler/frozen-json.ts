import { describeValue } from '../parts/describe-value';
import type { JsonRecord, JsonValue } from './types';

/** The copies this module made: already deep-frozen JSON, so they are never copied twice. */
const COPIES = new WeakSet<object>();

/** One container being copied: its source, its copy, its keys (null for an array) and the next member. */
interface Frame {
  readonly source: object;
  readonly copy: Record<string, unknown> | unknown[];
  readonly keys: readonly string[] | null;
  next: number;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Writes an own, enumerable data property: a `__proto__` key stays a key and never sets a prototype. */
function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A deep copy of a JSON value (as `JSON.parse` makes them: null, booleans, numbers, strings,
 * arrays and plain objects), every array and object in it frozen. Keys are written as own
 * properties, so `__proto__`, `constructor` and `prototype` stay plain keys and nothing reaches
 * a prototype; an explicit stack copies any nesting depth without recursion. Throws a
 * `TypeError` naming `field` for a value JSON cannot hold (a function, a class instance, a
 * cycle …). A value this function returned before is returned as it is.
 */
export function frozenJsonCopy(value: unknown, field: string): JsonValue {
  const root = checkedContainer(value, field);
  if (root === null) return value as JsonValue;
  if (COPIES.has(root)) return root as JsonValue;
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  const enter = (source: object): Frame['copy'] => {
    if (ancestors.has(source)) throw new TypeError(`Expected ${field} to be a JSON value, got a circular structure`);
    ancestors.add(source);
    const array = Array.isArray(source);
    const copy: Frame['copy'] = array ? [] : {};
    stack.push({ source, copy, keys: array ? null : Object.keys(source), next: 0 });
    return copy;
  };
  const top = enter(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const length = frame.keys === null ? (frame.source as unknown[]).length : frame.keys.length;
    if (frame.next >= length) {
      stack.pop();
      ancestors.delete(frame.source);
      COPIES.add(Object.freeze(frame.copy));
      continue;
    }
    const at = frame.next++;
    const key = frame.keys === null ? at : frame.keys[at];
    const member: unknown = (frame.source as Record<string | number, unknown>)[key];
    const container = checkedContainer(member, field);
    const copied = container === null ? member : COPIES.has(container) ? container : enter(container);
    if (frame.keys === null) (frame.copy as unknown[]).push(copied);
    else defineOwn(frame.copy, key as string, copied);
  }
  return top as JsonValue;
}

/** The value when it is an array or a plain object, null for a JSON primitive; throws otherwise. */
function checkedContainer(value: unknown, field: string): object | null {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return null;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value) || isPlainObject(value)) return value;
      break;
    default:
      break;
  }
  throw new TypeError(`Expected ${field} to hold only JSON values, got ${describeValue(value)}`);
}

/**
 * A frozen `JsonRecord` of the given fields (each value a `frozenJsonCopy`), in the map's order,
 * or null when there are none. Keys are own properties, `__proto__` included.
 */
export function frozenJsonRecord(fields: ReadonlyMap<string, unknown>, field: string): JsonRecord | null {
  if (fields.size === 0) return null;
  const record = {};
  for (const [key, value] of fields) defineOwn(record, key, frozenJsonCopy(value, `${field}.${key}`));
  COPIES.add(Object.freeze(record));
  return record as JsonRecord;
}

/**
 * A value as `ChatResponseMetadata` keeps a provider object: null, or a frozen copy of a plain
 * object (`frozenJsonCopy`). Throws a `TypeError` naming `field` for anything else.
 */
export function frozenJsonObject(value: unknown, field: string): JsonRecord | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value) || !isPlainObject(value)) {
    throw new TypeError(`Expected ${field} to be a plain JSON object or null, got ${describeValue(value)}`);
  }
  return frozenJsonCopy(value, field) as JsonRecord;
}
