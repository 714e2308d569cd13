/**
 * A short description of a value for `TypeError('Expected …, got …')` messages: `null`,
 * `undefined`, `an array`, `number 42`, `string "ab…"`, `an object`.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return value instanceof Uint8Array ? 'a Uint8Array' : 'an object';
  }
}
