import { expect } from 'chai';
import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking } from '../../../lib/handler/types';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { expectManifestFinishAndUsage, fixtureEntries, fixturesAvailable, readFixture, recordRun, referenceSseFrames, valuesOf, type FixtureEntry, type RecordedRun } from '../shared/fixture-support';

/** The manifest fields these tests read beyond the shared ones. */
type ResponsesExpected = FixtureEntry['expected'] & {
  readonly error: string | null;
  readonly reasoningSignaturesAtItemDone?: readonly string[];
};

/** One wire event, read field by field. */
interface WireEvent {
  readonly type?: string;
  readonly item_id?: string;
  readonly content_index?: number;
  readonly summary_index?: number;
  readonly delta?: string;
  readonly text?: string;
  readonly item?: { readonly id?: string; readonly type?: string; readonly encrypted_content?: string | null };
}

function parse(frame: SseFrame): WireEvent | null {
  try {
    const value: unknown = JSON.parse(frame.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireEvent) : null;
  } catch {
    return null;
  }
}

const TEXT_DELTAS: Record<string, string> = {
  'response.output_text.delta': 'response.output_text.done',
  'response.reasoning_summary_text.delta': 'response.reasoning_summary_text.done',
  'response.reasoning_text.delta': 'response.reasoning_text.done',
};
const TEXT_DONES = new Set(Object.values(TEXT_DELTAS));
const TERMINALS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

function runKey(event: WireEvent): string {
  return `${event.type?.replace(/\.(delta|done)$/, '')}|${event.item_id}|${event.content_index ?? event.summary_index}`;
}

/**
 * The frames no typed callback should carry, by the rules of issue 5 restated independently:
 * non-empty text and reasoning deltas, a `*.done` whose text goes beyond its deltas, argument and
 * custom-input deltas and `.done`s, a client call's `output_item.done` unless its arguments were
 * already done, a reasoning item's `output_item.done` with encrypted content, and the terminal
 * events are carried; nothing after the first terminal event is read; everything else is raw.
 */
function expectedRawFrames(frames: readonly SseFrame[]): SseFrame[] {
  const runs = new Map<string, string>();
  const doneCalls = new Set<string>();
  const raw: SseFrame[] = [];
  for (const frame of frames) {
    const event = parse(frame);
    const type = event?.type ?? '';
    let carried = false;
    if (event === null) carried = false;
    else if (type in TEXT_DELTAS) {
      carried = (event.delta ?? '') !== '';
      runs.set(runKey(event), (runs.get(runKey(event)) ?? '') + (event.delta ?? ''));
    } else if (TEXT_DONES.has(type)) {
      const streamed = runs.get(runKey(event)) ?? '';
      carried = (event.text ?? '').startsWith(streamed) && (event.text ?? '').length > streamed.length;
    } else if (type === 'response.function_call_arguments.delta' || type === 'response.custom_tool_call_input.delta') {
      carried = (event.delta ?? '') !== '';
    } else if (type === 'response.function_call_arguments.done' || type === 'response.custom_tool_call_input.done') {
      carried = true;
      doneCalls.add(event.item_id ?? '');
    } else if (type === 'response.output_item.done') {
      const item = event.item ?? {};
      if (item.type === 'function_call' || item.type === 'custom_tool_call') carried = !doneCalls.has(item.id ?? '');
      else carried = item.type === 'reasoning' && typeof item.encrypted_content === 'string' && item.encrypted_content !== '';
    } else {
      carried = TERMINALS.has(type);
    }
    if (!carried) raw.push(frame);
    if (TERMINALS.has(type)) break;
  }
  return raw;
}

/** The encrypted reasoning on the final message's parts, in order. */
function encryptedReasoning(response: ChatResponse): string[] {
  return response.aiMessage.parts.flatMap((part) => (part.payload?.kind === 'encrypted_content' ? [part.payload.data] : []));
}

/**
 * The encrypted reasoning expected on the message. partstream takes it from the reasoning item at
 * `response.output_item.done` (it is needed before the response ends, and the item is final
 * there); the server re-encrypts per emission, so where `response.completed` repeats it with
 * other bytes the manifest lists the item's value in `reasoningSignaturesAtItemDone`. Both
 * decrypt to the same reasoning.
 */
function expectedSignatures(expected: ResponsesExpected): readonly string[] {
  return expected.reasoningSignaturesAtItemDone ?? expected.reasoningSignatures;
}

function requests(expected: ResponsesExpected) {
  return expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
}

