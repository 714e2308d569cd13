import { expect } from 'chai';
import type { CompleteToolCall, PartialResponse, PartialThinking } from '../../../lib/handler/types';
import { StreamError } from '../../../lib/handler/stream-error';
import { expectManifestFinishAndUsage, fixtureEntries, fixturesAvailable, readFixture, recordRun, valuesOf, type FixtureEntry, type RecordedRun } from '../shared/fixture-support';

/** The manifest fields these tests read beyond the shared ones. */
type OllamaExpected = FixtureEntry['expected'] & { readonly error: string | null };

/** One line, read field by field. */
interface WireLine {
  readonly message?: { readonly content?: string; readonly thinking?: string; readonly tool_calls?: readonly unknown[] };
  readonly done?: boolean;
  readonly error?: unknown;
}

function referenceLines(bytes: Uint8Array): WireLine[] {
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as WireLine);
}

/**
 * The lines no typed callback should carry, by the rules of issue 5 restated independently: a
 * line with content, thinking or tool calls, the `done: true` line and an error line are
 * carried, and nothing after the first of the last two is read; every other line is raw.
 */
function expectedRawLines(lines: readonly WireLine[]): WireLine[] {
  const raw: WireLine[] = [];
  for (const line of lines) {
    const message = line.message;
    const carried = line.error !== undefined || line.done === true || (message?.content ?? '') !== '' || (message?.thinking ?? '') !== '' || (message?.tool_calls?.length ?? 0) > 0;
    if (!carried) raw.push(line);
    if (line.error !== undefined || line.done === true) break;
  }
  return raw;
}

function requests(expected: OllamaExpected) {
  return expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
}

function terminals(run: RecordedRun): string[] {
  return run.events.filter(([name]) => name === 'completeResponse' || name === 'error').map(([name]) => name);
}

const entries = fixtureEntries('ollama');
const available = fixturesAvailable('OllamaMapper fixtures');

(available ? describe : describe.skip)(`OllamaMapper over the recorded streams${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  it('finds its recorded streams, each with its normalized expectations, in the manifest', () => {
    expect(entries).to.not.have.length(0);
    expect(entries.filter((entry) => entry.expected.normalized === undefined).map((entry) => entry.file)).to.deep.equal([]);
  });

  for (const entry of entries) {
    const expected = entry.expected as OllamaExpected;
    describe(entry.file, () => {
      let run: RecordedRun;
      let lines: WireLine[];

      before(async () => {
        const bytes = readFixture(entry.file);
        lines = referenceLines(bytes);
        run = await recordRun([bytes], 'ollama');
      });

      it('reports the finish reasons and token usage of the manifest, and the usage object as sent', () => {
        expectManifestFinishAndUsage(run.response, entry);
      });

      if (expected.error !== null) {
        it('fails with exactly one provider error carrying the message, and no other terminal callback', () => {
          expect(run.outcome.status).to.equal('failed');
          expect(terminals(run)).to.deep.equal(['error']);
          const [error] = valuesOf<Error>(run.events, 'error');
          expect(StreamError.isInstance(error) && [error.kind, error.message]).to.deep.equal(['provider', expected.error]);
          expect(run.events.at(-1)?.[0]).to.equal('error');
        });
      } else {
        it('completes with the expected text, reasoning and tool calls', () => {
          expect(run.outcome.status).to.equal('completed');
          const message = run.response.aiMessage;
          expect({ text: message.text, thinking: message.thinking, toolCalls: message.toolExecutionRequests }).to.deep.equal({
            text: expected.text,
            thinking: expected.reasoning,
            toolCalls: requests(expected),
          });
        });

        it('delivers the same content through the typed callbacks', () => {
          expect({
            text: valuesOf<PartialResponse>(run.events, 'partialResponse')
              .map((p) => p.text)
              .join(''),
            thinking: valuesOf<PartialThinking>(run.events, 'partialThinking')
              .map((p) => p.text)
              .join(''),
            toolCalls: valuesOf<CompleteToolCall>(run.events, 'completeToolCall').map((c) => [c.index, c.toolExecutionRequest]),
          }).to.deep.equal({
            text: expected.text ?? '',
            thinking: expected.reasoning ?? '',
            toolCalls: requests(expected).map((request, index) => [index, request]),
          });
        });

        it('reports the model (Ollama sends no response id)', () => {
          expect([run.response.metadata.id, run.response.metadata.modelName]).to.deep.equal([null, expected.model]);
        });

        it('ends with exactly one terminal callback, the complete response', () => {
          expect(terminals(run)).to.deep.equal(['completeResponse']);
          expect(run.events.at(-1)?.[0]).to.equal('completeResponse');
        });

        it('fails with one truncated error when the done: true line is cut off', async () => {
          const bytes = readFixture(entry.file);
          const cut = await recordRun([bytes.subarray(0, Buffer.from(bytes).lastIndexOf('{"model"') + 10)], 'ollama');
          expect(cut.outcome.status).to.equal('failed');
          expect(valuesOf<Error>(cut.events, 'error').map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
          expect(terminals(cut)).to.deep.equal(['error']);
        });
      }

      it('surfaces exactly the lines no typed callback carried', () => {
        expect(valuesOf<WireLine>(run.events, 'unmappedRawEvent')).to.deep.equal(expectedRawLines(lines));
      });
    });
  }
});
