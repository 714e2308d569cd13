// The `partstream` relay wire format v1 (SPEC §13): SSE events `id: <sequence>`, `event: <type>`,
// `data: <one-line JSON>`. What both ends agree on; the producer's encoder is in lib/relay/, the
// viewer's mapper beside this file.

/** The version a `start` event carries; a viewer reads this one only. */
export const PARTSTREAM_WIRE_VERSION = 1;

/** The response header that names the format and its version. */
export const PARTSTREAM_WIRE_HEADER = 'x-partstream-wire';

/** The largest sequence a cursor or an `id:` may name (2⁵³−1). */
const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER;

/** A sequence from its decimal text: ASCII digits only, at most 2⁵³−1; null otherwise. */
export function parseSequence(text: string | null | undefined): number | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > 16 || !/^[0-9]+$/.test(text)) return null;
  const value = Number(text);
  return value <= MAX_SEQUENCE ? value : null;
}
