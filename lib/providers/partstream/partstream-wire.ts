// The `partstream` relay wire format v1 (SPEC §13): SSE events `id: <sequence>`, `event: <type>`,
// `data: <one-line JSON>`. What both ends agree on; the producer's encoder is in lib/relay/, the
// viewer's mapper beside this file.

/** The version a `start` event carries; a viewer reads this one only. */
export const PARTSTREAM_WIRE_VERSION = 1;

/** The response header that names the format and its version. */
export const PARTSTREAM_WIRE_HEADER = 'x-partstream-wire';

/** The event types of v1 that change what a viewer holds; any other type surfaces raw. */
export type PartstreamEventType =
  | 'start'
  | 'meta'
  | 'delta'
  | 'tool-delta'
  | 'tool-call'
  | 'block'
  | 'raw'
  | 'complete'
  | 'error'
  | 'cancelled';

/** The terminal event types: exactly one ends a response's log. */
export const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['complete', 'error', 'cancelled']);

/** Who wrote an `error` event: the producer itself, or a viewer that found it gone. */
export type ErrorAuthor = 'producer' | 'reaper';

/** What a `cancelled` event says of the stop (`providerMetadata.partstream.stop` on the viewer's response). */
export interface StopRecord {
  readonly by: string;
  readonly reason: string | null;
  /** ISO 8601 time of the stop. */
  readonly at: string;
}

/** The largest sequence a cursor or an `id:` may name (2⁵³−1). */
export const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER;

/** A sequence from its decimal text: ASCII digits only, at most 2⁵³−1; null otherwise. */
export function parseSequence(text: string | null | undefined): number | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > 16 || !/^[0-9]+$/.test(text)) return null;
  const value = Number(text);
  return value <= MAX_SEQUENCE ? value : null;
}
