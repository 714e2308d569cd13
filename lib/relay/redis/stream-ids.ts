// Stream entry ids (`<ms>-<seq>`, two unsigned 64-bit decimals) compared exactly, as text: ids
// come from the server and may exceed the range of a double.

const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;

/** True when `id` is a well-formed complete stream id. */
export function isStreamId(id: string): boolean {
  return STREAM_ID.test(id);
}

function compareDecimal(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Negative, zero or positive as stream id `a` is before, equal to or after `b` (both well formed). */
export function compareStreamIds(a: string, b: string): number {
  const [, aMs = '', aSeq = ''] = STREAM_ID.exec(a) ?? [];
  const [, bMs = '', bSeq = ''] = STREAM_ID.exec(b) ?? [];
  return compareDecimal(aMs, bMs) || compareDecimal(aSeq, bSeq);
}

/** The log entry id of the batch whose first event is `sequence`. */
export function logEntryId(sequence: number): string {
  return `0-${sequence}`;
}
