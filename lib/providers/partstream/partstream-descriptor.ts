import type { SseFrame } from '../../wire/types';
import { createSequencedSseDecoder } from '../../wire/sse-decoder';
import type { ProviderDescriptor } from '../provider-descriptor';
import { PartstreamMapper } from './partstream-mapper';

/**
 * partstream's own relay format (SPEC §13): SSE events with `id:` = sequence, the body a relay
 * serves. Not a provider — no client, no replay, no finish reasons of its own — but read as one:
 * `auto` recognises its first event (`start`, a name no provider uses) or the
 * `x-partstream-wire: 1` header of a relay `Response`.
 */
export const partstreamFormat: ProviderDescriptor<'partstream', SseFrame, never, never> = {
  format: 'partstream',
  name: 'a partstream relay',
  expected: 'a partstream relay stream (Server-Sent Events, x-partstream-wire: 1)',
  framing: 'sse',
  contentType: 'text/event-stream',
  sniff: { sseEvent: (name) => name === 'start' },
  createMapper: () => new PartstreamMapper(),
  createDecoder: (maxFrameBytes) => createSequencedSseDecoder(maxFrameBytes),
  // The relay carries the producer's final message whole; its finish reason is already partstream's.
  finishReason: () => null,
  client: null,
  replay: null,
  telemetry: { providerName: 'partstream', operationName: 'chat' },
};
