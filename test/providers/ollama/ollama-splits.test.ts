import { expect } from 'chai';
import fc from 'fast-check';
import { StreamError } from '../../../lib/providers/stream-error';
import { fixturesAvailable, readFixture, recordRun, splitAt, type RecordedEvent } from '../shared/fixture-support';

const SEED = 5_2025;
const RUNS = 50;
const FILES = ['ollama/sk-phi3-text-tail.ndjson', 'ollama/sk-parallel-tool-calls.ndjson', 'ollama/docs-midstream-error.ndjson'];

/** Errors compared by what they say, not by identity. */
function comparable(events: readonly RecordedEvent[]): unknown[] {
  return events.map(([name, value]) =>
    value instanceof Error ? [name, value.name, StreamError.isInstance(value) ? [value.kind, value.code] : null, value.message] : [name, value],
  );
}

const available = fixturesAvailable('OllamaMapper over split bytes');

(available ? describe : describe.skip)(`OllamaMapper over split bytes${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  for (const file of FILES) {
    it(`gives ${file} the same callback sequence for any split of its bytes (seed ${SEED}, ${RUNS} runs)`, async () => {
      const bytes = readFixture(file);
      const whole = comparable((await recordRun([bytes], 'ollama')).events);
      const cuts = fc.oneof(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }).map((size) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => (i + 1) * size)),
      );
      await fc.assert(
        fc.asyncProperty(cuts, async (offsets) => {
          expect(comparable((await recordRun(splitAt(bytes, offsets), 'ollama')).events)).to.deep.equal(whole);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }
});
