import { expect } from 'chai';
import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking, PartialToolCall } from '../../../lib/handler/types';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { expectManifestFinishAndUsage, fixtureEntries, fixturesAvailable, readFixture, recordRun, referenceSseFrames, valuesOf, type FixtureEntry, type RecordedRun } from '../shared/fixture-support';

/** The manifest fields these tests read beyond the shared ones. */
type GeminiExpected = FixtureEntry['expected'] & {
  readonly error: string | null;
  readonly errorStatus?: string;
  readonly httpStatus?: number;
};

/** One part of a chunk, read field by field. */
interface WirePart {
  readonly text?: string;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly functionCall?: { readonly name?: string; readonly partialArgs?: readonly unknown[]; readonly willContinue?: boolean };
  readonly [other: string]: unknown;
}

function partsOf(frame: SseFrame): WirePart[] {
  const chunk = JSON.parse(frame.data) as { candidates?: Array<{ content?: { parts?: WirePart[] } }> };
  return chunk.candidates?.[0]?.content?.parts ?? [];
}

/**
 * The chunks no typed callback should carry, by the rules of issue 5 restated independently: a
 * chunk is carried when a part has text or a thought signature, or a functionCall completes a
 * call (a whole call, the end of a streamed one — an empty `functionCall {}` or one without
 * `willContinue` — or a new named call ending the one before) or streams `partialArgs`. A chunk
 * with any other part is surfaced raw even when it carried something.
 */
function expectedRawFrames(frames: readonly SseFrame[]): SseFrame[] {
  let streaming = false;
  return frames.filter((frame) => {
    let carried = false;
    let other = false;
    for (const part of partsOf(frame)) {
      const call = part.functionCall;
      if (call !== undefined) {
        if (call.name !== undefined) {
          carried ||= streaming;
          streaming = true;
        }
        if (!streaming) continue;
        carried ||= (call.partialArgs?.length ?? 0) > 0;
        if (call.willContinue !== true) {
          carried = true;
          streaming = false;
        }
      } else if ((part.text ?? '') !== '' || part.thoughtSignature !== undefined) {
        carried = true;
      } else if (!('text' in part)) {
        other = true;
      }
    }
    return !carried || other;
  });
}

/** The thought signatures on the final message's parts, in order. */
function thoughtSignatures(response: ChatResponse): string[] {
  return response.aiMessage.parts.flatMap((part) => (part.payload?.kind === 'thought_signature' ? [part.payload.data] : []));
}

function requests(expected: GeminiExpected) {
  return expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
}

function terminals(run: RecordedRun): string[] {
  return run.events.filter(([name]) => name === 'completeResponse' || name === 'error').map(([name]) => name);
}

const entries = fixtureEntries('gemini');
const available = fixturesAvailable('GeminiMapper fixtures');

