/** One step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;

/** The largest index a JavaScript array has (its length is at most 2^32 − 1). */
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/**
 * Parses the JSON paths of Gemini's streamed function-call arguments — `$`, then `.key`,
 * `[index]` or `['key']` / `["key"]` steps, e.g. `$.recipe.ingredients[0].name` — into their
 * segments. Returns null when the text is not such a path, or names an index no array can have
 * (above 2^32 − 2). One pass over the text: linear in its length.
 */
export function parseJsonPath(path: string): JsonPathSegment[] | null {
  if (path.charCodeAt(0) !== 36 /* $ */) return null;
  const segments: JsonPathSegment[] = [];
  let at = 1;
  while (at < path.length) {
    const char = path[at];
    if (char === '.') {
      let end = at + 1;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      if (end === at + 1) return null;
      segments.push(path.slice(at + 1, end));
      at = end;
    } else if (char === '[') {
      const quote = path[at + 1];
      if (quote === "'" || quote === '"') {
        // Runs between escapes are sliced out whole, not copied a character at a time.
        const pieces: string[] = [];
        let from = at + 2;
        let end = from;
        while (end < path.length && path[end] !== quote) {
          if (path[end] === '\\' && end + 1 < path.length) {
            pieces.push(path.slice(from, end));
            from = ++end;
          }
          end++;
        }
        if (end >= path.length || path[end + 1] !== ']') return null;
        pieces.push(path.slice(from, end));
        segments.push(pieces.length === 1 ? pieces[0] : pieces.join(''));
        at = end + 2;
      } else {
        const close = path.indexOf(']', at);
        const digits = close < 0 ? '' : path.slice(at + 1, close);
        if (!/^\d+$/.test(digits)) return null;
        const index = Number(digits);
        if (index > MAX_ARRAY_INDEX) return null;
        segments.push(index);
        at = close + 1;
      }
    } else {
      return null;
    }
  }
  return segments;
}
