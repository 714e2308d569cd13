import type { RelayBatch } from './response-store';

/**
 * The terminal batch a reaper (or a stopper of a dead producer's response) writes at `sequence`:
 * one `error` event `{kind: 'truncated', code: 'producer_lost'}` naming the producer and the last
 * persisted sequence, `by: 'reaper'` (SPEC §13 liveness).
 */
export function producerLostBatch(responseId: string, producerId: string, sequence: number): RelayBatch {
  const data = {
    responseId,
    error: { kind: 'truncated', message: `The producer ${producerId} of response ${responseId} was lost after sequence ${sequence - 1}`, code: 'producer_lost' },
    producerId,
    by: 'reaper',
  };
  return Object.freeze({ first: sequence, last: sequence, terminal: true, text: `id: ${sequence}\nevent: error\ndata: ${JSON.stringify(data)}\n\n` });
}

/** The terminal batch `stopResponse` writes at `sequence` for a response whose producer is gone. */
export function cancelledBatch(responseId: string, sequence: number, stop: { by: string; reason: string | null; at: string; stopId: string }): RelayBatch {
  const data = { responseId, by: stop.by, reason: stop.reason, at: stop.at, stopId: stop.stopId };
  return Object.freeze({ first: sequence, last: sequence, terminal: true, text: `id: ${sequence}\nevent: cancelled\ndata: ${JSON.stringify(data)}\n\n` });
}
