/** A container being written: its keys (null for an array) and the next member to write. */
interface Frame {
  readonly node: object;
  readonly keys: readonly string[] | null;
  next: number;
  wrote: boolean;
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/**
 * One value as `JSON.stringify` sees it (its `toJSON` called, boxed primitives unwrapped): the
 * text of a primitive, the object to descend into, or undefined when JSON has no text for it.
 */
function resolve(holderKey: string, raw: unknown): string | object | undefined {
  let value = raw;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(holderKey);
  }
  if (value instanceof Number) value = Number(value);
  else if (value instanceof String) value = String(value);
  else if (value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : value;
    default:
      return undefined;
  }
}

/**
 * `JSON.stringify(value)` written with an explicit stack instead of recursion, at any depth.
 * @internal exported for its tests; use `stringifyJson`.
 */
export function stringifyIteratively(root: unknown): string | undefined {
  const first = resolve('', root);
  if (typeof first !== 'object') return first;
  const out: string[] = [];
  const stack: Frame[] = [];
  // The containers on the current path, to refuse a cycle as JSON.stringify does.
  const ancestors = new Set<object>();
  const enter = (node: object): void => {
    if (ancestors.has(node)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(node);
    const array = Array.isArray(node);
    stack.push({ node, keys: array ? null : Object.keys(node), next: 0, wrote: false });
    out.push(array ? '[' : '{');
  };
  enter(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const length = frame.keys === null ? (frame.node as unknown[]).length : frame.keys.length;
    if (frame.next >= length) {
      out.push(frame.keys === null ? ']' : '}');
      stack.pop();
      ancestors.delete(frame.node);
      continue;
    }
    const at = frame.next++;
    const key = frame.keys === null ? String(at) : frame.keys[at];
    const value = resolve(key, (frame.node as Record<string, unknown>)[key]);
    if (frame.keys === null) {
      if (at > 0) out.push(',');
      if (value === undefined) out.push('null');
    } else {
      if (value === undefined) continue;
      out.push(`${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`);
      frame.wrote = true;
    }
    if (typeof value === 'string') out.push(value);
    else if (value !== undefined) enter(value);
  }
  return out.join('');
}

/**
 * `JSON.stringify(value)`, same text, at any nesting depth: values parsed from the wire can nest
 * far deeper than the native serialiser's recursion allows (V8's `JSON.parse` has no such limit).
 * The native serialiser runs first; only when it runs out of stack is the value written again
 * with an explicit stack (`toJSON` methods then run a second time). Other failures (a cycle, a
 * BigInt, a string past the engine's maximum length) throw as they do from `JSON.stringify`.
 */
export function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
  }
  return stringifyIteratively(value);
}