function terminals(run: RecordedRun): string[] {
  return run.events.filter(([name]) => name === 'completeResponse' || name === 'error').map(([name]) => name);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

const entries = fixtureEntries('openai-responses');
const available = fixturesAvailable('OpenAIResponsesMapper fixtures');

(available ? describe : describe.skip)(`OpenAIResponsesMapper over the recorded streams${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
  it('finds its recorded streams, each with its normalized expectations, in the manifest', () => {
    expect(entries).to.not.have.length(0);
    expect(entries.filter((entry) => entry.expected.normalized === undefined).map((entry) => entry.file)).to.deep.equal([]);
  });

  for (const entry of entries) {
    const expected = entry.expected as ResponsesExpected;
    describe(entry.file, () => {
      let run: RecordedRun;
      let frames: SseFrame[];

      before(async () => {
        const bytes = readFixture(entry.file);
        frames = referenceSseFrames(bytes);
        run = await recordRun([bytes], 'openai-responses');
      });

      it('reports the finish reasons and token usage of the manifest, and the usage object as sent', () => {
        expectManifestFinishAndUsage(run.response, entry);
      });

      if (expected.error !== null) {
        it('fails with exactly one provider error carrying the code and message, and no other terminal callback', () => {
          expect(run.outcome.status).to.equal('failed');
          expect(terminals(run)).to.deep.equal(['error']);
          const [error] = valuesOf<Error>(run.events, 'error');
          expect(StreamError.isInstance(error) && [error.kind, error.code, error.message]).to.deep.equal(['provider', 'insufficient_quota', expected.error]);
          expect(run.events.at(-1)?.[0]).to.equal('error');
        });
      } else {
        it('completes with the expected text, reasoning, encrypted reasoning and tool calls', () => {
          expect(run.outcome.status).to.equal('completed');
          const message = run.response.aiMessage;
          expect({ text: message.text, thinking: message.thinking, signatures: encryptedReasoning(run.response), toolCalls: message.toolExecutionRequests }).to.deep.equal({
            text: expected.text,
            thinking: expected.reasoning,
            signatures: expectedSignatures(expected),
            toolCalls: requests(expected),
          });
        });

        it('delivers the same content through the typed callbacks, each tool call completed once', () => {
          const thinking = valuesOf<PartialThinking>(run.events, 'partialThinking');
          expect({
            text: valuesOf<PartialResponse>(run.events, 'partialResponse')
              .map((p) => p.text)
              .join(''),
            thinking: thinking.map((p) => p.text).join(''),
            signatures: thinking.flatMap((p) => (p.payload === undefined ? [] : [p.payload.data])),
            toolCalls: valuesOf<CompleteToolCall>(run.events, 'completeToolCall').map((c) => [c.index, c.toolExecutionRequest]),
          }).to.deep.equal({
            text: expected.text ?? '',
            thinking: expected.reasoning ?? '',
            signatures: expectedSignatures(expected),
            toolCalls: requests(expected).map((request, index) => [index, request]),
          });
        });

        it('reports the id and model', () => {
          expect([run.response.metadata.id, run.response.metadata.modelName]).to.deep.equal([expected.id, expected.model]);
        });

        it('ends with exactly one terminal callback, the complete response', () => {
          expect(terminals(run)).to.deep.equal(['completeResponse']);
          expect(run.events.at(-1)?.[0]).to.equal('completeResponse');
        });

        it('fails with one truncated error when cut before response.completed, keeping what arrived', async () => {
          const bytes = readFixture(entry.file);
          const cut = await recordRun([bytes.subarray(0, Buffer.from(bytes).lastIndexOf('event: response.completed'))], 'openai-responses');
          expect(cut.outcome.status).to.equal('failed');
          expect(valuesOf<Error>(cut.events, 'error').map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
          expect(terminals(cut)).to.deep.equal(['error']);
          expect(cut.response.aiMessage.text).to.equal(expected.text);
        });
      }

      it('surfaces exactly the events no typed callback carried, server-side items and annotations included', () => {
        const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
        expect(raw).to.deep.equal(expectedRawFrames(frames));
        for (const marker of expected.serverToolEvents) {
          const [kind, type] = marker.includes(':') ? marker.split(':') : ['event', marker];
          const found = raw.some((frame) => {
            const event = parse(frame) as (WireEvent & { annotation?: { type?: string } }) | null;
            if (kind === 'item') return event?.item?.type === type;
            if (kind === 'annotation') return event?.annotation?.type === type;
            return event?.type === type;
          });
          expect(found, marker).to.equal(true);
        }
      });
    });
  }

  it('surfaces each web_search_call event of the web-search stream raw exactly once, and none of the mapped events', async () => {
    const bytes = readFixture('openai-responses/web-search-tool.sse');
    const run = await recordRun([bytes], 'openai-responses');
    const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
    const searchEvents = referenceSseFrames(bytes).filter((frame) => frame.event?.startsWith('response.web_search_call.'));
    expect(searchEvents).to.have.length(18);
    expect(raw.filter((frame) => frame.event?.startsWith('response.web_search_call.'))).to.deep.equal(searchEvents);
    const mappedTypes = ['response.output_text.delta', 'response.completed', 'response.function_call_arguments.delta'];
    expect(raw.filter((frame) => mappedTypes.includes(frame.event ?? ''))).to.deep.equal([]);
  });

  it('reads only the first response of a body holding several back to back, with one terminal callback', async () => {
    const files = [1, 2, 3, 4].map((n) => readFixture(`openai-responses/reasoning-encrypted-${n}.sse`));
    const first = await recordRun([files[0]], 'openai-responses');
    const all = await recordRun([concat(...files)], 'openai-responses');
    expect(terminals(all)).to.deep.equal(['completeResponse']);
    expect(all.events).to.deep.equal(first.events);
  });

  it('delivers the text the recorded deltas left out from output_text.done (phase-two-messages)', async () => {
    const run = await recordRun([readFixture('openai-responses/phase-two-messages.sse')], 'openai-responses');
    const texts = valuesOf<PartialResponse>(run.events, 'partialResponse').map((p) => p.text);
    expect(texts.slice(0, 3)).to.deep.equal([
      'Got',
      ' it',
      ' \u2014 I\u2019ll quickly check reliable, up-to-date sources for AI headlines from **today (February 25, 2026)** and then summarize the key items with links.',
    ]);
  });
});
