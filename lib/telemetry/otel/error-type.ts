import type { ObservedOutcome } from '../chat-model-listener';

const PROVIDER_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const KINDS = new Set(['truncated', 'malformed', 'format', 'timeout', 'network']);

/**
 * The `error.type` of a stream's end (a documented, low-cardinality list): an HTTP error's status
 * (`"429"`), an in-stream provider error's code (else `provider`), the `StreamError` kind
 * (`truncated`, `malformed`, `format`, `timeout`, `network`), `cancelled` for a cancel, `_OTHER`
 * for any other error; null for a completed stream.
 */
export function errorType(outcome: ObservedOutcome): string | null {
  if (outcome.status === 'completed') return null;
  if (outcome.status === 'cancelled') return 'cancelled';
  const error = outcome.error as Error & { kind?: unknown; status?: unknown; code?: unknown };
  if (error.name !== 'StreamError') return '_OTHER';
  if (error.kind === 'http') return typeof error.status === 'number' ? String(error.status) : 'http';
  if (error.kind === 'provider') return typeof error.code === 'string' && PROVIDER_CODE.test(error.code) ? error.code : 'provider';
  return typeof error.kind === 'string' && KINDS.has(error.kind) ? error.kind : '_OTHER';
}
