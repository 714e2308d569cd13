import { expect } from 'chai';
import fc from 'fast-check';
import type { WireFormat } from '../../../lib/providers/types';
import { fixturesAvailable, readFixture, recordRun, splitAt } from './fixture-support';

const SEED = 20240611;
const RUNS = 40;
const FIXTURES: ReadonlyArray<[string, WireFormat]> = [
  ['openai-chat/parallel-tool-calls.sse', 'openai-chat'],
  ['openai-chat/refusal-logprobs.sse', 'openai-chat'],
  ['anthropic/thinking-signature.sse', 'anthropic'],
  ['anthropic/sdk-incomplete-tool-json.sse', 'anthropic'],
  ['anthropic/tool-no-args.sse', 'anthropic'],
];

const available = fixturesAvailable('Chat and Anthropic mappers over split bytes');

(available ? describe : describe.skip)(`OpenAIChatMapper and AnthropicMapper over split bytes${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  for (const [file, format] of FIXTURES) {
    it(`give ${file} the same callback sequence for any split of its bytes (seed ${SEED}, ${RUNS} runs)`, async () => {
      const bytes = readFixture(file);
      const whole = await recordRun([bytes], format);
      expect(whole.outcome.status).to.equal('completed');
      const cuts = fc.oneof(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }).map((size) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => (i + 1) * size)),
      );
      await fc.assert(
        fc.asyncProperty(cuts, async (offsets) => {
          const split = await recordRun(splitAt(bytes, offsets), format);
          expect(split.events).to.deep.equal(whole.events);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }
});
