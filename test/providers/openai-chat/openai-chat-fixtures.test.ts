import { expect } from 'chai';
import type { CompleteToolCall, PartialResponse, PartialThinking } from '../../../lib/handler/types';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import {
  expectManifestFinishAndUsage,
  fixtureEntries,
  fixturesAvailable,
  readFixture,
  reasoningSignatures,
  recordRun,
  referenceSseFrames,
  requireEntry,
  valuesOf,
  type FixtureEntry,
  type RecordedRun,
} from '../shared/fixture-support';

/** Wire JSON as the tests read it, field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

function parse(frame: SseFrame): Json | null {
  try {
    const value: unknown = JSON.parse(frame.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function choiceZero(chunk: Json): Json[] {
  return Array.isArray(chunk.choices) ? (chunk.choices as Json[]).filter((choice) => choice.index === 0 || choice.index === undefined) : [];
}

/**
 * The frames a typed callback should carry, by the rules of SPEC §10 restated independently:
 * choice 0's non-empty reasoning, content or tool-call arguments, a tool-call delta that starts a
 * new call while another is open (it completes that one), and choice 0's finish chunk while a
 * call is open. Everything else but `[DONE]` must surface raw.
 */
function expectedRawFrames(frames: readonly SseFrame[]): SseFrame[] {
  let openCall: number | null = null;
  return frames.filter((frame) => {
    if (frame.data === '[DONE]') return false;
    const chunk = parse(frame);
    if (chunk === null) return true;
    let carried = false;
    for (const choice of choiceZero(chunk)) {
      const delta: Json = choice.delta ?? {};
      for (const field of ['reasoning_content', 'reasoning', 'content']) {
        if (typeof delta[field] === 'string' && delta[field] !== '') carried = true;
      }
      for (const call of (delta.tool_calls ?? []) as Json[]) {
        if (openCall !== null && call.index !== openCall) carried = true;
        openCall = call.index;
        if (typeof call.function?.arguments === 'string' && call.function.arguments !== '') carried = true;
      }
      if (choice.finish_reason != null && openCall !== null) {
        carried = true;
        openCall = null;
      }
    }
    return !carried;
  });
}

function carriesContent(frame: SseFrame): boolean {
  const chunk = parse(frame);
  if (chunk === null) return false;
  return choiceZero(chunk).some((choice) => {
    const delta: Json = choice.delta ?? {};
    const text = ['reasoning_content', 'reasoning', 'content'].some((field) => typeof delta[field] === 'string' && delta[field] !== '');
    const args = ((delta.tool_calls ?? []) as Json[]).some((call) => typeof call.function?.arguments === 'string' && call.function.arguments !== '');
    return text || args;
  });
}

const entries = fixtureEntries('openai-chat');
const available = fixturesAvailable('OpenAIChatMapper fixtures');

(available ? describe : describe.skip)(`OpenAIChatMapper over the recorded streams${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  it('finds its recorded streams, each with its normalized expectations, in the manifest', () => {
    expect(entries).to.not.have.length(0);
    expect(entries.filter((entry) => entry.expected.normalized === undefined).map((entry) => entry.file)).to.deep.equal([]);
  });

  for (const entry of entries) {
    describe(entry.file, () => {
      let run: RecordedRun;
      let frames: SseFrame[];
      const expected: FixtureEntry['expected'] = entry.expected;

      before(async () => {
        const bytes = readFixture(entry.file);
        frames = referenceSseFrames(bytes);
        run = await recordRun([bytes], 'openai-chat');
      });

      it('completes with the expected text, reasoning, refusal and tool calls', () => {
        expect(run.outcome.status).to.equal('completed');
        const message = run.response.aiMessage;
        expect({
          text: message.text,
          thinking: message.thinking,
          signatures: reasoningSignatures(run.response),
          toolCalls: message.toolExecutionRequests,
          attributes: message.attributes,
        }).to.deep.equal({
          text: expected.text,
          thinking: expected.reasoning,
          signatures: expected.reasoningSignatures,
          toolCalls: expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
          attributes: expected.refusal ? { refusal: expected.refusal } : {},
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
          toolCalls: valuesOf<CompleteToolCall>(run.events, 'completeToolCall').map((c) => c.toolExecutionRequest),
        }).to.deep.equal({
          text: expected.text ?? '',
          thinking: expected.reasoning ?? '',
          toolCalls: expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
        });
      });

      it('reports the id and model', () => {
        expect([run.response.metadata.id, run.response.metadata.modelName]).to.deep.equal([expected.id, expected.model]);
      });

      it('reports the finish reasons and token usage of the manifest, and the usage object as sent', () => {
        expectManifestFinishAndUsage(run.response, entry);
      });

      it('surfaces exactly the frames no typed callback carried, server-side data included', () => {
        const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
        expect(raw).to.deep.equal(expectedRawFrames(frames));
        expect(raw.filter(carriesContent)).to.deep.equal([]);
        for (const marker of expected.serverToolEvents) {
          const key = marker.replace(/^chunk:/, '');
          expect(
            raw.some((frame) => parse(frame)?.[key] !== undefined),
            marker,
          ).to.equal(true);
        }
      });

      it('ends with exactly one terminal callback', () => {
        const terminals = run.events.filter(([name]) => name === 'completeResponse' || name === 'error');
        expect(terminals.map(([name]) => name)).to.deep.equal(['completeResponse']);
        expect(run.events.at(-1)?.[0]).to.equal('completeResponse');
      });

      it('fails when cut before the finish chunk, with one truncated error and a partial holding everything received', async () => {
        const bytes = readFixture(entry.file);
        const body = Buffer.from(bytes);
        const cut = body.lastIndexOf('data: ', body.indexOf('"finish_reason":"'));
        const cutRun = await recordRun([bytes.subarray(0, cut)], 'openai-chat');
        const errors = valuesOf<Error>(cutRun.events, 'error');
        expect(cutRun.outcome.status).to.equal('failed');
        expect(errors.map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
        expect(cutRun.events.some(([name]) => name === 'completeResponse')).to.equal(false);
        // The last call never completed; the partial keeps it from its argument deltas.
        expect(valuesOf<CompleteToolCall>(cutRun.events, 'completeToolCall')).to.have.length(Math.max(0, expected.toolCalls.length - 1));
        const calls = cutRun.response.aiMessage.parts.flatMap((part) => (part.type === 'tool_call' ? [{ id: part.toolCall.id, name: part.toolCall.name, arguments: part.toolCall.arguments }] : []));
        expect([cutRun.response.aiMessage.text, calls]).to.deep.equal([expected.text, expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }))]);
        // Only the completed calls are requests to execute.
        expect(cutRun.response.aiMessage.toolExecutionRequests).to.deep.equal(valuesOf<CompleteToolCall>(cutRun.events, 'completeToolCall').map((c) => c.toolExecutionRequest));
      });
    });
  }

  it('maps the other choices of an n=3 stream to nothing: their deltas surface raw', async () => {
    const entry = requireEntry(entries, 'multiple-choices-n3.sse');
    const run = await recordRun([readFixture(entry.file)], 'openai-chat');
    const rawChoices = valuesOf<SseFrame>(run.events, 'unmappedRawEvent').flatMap((frame) => ((parse(frame)?.choices ?? []) as Json[]).map((choice) => choice.index));
    expect(new Set(rawChoices)).to.deep.equal(new Set([0, 1, 2]));
    expect(run.response.aiMessage.text).to.equal('{"city":"San Francisco","temperature":65,"units":"f"}');
  });
});
