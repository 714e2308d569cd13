// How partstream reads parsed wire JSON, in every format: a value stays `unknown` until one of
// these helpers checked it. A format's `*-wire.ts` only names the fields it reads — each one
// optional and `unknown` — and a nested object is read once `isJsonObject` said it is one (then
// cast to the interface that names its fields). No type claims what the server did not prove.

import type { JsonObject } from '../parts/json-object';

export type { JsonObject } from '../parts/json-object';

/** True for a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a frame's data as a JSON object; undefined when it is not JSON or not an object (the
 * caller then surfaces the frame raw, its bytes untouched).
 */
export function parseJsonObject(text: string): JsonObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isJsonObject(value) ? value : undefined;
}

/** The value when it is a string (the empty one included), else null. */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The value when it is a non-empty string, else null. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The value when it is a string that is not blank, else null. */
export function nonBlankString(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value : null;
}

/** The value when it is a token count (an integer ≥ 0), else null. */
export function tokenCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** The token count under `key` of a nested details object (e.g. `prompt_tokens_details.cached_tokens`), else null. */
export function nestedTokenCount(details: unknown, key: string): number | null {
  return isJsonObject(details) ? tokenCount(details[key]) : null;
}
