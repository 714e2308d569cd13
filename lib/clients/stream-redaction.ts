import type { SecretRedaction } from '../driver/stream-options';
import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import { stringifyJson } from '../wire/stringify-json';
import { REDACTED, redactError, redactJson, redactText } from './secrets';

// What a stream itself shows — its errors and raw events — is redacted like an HTTP error body,
// with one addition: a frame is the server's text, where a key may be spelt with JSON escapes.

/** A regular expression source for `char` as JSON text may spell it: as it is, or escaped (`\u0073`, `\/`). */
function jsonSpellings(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code
    .toString(16)
    .padStart(4, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
  const literal = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  const short = char === '/' || char === '"' || char === '\\' ? `|\\\\${literal}` : '';
  return `(?:${literal}|\\\\u${hex}${short})`;
}

/**
 * A pattern that finds each secret spelt with JSON escapes (a server may echo the key inside a
 * JSON string as `\u0073k-…`), or null when there is no secret. Linear in the text for a given
 * set of secrets: each character of a secret is a small alternation, nothing repeats.
 */
function escapedSecretsPattern(secrets: readonly string[]): RegExp | null {
  if (secrets.length === 0) return null;
  // One UTF-16 unit at a time, as JSON escapes them (a key is Latin-1: header values are checked).
  const spelt = secrets.map((secret) => Array.from({ length: secret.length }, (_, i) => jsonSpellings(secret.charAt(i))).join(''));
  return new RegExp(spelt.join('|'), 'g');
}

/** `text` as `redactText` leaves it, and with the secrets spelt with JSON escapes (`\u0073k-…`) replaced too. */
function redactWireText(text: string, secrets: readonly string[], escaped: RegExp | null): string {
  const redacted = redactText(text, secrets);
  return escaped !== null && redacted.includes('\\') ? redacted.replace(escaped, REDACTED) : redacted;
}

/** True when a string or key anywhere in `value` (any depth, any shape) holds a secret or URL credentials. */
function jsonLeaks(value: unknown, secrets: readonly string[]): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') {
      if (redactText(node, secrets) !== node) return true;
      continue;
    }
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const key of Object.keys(node)) {
      if (redactText(key, secrets) !== key) return true;
      pending.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * A copy of a value from the stream with its secrets redacted (`value` itself when it shows
 * none): a string through `redactWireText`, JSON through a copy (any depth) redacted in place; a
 * value that is not JSON and shows a secret is replaced by `[redacted]` whole.
 */
function redactStreamValue(value: unknown, secrets: readonly string[], escaped: RegExp | null): unknown {
  if (typeof value === 'string') return redactWireText(value, secrets, escaped);
  if (!jsonLeaks(value, secrets)) return value;
  try {
    const text = stringifyJson(value);
    if (text !== undefined) return redactJson(JSON.parse(text), secrets);
  } catch {
    // Not JSON (a cycle, a BigInt): nothing of it can be shown safely.
  }
  return REDACTED;
}

/** The same `StreamError` when none of its fields or causes shows a secret, else a copy of the same kind with them redacted. */
function redactStreamError(error: StreamError, secrets: readonly string[], escaped: RegExp | null): StreamError {
  const message = redactWireText(error.message, secrets, escaped);
  const code = error.code === undefined ? undefined : redactWireText(error.code, secrets, escaped);
  const frame = error.frame === undefined ? undefined : redactWireText(error.frame, secrets, escaped);
  const body = redactStreamValue(error.body, secrets, escaped);
  const cause = error.cause === undefined ? undefined : redactError(error.cause, secrets);
  if (message === error.message && code === error.code && frame === error.frame && body === error.body && cause === error.cause) return error;
  return new StreamError(error.kind, message, { status: error.status, body, code, frame, cause });
}

/** True for an SSE raw event, `{event, data}` and nothing else (an NDJSON line may hold those two keys among others). */
function isSseEvent(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && keys.includes('event') && keys.includes('data');
}

/**
 * How a client keeps `secrets` out of what a stream reports (see `SecretRedaction`): a stream
 * error keeps its kind, status and shape with every secret replaced by `[redacted]` in its
 * message, code, frame, body (at any depth, JSON-escaped spellings included) and causes; another
 * error becomes a redacted copy (`redactError`); a raw event is copied with its secrets replaced.
 * What shows no secret passes as it is. Undefined when there is no secret to keep.
 */
export function secretRedaction(secrets: readonly string[]): SecretRedaction | undefined {
  if (secrets.length === 0) return undefined;
  const escaped = escapedSecretsPattern(secrets);
  return Object.freeze({
    error(error: Error): Error {
      if (StreamError.isInstance(error)) return redactStreamError(error, secrets, escaped);
      const redacted = redactError(error, secrets);
      return redacted instanceof Error ? redacted : new Error(describeError(redacted));
    },
    rawEvent(rawEvent: unknown): unknown {
      if (isSseEvent(rawEvent)) {
        // An SSE event: its name and data text (the data may spell the key with JSON escapes).
        const { event, data } = rawEvent as { event: unknown; data: unknown };
        if (typeof data === 'string' && (event === null || typeof event === 'string')) {
          const cleanData = redactWireText(data, secrets, escaped);
          const cleanEvent = event === null ? null : redactWireText(event, secrets, escaped);
          return cleanData === data && cleanEvent === event ? rawEvent : { event: cleanEvent, data: cleanData };
        }
      }
      return redactStreamValue(rawEvent, secrets, escaped);
    },
  });
}
