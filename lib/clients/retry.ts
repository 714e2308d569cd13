/** How many times a failed request is retried unless `maxRetries` says otherwise (as the official SDKs). */
export const DEFAULT_MAX_RETRIES = 2;

/** The first retry's wait before jitter (0.5 s), doubled at each retry … */
const INITIAL_RETRY_DELAY_MS = 500;
/** … up to this (8 s), as the official SDKs. */
export const MAX_RETRY_DELAY_MS = 8000;
/**
 * The longest wait a server's `retry-after` / `retry-after-ms` can ask for (60 s): a hostile or
 * confused server asking for hours must not stall the client.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * True when a response with this status should be retried: 408, 409, 429 and every 5xx, as the
 * official SDKs; a server's `x-should-retry: true` / `false` overrides (as the SDKs honour it).
 */
export function isRetryableResponse(status: number, headers: Headers): boolean {
  const should = headers.get('x-should-retry');
  if (should === 'true') return true;
  if (should === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A header's non-negative number, or null when it is absent or not a number. */
function headerNumber(headers: Headers, name: string): number | null {
  const text = headers.get(name)?.trim();
  if (text === undefined || text === '') return null;
  const value = Number(text);
  return Number.isNaN(value) ? null : value;
}

/** The wait a server asked for (`retry-after-ms`, else `retry-after` in seconds or as an HTTP date), or null. */
function serverDelayMs(headers: Headers, now: number): number | null {
  const ms = headerNumber(headers, 'retry-after-ms');
  if (ms !== null) return ms;
  const seconds = headerNumber(headers, 'retry-after');
  if (seconds !== null) return seconds * 1000;
  const date = headers.get('retry-after');
  if (date === null) return null;
  const at = Date.parse(date);
  return Number.isNaN(at) ? null : at - now;
}

/**
 * How long to wait before retry number `retry` (0 for the first): what the server asked for in
 * `retry-after-ms` / `retry-after`, kept within 0 … `MAX_RETRY_AFTER_MS`; else exponential backoff
 * with jitter as the official SDKs: 0.5 s × 2^retry, at most 8 s, less up to a quarter at random.
 * `headers` is null after a connection error. `random` and `now` are for tests.
 */
export function retryDelayMs(headers: Headers | null, retry: number, random: () => number = Math.random, now: number = Date.now()): number {
  const asked = headers === null ? null : serverDelayMs(headers, now);
  if (asked !== null) return Math.min(Math.max(asked, 0), MAX_RETRY_AFTER_MS);
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return backoff * (1 - random() * 0.25);
}
