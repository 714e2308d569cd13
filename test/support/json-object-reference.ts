/**
 * What a scanner that reads a frame without `JSON.parse` must always equal: `JSON.parse` of the
 * data, and undefined unless that yields a plain object (not JSON, an array, a primitive).
 */
export function jsonObjectReference(data: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
