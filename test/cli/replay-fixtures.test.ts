import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OWN_TRANSCRIPTS } from '../support/own-transcripts';
import { FIXTURES_MANIFEST, recordedFixturesPresent, recordedSkipNote } from '../support/recorded-fixtures';
import { FIXTURES_DIR, jsonEvents, runCli, type CliRun } from './run-cli';

/** What a replayed body must give: the fields of a manifest entry these tests compare against. */
interface Case {
  readonly file: string;
  readonly format: string;
  readonly expected: {
    readonly text: string | null;
    readonly reasoning: string | null;
    readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
    readonly error: string | null;
    /** Whether the body ends in its format's terminal event. */
    readonly completes: boolean;
    /** The provider's usage object as sent (recorded fixtures only). */
    readonly usage?: Record<string, unknown> | null;
    /** The manifest's normalized finish reasons and usage (recorded fixtures only). */
    readonly normalized?: { readonly finishReason: string | null; readonly providerFinishReason: string | null; readonly tokenUsage: Record<string, unknown> | null };
  };
  /** True for a recorded fixture, whose manifest entry also gives the normalized metadata. */
  readonly recorded: boolean;
  /** Runs `partstream <args>` over this body (read from the file, or from stdin for a hand-written transcript). */
  readonly run: (args: readonly string[]) => Promise<CliRun>;
}

/** What the test compares for a completed response. */
interface Summary {
  readonly status: number;
  readonly last: string;
  readonly text: string | null;
  readonly thinking: string | null;
  readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
}

interface ManifestEntry {
  readonly file: string;
  readonly format: string;
  readonly expected: Omit<Case['expected'], 'completes'> & { readonly terminal: string | null };
}

const ownCases: Case[] = OWN_TRANSCRIPTS.map((transcript) => ({
  file: transcript.file,
  format: transcript.format,
  recorded: false,
  expected: { ...transcript.expected, completes: transcript.expected.status === 'completed' },
  run: (args) =>
    runCli(['replay', '-', ...args], {
      stdin: (async function* () {
        yield transcript.bytes;
      })(),
    }),
}));

const recordedCases: Case[] = recordedFixturesPresent()
  ? (JSON.parse(readFileSync(FIXTURES_MANIFEST, 'utf8')) as ManifestEntry[]).map((entry) => ({
      file: entry.file,
      format: entry.format,
      recorded: true,
      expected: { ...entry.expected, completes: entry.expected.error === null && entry.expected.terminal !== null },
      run: (args) => runCli(['replay', path.join(FIXTURES_DIR, entry.file), ...args]),
    }))
  : [];

const cases = [...ownCases, ...recordedCases];

describe(`partstream replay --json over the hand-written transcripts and the recorded fixtures${recordedSkipNote('partstream replay over the recorded fixtures')}`, function () {
  for (const entry of cases) {
    const expected = entry.expected;

    if (expected.completes) {
      it(`${entry.file}: ends with a completeResponse matching the expected text, reasoning and tool calls (auto-detected)`, async () => {
        const run = await entry.run(['--json']);
        const events = jsonEvents(run.stdout);
        const last = events[events.length - 1];
        const response = (last.response ?? { aiMessage: {}, metadata: {} }) as {
          aiMessage: {
            text: string | null;
            thinking: string | null;
            parts: Array<{ type: string; toolCall?: Summary['toolCalls'][number] }>;
          };
          metadata: Record<string, unknown>;
        };
        const actual: Summary = {
          status: run.status,
          last: last.event,
          text: response.aiMessage.text,
          thinking: response.aiMessage.thinking,
          // Every call the stream carried is a tool-call part, a call cut off included.
          toolCalls: response.aiMessage.parts.flatMap((part) =>
            part.type === 'tool_call' && part.toolCall !== undefined ? [{ id: part.toolCall.id, name: part.toolCall.name, arguments: part.toolCall.arguments }] : [],
          ),
        };
        expect(actual).to.deep.equal({
          status: 0,
          last: 'completeResponse',
          text: expected.text,
          thinking: expected.reasoning,
          toolCalls: expected.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
        });
        if (entry.recorded) {
          // The metadata is printed whole: finish reasons and usage as the manifest expects them.
          expect(expected.normalized, 'manifest expected.normalized').to.not.equal(undefined);
          const { finishReason, providerFinishReason, tokenUsage, providerUsage } = response.metadata;
          expect({ finishReason, providerFinishReason, tokenUsage, providerUsage }).to.deep.equal({ ...expected.normalized, providerUsage: expected.usage });
        }
        // The deltas printed before the end add up to the final text.
        const streamed = events.filter((event) => event.event === 'partialResponse').map((event) => event.text as string);
        expect(streamed.length === 0 ? null : streamed.join('')).to.equal(expected.text);
      });
    } else {
      it(`${entry.file}: ends with one error event, exit status 1 and a one-line message`, async () => {
        const run = await entry.run(['--json', '--format', entry.format]);
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

  it('shows every transcript and fixture in the human view: a final summary after a complete response, else one error line', async () => {
    const outcomes = await Promise.all(
      cases.map(async (entry) => {
        const run = await entry.run([]);
        return {
          file: entry.file,
          status: run.status,
          summary: run.stdout.includes('\n── final message ──\nparts ('),
          errorLines: run.stderr.split('\n').length - 1,
        };
      }),
    );
    expect(outcomes).to.deep.equal(
      cases.map((entry) => ({
        file: entry.file,
        status: entry.expected.completes ? 0 : 1,
        summary: entry.expected.completes,
        errorLines: entry.expected.completes ? 0 : 1,
      })),
    );
  });

  it('names each event with one of the seven SPEC §9 event names, for every transcript and fixture', async () => {
    const known = ['partialResponse', 'partialThinking', 'partialToolCall', 'completeToolCall', 'unmappedRawEvent', 'completeResponse', 'error'];
    for (const entry of cases) {
      const run = await entry.run(['--json', '--format', entry.format]);
      const names = new Set(jsonEvents(run.stdout).map((event) => event.event));
      expect(
        [...names].filter((name) => !known.includes(name)),
        entry.file,
      ).to.deep.equal([]);
    }
  });
});
