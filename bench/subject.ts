import { expectationOf, type Expectation } from './check';
import { splitBytes, type BenchFormat, type Transcript } from './generate-transcript';

/** What the byte-level measurements need of a transcript: its chunks and what to check against. */
export interface Subject {
  readonly format: BenchFormat;
  readonly n: number;
  readonly chunks: readonly Uint8Array[];
  readonly expectation: Expectation;
}

/**
 * The transcript's bytes in `chunkSize` views plus its expectation, holding no reference to the
 * generator's steps or expected text (so the bench's own live heap stays small while it times).
 */
export function subjectOf(transcript: Transcript, chunkSize: number): Subject {
  return {
    format: transcript.format,
    n: transcript.n,
    chunks: splitBytes(transcript.bytes, chunkSize),
    expectation: expectationOf(transcript),
  };
}
