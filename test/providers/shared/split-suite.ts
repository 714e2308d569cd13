import { expect } from 'chai';
import fc from 'fast-check';
import type { TextWireFormat as WireFormat } from '../../support/transcripts';
import { StreamError } from '../../../lib/handler/stream-error';
import { ownTranscripts } from '../../support/own-transcripts';
import { recordedFixturesPresent, recordedSkipNote } from '../../support/recorded-fixtures';
import { readFixture, recordRun, splitAt, type RecordedEvent } from './fixture-support';

/** The seed and number of runs of every split property (fixed, so `npm test` is deterministic). */
const SEED = 5_2025;
const RUNS = 50;

/** Errors compared by what they say (name, kind, code, message), not by identity. */
export function comparable(events: readonly RecordedEvent[]): unknown[] {
  return events.map(([name, value]) => (value instanceof Error ? [name, value.name, StreamError.isInstance(value) ? [value.kind, value.code] : null, value.message] : [name, value]));
}

/** Checks that any split of `bytes` gives the callbacks of the whole body, in order. */
async function expectSplitInvariant(bytes: Uint8Array, format: WireFormat): Promise<void> {
  const whole = comparable((await recordRun([bytes], format)).events);
  expect(whole.length, 'the whole body gives callbacks').to.be.greaterThan(0);
  const cuts = fc.oneof(
    fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }),
    fc.integer({ min: 1, max: 7 }).map((size) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => (i + 1) * size)),
  );
  await fc.assert(
    fc.asyncProperty(cuts, async (offsets) => {
      expect(comparable((await recordRun(splitAt(bytes, offsets), format)).events)).to.deep.equal(whole);
    }),
    { numRuns: RUNS, seed: SEED },
  );
}

/**
 * Declares the split suite of one mapper: every hand-written transcript of `format` always, and
 * the given recorded fixtures when the fixtures folder is present.
 */
export function describeSplits(mapper: string, format: WireFormat, recordedFiles: readonly string[]): void {
  describe(`${mapper} over split bytes${recordedSkipNote(`${mapper} over split bytes`)}`, () => {
    for (const transcript of ownTranscripts(format)) {
      it(`gives ${transcript.file} the same callback sequence for any split of its bytes (seed ${SEED}, ${RUNS} runs)`, async () => {
        await expectSplitInvariant(transcript.bytes, format);
      });
    }
    // Without the fixtures folder these cases are left out; the suite's title and a warning say so.
    for (const file of recordedFixturesPresent() ? recordedFiles : []) {
      it(`gives ${file} the same callback sequence for any split of its bytes (seed ${SEED}, ${RUNS} runs)`, async () => {
        await expectSplitInvariant(readFixture(file), format);
      });
    }
  });
}
