import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import type { ChatResponse, ChatResponseMetadata } from '../handler/types';
import { chatResponse, responseMetadata } from '../handler/values';
import { describeValue } from '../parts/describe-value';
import type { RunState } from './run-state';
import type { Interrupted } from './stream-guard';
import type { StreamLimits, StreamOutcome } from './stream-options';

function assertNever(value: never): never {
  throw new TypeError(`Expected a handled case, got ${describeValue(value)}`);
}

/**
 * The stream error for a wait on the transport that did not bring a value: a timeout names its
 * option, a failure of the transport is a `network` error (a `StreamError` it threw stays as it
 * is); null when the wait was stopped or the stream is cancelled (nothing to report).
 */
export function interruptionError(outcome: Interrupted, limits: StreamLimits, run: RunState, failedWhat: string): Error | null {
  switch (outcome.type) {
    case 'stopped':
      return null;
    case 'idle':
      return new StreamError('timeout', `No data arrived for ${limits.idleTimeoutMs ?? 0} ms (idleTimeoutMs)`);
    case 'deadline':
      return new StreamError('timeout', `The stream did not complete within its ${limits.timeoutMs ?? 0} ms deadline (timeoutMs)`);
    case 'error': {
      if (run.cancelled) return null;
      const error = outcome.error;
      return StreamError.isInstance(error) ? error : new StreamError('network', `${failedWhat}: ${describeError(error)}`, { cause: error });
    }
    default:
      return assertNever(outcome);
  }
}

/**
 * How the run ended, from its run state: the final response, or the failure / cancel with what
 * was aggregated (`partial`, with the id, model and usage the mapper saw, `known`).
 */
export function streamOutcome(run: RunState, aggregated: ChatResponse, known: () => ChatResponseMetadata | undefined): StreamOutcome {
  const status = run.status;
  switch (status) {
    case 'completed':
      return Object.freeze({ status: 'completed', response: aggregated });
    case 'failed':
      return Object.freeze({
        status: 'failed',
        error: run.failure ?? new StreamError('truncated', 'The stream failed'),
        partial: withKnownMetadata(aggregated, known),
      });
    case 'cancelled':
    case 'open':
      return Object.freeze({ status: 'cancelled', partial: withKnownMetadata(aggregated, known) });
    default:
      return assertNever(status);
  }
}

/**
 * What was aggregated, with the metadata the mapper saw before the stream broke off where the
 * partial has none. A mapper whose `metadataSoFar` throws (an adapter's defect) adds nothing.
 */
function withKnownMetadata(partial: ChatResponse, knownSoFar: () => ChatResponseMetadata | undefined): ChatResponse {
  let known: ChatResponseMetadata | undefined;
  try {
    known = knownSoFar();
  } catch {
    known = undefined;
  }
  if (known === undefined || known === null || typeof known !== 'object') return partial;
  const metadata = partial.metadata;
  return chatResponse(
    partial.aiMessage,
    responseMetadata({
      ...metadata,
      id: metadata.id ?? known.id,
      modelName: metadata.modelName ?? known.modelName,
      tokenUsage: metadata.tokenUsage ?? known.tokenUsage ?? null,
      providerUsage: metadata.providerUsage ?? known.providerUsage ?? null,
      providerMetadata: metadata.providerMetadata ?? known.providerMetadata ?? null,
    }),
  );
}
