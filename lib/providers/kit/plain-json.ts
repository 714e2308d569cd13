import type { JsonObject } from '../../wire/read-json';

// What the per-token scanners share. They build the values JSON.parse would build, and build them
// with `new` on functions whose prototype is Object.prototype rather than as object literals: V8
// keeps allocation feedback per literal and, once a literal's objects happen to survive a
// young-generation collection together, may allocate all its later objects straight in the old
// generation ("pretenuring"), where per-token garbage then piles up until a major collection.

/** A constructor of plain objects (prototype Object.prototype, own keys in assignment order). */
export type Plain<A extends unknown[]> = new (...args: A) => JsonObject;

/** Makes `construct` build plain objects, as JSON.parse's: its instances' prototype is Object.prototype. */
export function plain<A extends unknown[]>(construct: (this: Record<string, unknown>, ...args: A) => void): Plain<A> {
  construct.prototype = Object.prototype;
  return construct as unknown as Plain<A>;
}

/** The body of a JSON string literal that holds escapes (and no unescaped quote), read by JSON.parse; null when it is not a valid one. */
export function unescapeJsonString(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