(available ? describe : describe.skip)(`GeminiMapper over the recorded streams${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  it('finds its recorded streams, each with its normalized expectations, in the manifest', () => {
    expect(entries).to.not.have.length(0);
    expect(entries.filter((entry) => entry.expected.normalized === undefined).map((entry) => entry.file)).to.deep.equal([]);
  });

  for (const entry of entries) {
    const expected = entry.expected as GeminiExpected;
    describe(entry.file, () => {
      let run: RecordedRun;
      let frames: SseFrame[];

      before(async () => {
        const bytes = readFixture(entry.file);
        frames = expected.httpStatus === undefined ? referenceSseFrames(bytes) : [];
        run = await recordRun([bytes], 'gemini');
      });

      it('reports the finish reasons and token usage of the manifest, and the usage object as sent', () => {
        expectManifestFinishAndUsage(run.response, entry);
      });

      if (expected.error !== null) {
        it('fails with one provider error carrying the message, status and code of the error body', () => {
          expect(run.outcome.status).to.equal('failed');
          expect(run.events.map(([name]) => name)).to.deep.equal(['error']);
          const [error] = valuesOf<Error>(run.events, 'error');
          expect(StreamError.isInstance(error) && [error.kind, error.message, error.status, error.code]).to.deep.equal(['provider', expected.error, expected.httpStatus, expected.errorStatus]);
        });
      } else if (expected.terminal === null) {
        it('fails as truncated: the body holds no chunk at all', () => {
          expect(run.outcome.status).to.equal('failed');
          const errors = valuesOf<Error>(run.events, 'error');
          expect(errors.map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
          expect(terminals(run)).to.deep.equal(['error']);
        });
      } else {
        it('completes with the expected text, reasoning, thought signatures and tool calls', () => {
          expect(run.outcome.status).to.equal('completed');
          const message = run.response.aiMessage;
          expect({ text: message.text, thinking: message.thinking, signatures: thoughtSignatures(run.response), toolCalls: message.toolExecutionRequests }).to.deep.equal({
            text: expected.text,
            thinking: expected.reasoning,
            signatures: expected.reasoningSignatures,
            toolCalls: requests(expected),
          });
        });

        it('delivers the same content through the typed callbacks; streamed argument fragments concatenate to each call', () => {
          const completes = valuesOf<CompleteToolCall>(run.events, 'completeToolCall');
          const partials = valuesOf<PartialToolCall>(run.events, 'partialToolCall');
          const payloads = [...valuesOf<PartialThinking | PartialResponse>(run.events, 'partialThinking'), ...valuesOf<PartialResponse>(run.events, 'partialResponse'), ...completes];
          expect({
            text: valuesOf<PartialResponse>(run.events, 'partialResponse')
              .map((p) => p.text)
              .join(''),
            thinking: valuesOf<PartialThinking>(run.events, 'partialThinking')
              .map((p) => p.text)
              .join(''),
            signatures: payloads.flatMap((value) => (value.payload === undefined ? [] : [value.payload.data])).sort(),
            toolCalls: completes.map((c) => [c.index, c.toolExecutionRequest]),
          }).to.deep.equal({
            text: expected.text ?? '',
            thinking: expected.reasoning ?? '',
            signatures: [...expected.reasoningSignatures].sort(),
            toolCalls: requests(expected).map((request, index) => [index, request]),
          });
          for (const complete of completes) {
            const fragments = partials.filter((p) => p.index === complete.index).map((p) => p.partialArguments);
            if (fragments.length > 0) expect(fragments.join(''), complete.toolExecutionRequest.name).to.equal(complete.toolExecutionRequest.arguments);
          }
        });

        it('reports the id and model, also in providerMetadata as sent', () => {
          const { id, modelName, providerMetadata } = run.response.metadata;
          expect([id, modelName, providerMetadata?.responseId, providerMetadata?.modelVersion]).to.deep.equal([expected.id, expected.model, expected.id, expected.model]);
        });

        it('ends with exactly one terminal callback, the complete response', () => {
          expect(terminals(run)).to.deep.equal(['completeResponse']);
          expect(run.events.at(-1)?.[0]).to.equal('completeResponse');
        });

        it('surfaces exactly the chunks no typed callback carried, and every chunk with a part it does not map', () => {
          const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
          expect(raw).to.deep.equal(expectedRawFrames(frames));
          for (const marker of expected.serverToolEvents) {
            const key = marker.replace(/^part:/, '');
            const hasPart = (frame: SseFrame) => partsOf(frame).some((part) => key in part);
            const withPart = frames.filter(hasPart);
            expect(withPart.length, marker).to.be.greaterThan(0);
            expect(raw.filter(hasPart), marker).to.deep.equal(withPart);
          }
        });

        it('fails with one truncated error when the last chunk (with the finish reason) is cut off', async () => {
          const bytes = readFixture(entry.file);
          const lastChunk = Buffer.from(bytes).lastIndexOf('data: ');
          const cut = await recordRun([bytes.subarray(0, lastChunk + 20)], 'gemini');
          expect(cut.outcome.status).to.equal('failed');
          expect(valuesOf<Error>(cut.events, 'error').map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
          expect(terminals(cut)).to.deep.equal(['error']);
        });
      }
    });
  }
});
