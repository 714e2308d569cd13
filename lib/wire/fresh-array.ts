/**
 * Copied, never written: `slice` of it makes a new empty array. Not frozen: slicing a frozen array
 * takes a slow path (about five times the cost of a literal), slicing this one about the same.
 */
const EMPTY: readonly never[] = [];

/**
 * A new empty array, made without an allocation site. V8 tracks how many of an array literal's
 * (or `new Array()`'s) arrays survive a minor collection, and past a ratio allocates the literal's
 * later arrays straight into the old generation. A decoder's per-chunk frame list survives while
 * its frames are delivered; once old, every frame list that died still keeps its frames, their
 * strings and the chunk they were cut from alive through each minor collection until a major
 * one, so most of a stream's garbage is copied and promoted. Arrays made here are always young.
 */
export function freshArray<T>(): T[] {
  return EMPTY.slice() as T[];
}

/**
 * A new array of the one `element`, made without an allocation site (see `freshArray`): for the
 * one-element arrays a scanner builds into every event it reads (`choices`, `tool_calls`), which a
 * literal or `new Array` would let V8 start allocating in the old generation.
 */
export function arrayOf<T>(element: T): T[] {
  const array = EMPTY.slice() as T[];
  array.push(element);
  return array;
}
