import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_DIR, jsonEvents, runCli } from './run-cli';

/** The part of a manifest entry these tests compare against. */
interface ManifestEntry {
  readonly file: string;
  readonly format: string;
  readonly expected: {
    readonly text: string | null;
    readonly reasoning: string | null;
    readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
    readonly error: string | null;
    readonly terminal: string | null;
    readonly usage: Record<string, unknown> | null;
    readonly normalized?: { readonly finishReason: string | null; readonly providerFinishReason: string | null; readonly tokenUsage: Record<string, unknown> | null };
  };
}

/** What the test compares for a completed response. */
interface Summary {
  readonly status: number;
  readonly last: string;
  readonly text: string | null;
  readonly thinking: string | null;
  readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
}

const manifestPath = path.join(FIXTURES_DIR, 'manifest.json');
const manifest: readonly ManifestEntry[] = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[]) : [];

describe('partstream replay --json over the recorded fixtures', function () {
  before(function () {
    if (manifest.length === 0) {
      console.warn(`      skipped: no fixtures at ${FIXTURES_DIR}`);
      this.skip();
    }
  });

  for (const entry of manifest) {
    const expected = entry.expected;
    const completes = expected.error === null && expected.terminal !== null;

    if (completes) {
      it(`${entry.file}: ends with a completeResponse matching the expected text, reasoning and tool calls (auto-detected)`, async () => {
        const run = await runCli(['replay', path.join(FIXTURES_DIR, entry.file), '--json']);
        const events = jsonEvents(run.stdout);
        const last = events[events.length - 1];
        const response = (last.response ?? { aiMessage: {}, metadata: {} }) as {
          aiMessage: { text: string | null; thinking: string | null; toolExecutionRequests: Summary['toolCalls'] };
          metadata: Record<string, unknown>;
        };
        const actual: Summary = {
          status: run.status,
          last: last.event,
          text: response.aiMessage.text,
          thinking: response.aiMessage.thinking,
          toolCalls: response.aiMessage.toolExecutionRequests,
        };
        expect(actual).to.deep.equal({
          status: 0,
          last: 'completeResponse',
          text: expected.text,
          thinking: expected.reasoning,
          toolCalls: expected.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
        });
        // The metadata is printed whole: finish reasons and usage as the manifest expects them.
        expect(expected.normalized, 'manifest expected.normalized').to.not.equal(undefined);
        const { finishReason, providerFinishReason, tokenUsage, providerUsage } = response.metadata;
        expect({ finishReason, providerFinishReason, tokenUsage, providerUsage }).to.deep.equal({ ...expected.normalized, providerUsage: expected.usage });
        // The deltas printed before the end add up to the final text.
        const streamed = events.filter((event) => event.event === 'partialResponse').map((event) => event.text as string);
        expect(streamed.length === 0 ? null : streamed.join('')).to.equal(expected.text);
      });
    } else {
      it(`${entry.file}: ends with one error event, exit status 1 and a one-line message`, async () => {
        const run = await runCli(['replay', path.join(FIXTURES_DIR, entry.file), '--json', '--format', entry.format]);
        const events = jsonEvents(run.stdout);
        const errors = events.filter((event) => event.event === 'error');
        const last = events[events.length - 1];
        expect({ status: run.status, last: last.event, errors: errors.length, stderrLines: run.stderr.split('\n').length }).to.deep.equal({
          status: 1,
          last: 'error',
          errors: 1,
          stderrLines: 2,
        });
        if (expected.error !== null) expect(last.message as string).to.include(expected.error);
      });
    }
  }

  it('shows every fixture in the human view: a final summary after a complete response, else one error line', async () => {
    const outcomes = await Promise.all(
      manifest.map(async (entry) => {
        const run = await runCli(['replay', path.join(FIXTURES_DIR, entry.file)]);
        return {
          file: entry.file,
          status: run.status,
          summary: run.stdout.includes('\n── final message ──\nparts ('),
          errorLines: run.stderr.split('\n').length - 1,
        };
      }),
    );
    const completes = (entry: ManifestEntry): boolean => entry.expected.error === null && entry.expected.terminal !== null;
    expect(outcomes).to.deep.equal(
      manifest.map((entry) => ({
        file: entry.file,
        status: completes(entry) ? 0 : 1,
        summary: completes(entry),
        errorLines: completes(entry) ? 0 : 1,
      })),
    );
  });

  it('names each event with one of the seven SPEC §9 event names', async () => {
    const entry = manifest.find((candidate) => candidate.file === 'openai-responses/reasoning-encrypted-1.sse');
    expect(entry, 'manifest entry openai-responses/reasoning-encrypted-1.sse').to.not.equal(undefined);
    const run = await runCli(['replay', path.join(FIXTURES_DIR, entry!.file), '--json']);
    const names = new Set(jsonEvents(run.stdout).map((event) => event.event));
    const known = ['partialResponse', 'partialThinking', 'partialToolCall', 'completeToolCall', 'unmappedRawEvent', 'completeResponse', 'error'];
    expect([...names].filter((name) => !known.includes(name))).to.deep.equal([]);
  });
});
