import { describeError } from '../handler/describe-error';

/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/**
 * Secrets shorter than this are not searched for: real keys are far longer, and replacing a
 * two-letter test key everywhere would mangle messages without protecting anything.
 */
const MIN_SECRET_LENGTH = 6;

/** Request headers whose values are credentials. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie']);

/** How deep an error's cause chain is followed, here and in body decoding (a cycle or a hostile chain must not loop). */
export const MAX_CAUSE_DEPTH = 8;

/**
 * The strings that must never appear in an error: the API key, and the values of credential
 * headers (`authorization` and the like, with the credential after `Bearer ` on its own too).
 */
export function secretsOf(apiKey: string | undefined, headerSets: readonly Readonly<Record<string, string>>[]): readonly string[] {
  const secrets: string[] = [];
  const add = (value: string): void => {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_SECRET_LENGTH && !secrets.includes(trimmed)) secrets.push(trimmed);
  };
  if (apiKey !== undefined) add(apiKey);
  for (const headers of headerSets) {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || !CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
      add(value);
      const scheme = /^\S+\s+(\S.*)$/s.exec(value.trim());
      if (scheme !== null) add(scheme[1] as string);
    }
  }
  return secrets;
}

/** `text` with every secret replaced by `[redacted]` and the credentials of any URL in it removed. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return stripUrlCredentials(result);
}

/**
 * `text` with the `user:password@` part of every URL in it removed. The scheme is bounded so that
 * hostile text (a body echoed into a message) is scanned in linear time.
 */
function stripUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(/\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@]*@/gi, '$1') : text;
}

/**
 * Where a request went, for messages: scheme, host, port and path, without credentials, query or
 * fragment (a query may hold a key). Text that is not a URL is shown with its credentials and
 * query removed all the same.
 */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${describeOrigin(parsed)}${parsed.pathname}`;
  } catch {
    return stripUrlCredentials(url.replace(/[?#].*$/s, ''));
  }
}

/** A URL's origin for messages (`scheme://host:port`, never its path, query or credentials). */
export function describeOrigin(url: URL): string {
  return url.origin === 'null' ? url.protocol : url.origin;
}

/**
 * A JSON value (fresh from `JSON.parse`) with every secret in its strings and keys redacted, in
 * place. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function redactJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactText(value, secrets);
  const pending: object[] = typeof value === 'object' && value !== null ? [value] : [];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const clean = typeof child === 'string' ? redactText(child, secrets) : child;
      const cleanKey = redactText(key, secrets);
      if (cleanKey !== key) delete record[key];
      if (cleanKey !== key || clean !== child) {
        // defineProperty, not assignment: a `__proto__` key stays a plain own key.
        Object.defineProperty(record, cleanKey, { value: clean, writable: true, enumerable: true, configurable: true });
      }
      if (typeof clean === 'object' && clean !== null) pending.push(clean);
    }
  }
  return value;
}

function readString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

/** True when a secret or URL credentials show anywhere `util.inspect` would look: message, stack, own string fields, causes. */
function leaks(error: unknown, secrets: readonly string[], depth: number): boolean {
  if (depth > MAX_CAUSE_DEPTH) return true;
  if (typeof error !== 'object' || error === null) {
    const text = readString(() => String(error));
    return redactText(text, secrets) !== text;
  }
  const texts = [readString(() => (error as Error).message), readString(() => (error as Error).stack)];
  try {
    for (const key of Object.keys(error)) texts.push(readString(() => (error as Record<string, unknown>)[key]));
  } catch {
    return true;
  }
  if (texts.some((text) => redactText(text, secrets) !== text)) return true;
  let cause: unknown;
  try {
    cause = (error as Error).cause;
  } catch {
    return true;
  }
  return cause !== undefined && leaks(cause, secrets, depth + 1);
}

/** A plain copy of an error (name, message, stack, string and number fields, cause) with the secrets redacted. */
function redactedCopy(error: unknown, secrets: readonly string[], depth: number): Error {
  const copy = new Error(redactText(describeError(error), secrets));
  if (typeof error !== 'object' || error === null) return copy;
  const source = error as Record<string, unknown>;
  const name = readString(() => source.name);
  if (name !== '') copy.name = redactText(name, secrets);
  const stack = readString(() => source.stack);
  copy.stack = stack === '' ? `${copy.name}: ${copy.message}` : redactText(stack, secrets);
  try {
    for (const key of Object.keys(error)) {
      const value = source[key];
      if (typeof value === 'string') Object.defineProperty(copy, key, { value: redactText(value, secrets), enumerable: true, writable: true, configurable: true });
      else if (typeof value === 'number') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    }
    const cause = source.cause;
    if (cause !== undefined && depth < MAX_CAUSE_DEPTH) {
      Object.defineProperty(copy, 'cause', { value: redactedCopy(cause, secrets, depth + 1), writable: true, configurable: true });
    }
  } catch {
    // A field that resists reading is left out; the message above already says what failed.
  }
  return copy;
}

/**
 * `error` itself when no secret (nor URL credentials) shows anywhere in it or its causes; else a
 * plain copy of the chain with them replaced by `[redacted]`, so that an error from `fetch` can be
 * attached as a `cause` without carrying the key.
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  return leaks(error, secrets, 0) ? redactedCopy(error, secrets, 0) : error;
}

/** Why `fetch` would refuse a header value: the first offending character (described) and its position, or null. */
function headerValueProblem(value: string): { readonly what: string; readonly index: number } | null {
  // fetch trims leading and trailing HTTP whitespace (a key read from a file keeps its newline) before checking.
  const start = value.search(/[^\t\n\r ]/);
  if (start === -1) return null;
  let end = value.length;
  while (end > start && '\t\n\r '.includes(value.charAt(end - 1))) end--;
  for (let index = start; index < end; index++) {
    const code = value.charCodeAt(index);
    const what = code === 10 || code === 13 ? 'a line break' : code === 0 ? 'a NUL' : code > 255 ? 'a character beyond Latin-1' : null;
    if (what !== null) return { what, index };
  }
  return null;
}

/**
 * Throws a `TypeError` naming `what` and the offending character's position, never quoting the
 * value (it may be a key), when `fetch` would refuse the value as a header.
 */
export function checkHeaderValue(what: string, value: string): void {
  const problem = headerValueProblem(value);
  if (problem !== null) throw new TypeError(`${what} contains a character not allowed in an HTTP header (${problem.what}) at position ${problem.index}`);
}
