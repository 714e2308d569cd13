import { expect } from 'chai';
import fc from 'fast-check';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { FormatOption } from '../../lib/driver/format-choice';
import { splitAt, trackedSource } from '../support/chunk-sources';
import { utf8 } from '../support/decode-chunks';
import { recordingHandler, type Recorded } from '../support/recording-handler';
import { TRANSCRIPT_RESULTS, TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';

async function run(chunks: readonly (Uint8Array | string)[], format: FormatOption): Promise<{ calls: Recorded[]; outcome: StreamOutcome }> {
  const handler = recordingHandler();
  const outcome = await consumeStream(trackedSource(chunks), handler, { format });
  return { calls: handler.calls, outcome };
}

function summary(outcome: StreamOutcome): unknown {
  if (outcome.status !== 'completed') return outcome.status;
  const message = outcome.response.aiMessage;
  return { text: message.text, thinking: message.thinking, toolCalls: message.toolExecutionRequests.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) };
}

describe('consumeStream with partstream mappers', () => {
  for (const format of WIRE_FORMATS) {
    describe(format, () => {
      const bytes = utf8(TRANSCRIPTS[format]);

      it('aggregates a whole transcript to its final message', async () => {
        const { outcome } = await run([bytes], format);
        expect(summary(outcome)).to.deep.equal(TRANSCRIPT_RESULTS[format]);
      });

      it('gives the same callbacks with format auto', async () => {
        expect(await run([bytes], 'auto')).to.deep.equal(await run([bytes], format));
      });

      it('gives the same callbacks for any split of the bytes (fast-check, 100 runs)', async () => {
        const whole = await run([bytes], format);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), fc.boolean(), async (offsets, auto) => {
            const split = await run(splitAt(bytes, offsets), auto ? 'auto' : format);
            expect(split).to.deep.equal(whole);
          }),
          { seed: 3003, numRuns: 100 },
        );
      });

      it('fails as truncated, keeping what arrived, when the body is cut inside its last frame', async () => {
        const text = TRANSCRIPTS[format];
        const cut = text.lastIndexOf(format === 'ollama' ? '{"model"' : 'data: ') + 12;
        const { calls, outcome } = await run([text.slice(0, cut)], format);
        expect(calls.filter((call) => call.on === 'error' || call.on === 'completeResponse').map((call) => [call.on, call.on === 'error' ? call.kind : null])).to.deep.equal([['error', 'truncated']]);
        expect(outcome.status).to.equal('failed');
        if (outcome.status === 'failed') expect(outcome.partial.aiMessage.text).to.equal(TRANSCRIPT_RESULTS[format].text.slice(0, outcome.partial.aiMessage.text?.length));
      });
    });
  }
});
