import { expect } from 'chai';
import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking, PartialToolCall } from '../../../lib/handler/types';
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

const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * The frames a typed callback should carry, by the rules of issue 4 restated independently:
 * non-empty text / thinking / signature deltas, the content a text or thinking block starts
 * with, a redacted_thinking block, non-empty input deltas and the stop of client `tool_use`
 * blocks, and `message_stop` while a tool_use block is still open. Everything else surfaces raw.
 */
function expectedRawFrames(frames: readonly SseFrame[]): SseFrame[] {
  const blocks = new Map<number, string>();
  const openTools = new Set<number>();
  let stopReason: unknown = null;
  return frames.filter((frame) => {
    const event = parse(frame);
    if (event === null) return true;
    switch (event.type) {
      case 'content_block_start': {
        const block: Json = event.content_block;
        blocks.set(event.index, block.type);
        if (block.type === 'tool_use') openTools.add(event.index);
        if (block.type === 'text') return !nonEmpty(block.text);
        if (block.type === 'thinking') return !(nonEmpty(block.thinking) || nonEmpty(block.signature));
        return block.type !== 'redacted_thinking';
      }
      case 'content_block_delta': {
        const delta: Json = event.delta;
        if (delta.type === 'text_delta') return !nonEmpty(delta.text);
        if (delta.type === 'thinking_delta') return !nonEmpty(delta.thinking);
        if (delta.type === 'signature_delta') return !nonEmpty(delta.signature);
        if (delta.type === 'input_json_delta') return !(blocks.get(event.index) === 'tool_use' && nonEmpty(delta.partial_json));
        return true;
      }
      case 'content_block_stop':
        return !openTools.delete(event.index);
      case 'message_delta':
        stopReason = event.delta?.stop_reason ?? stopReason;
        return true;
      case 'message_stop':
        // Tool blocks still open complete here, unless the message stopped for max_tokens (cut off).
        return openTools.size === 0 || stopReason === 'max_tokens';
      case 'error':
        return false;
      default:
        return true;
    }
  });
}

/** True for a text, thinking or signature delta with content, or an input delta of a client tool block. */
function carriesContent(frame: SseFrame, toolBlocks: ReadonlySet<number>): boolean {
  const event = parse(frame);
  if (event?.type !== 'content_block_delta') return false;
  const delta: Json = event.delta;
  return (
    (delta.type === 'text_delta' && nonEmpty(delta.text)) ||
    (delta.type === 'thinking_delta' && nonEmpty(delta.thinking)) ||
    (delta.type === 'signature_delta' && nonEmpty(delta.signature)) ||
    (delta.type === 'input_json_delta' && toolBlocks.has(event.index) && nonEmpty(delta.partial_json))
  );
}

function toolBlockIndexes(frames: readonly SseFrame[]): Set<number> {
  const indexes = new Set<number>();
  for (const frame of frames) {
    const event = parse(frame);
    if (event?.type === 'content_block_start' && event.content_block?.type === 'tool_use') indexes.add(event.index);
  }
  return indexes;
}

/** The tool-call parts of a message as {id, name, arguments}: complete calls and cut ones alike. */
function callParts(message: ChatResponse['aiMessage']) {
  return message.parts.flatMap((part) => (part.type === 'tool_call' ? [{ id: part.toolCall.id, name: part.toolCall.name, arguments: part.toolCall.arguments }] : []));
}

function requests(expected: FixtureEntry['expected']) {
  return expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
}

/** The calls reported complete: all but a block never stopped in a message cut by max_tokens. */
function completedRequests(expected: FixtureEntry['expected']) {
  const cut = expected.finishReason === 'max_tokens';
  return expected.toolCalls.filter((call: { blockNotStopped?: boolean }) => !(cut && call.blockNotStopped === true)).map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
}

const entries = fixtureEntries('anthropic');
const available = fixturesAvailable('AnthropicMapper fixtures');

(available ? describe : describe.skip)(`AnthropicMapper over the recorded streams${available ? '' : ' (skipped: ../shared/fixtures is absent)'}`, () => {
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
        run = await recordRun([bytes], 'anthropic');
      });

      it('completes with the expected text, reasoning, signatures and tool calls', () => {
        expect(run.outcome.status).to.equal('completed');
        const message = run.response.aiMessage;
        expect({
          text: message.text,
          thinking: message.thinking,
          signatures: reasoningSignatures(run.response),
          toolCalls: callParts(message),
          requests: message.toolExecutionRequests,
        }).to.deep.equal({
          text: expected.text,
          thinking: expected.reasoning,
          signatures: expected.reasoningSignatures,
          toolCalls: requests(expected),
          // A call cut by max_tokens stays a part, and is no request to execute.
          requests: completedRequests(expected),
        });
      });

      it('delivers the same content through the typed callbacks', () => {
        const thinking = valuesOf<PartialThinking>(run.events, 'partialThinking');
        expect({
          text: valuesOf<PartialResponse>(run.events, 'partialResponse')
            .map((p) => p.text)
            .join(''),
          thinking: thinking.map((p) => p.text).join(''),
          signatures: thinking.flatMap((p) => (p.payload?.kind === 'signature' ? [p.payload.data] : [])),
          toolCalls: valuesOf<CompleteToolCall>(run.events, 'completeToolCall').map((c) => c.toolExecutionRequest),
        }).to.deep.equal({
          text: expected.text ?? '',
          thinking: expected.reasoning ?? '',
          signatures: expected.reasoningSignatures,
          toolCalls: completedRequests(expected),
        });
      });

      it('reports the id and model', () => {
        expect([run.response.metadata.id, run.response.metadata.modelName]).to.deep.equal([expected.id, expected.model]);
      });

      it('reports the finish reasons and token usage of the manifest, and the merged usage object as sent', () => {
        expectManifestFinishAndUsage(run.response, entry);
      });

      it('keeps the stop details of a refusal in providerMetadata, as sent', () => {
        const metadata = run.response.metadata.providerMetadata;
        if (expected.stopDetails === undefined) expect(metadata?.stop_details ?? null).to.equal(null);
        else expect(metadata?.stop_details).to.deep.equal(expected.stopDetails);
      });

      it('surfaces exactly the events no typed callback carried, server-side blocks and deltas included', () => {
        const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
        expect(raw).to.deep.equal(expectedRawFrames(frames));
        const toolBlocks = toolBlockIndexes(frames);
        expect(raw.filter((frame) => carriesContent(frame, toolBlocks))).to.deep.equal([]);
        for (const marker of expected.serverToolEvents) {
          const [kind, type] = marker.split(':');
          const found = raw.some((frame) => {
            const event = parse(frame);
            return kind === 'content_block' ? event?.content_block?.type === type : event?.delta?.type === type;
          });
          expect(found, marker).to.equal(true);
        }
      });

      it('ends with exactly one terminal callback', () => {
        const terminals = run.events.filter(([name]) => name === 'completeResponse' || name === 'error');
        expect(terminals.map(([name]) => name)).to.deep.equal(['completeResponse']);
        expect(run.events.at(-1)?.[0]).to.equal('completeResponse');
      });

      it('fails when cut before message_stop, with one truncated error and a partial holding the text received', async () => {
        const bytes = readFixture(entry.file);
        const cut = Buffer.from(bytes).lastIndexOf('event: message_stop');
        const cutRun = await recordRun([bytes.subarray(0, cut)], 'anthropic');
        const errors = valuesOf<Error>(cutRun.events, 'error');
        expect(cutRun.outcome.status).to.equal('failed');
        expect(errors.map((error) => StreamError.isInstance(error) && error.kind)).to.deep.equal(['truncated']);
        expect(cutRun.events.some(([name]) => name === 'completeResponse')).to.equal(false);
        expect(cutRun.response.aiMessage.text).to.equal(expected.text);
      });
    });
  }

  it('leaves a tool call whose block never stopped incomplete when the stream breaks off, its deltas kept in the partial', async () => {
    const entry = requireEntry(entries, 'sdk-incomplete-tool-json.sse');
    const bytes = readFixture(entry.file);
    const [call] = entry.expected.toolCalls;
    expect(call.blockNotStopped).to.equal(true);
    const run = await recordRun([bytes.subarray(0, Buffer.from(bytes).indexOf('event: message_delta'))], 'anthropic');
    expect(run.outcome.status).to.equal('failed');
    expect(valuesOf<CompleteToolCall>(run.events, 'completeToolCall')).to.deep.equal([]);
    expect(
      valuesOf<PartialToolCall>(run.events, 'partialToolCall')
        .map((p) => p.partialArguments)
        .join(''),
    ).to.equal(call.arguments);
    expect(callParts(run.response.aiMessage)).to.deep.equal([{ id: call.id, name: call.name, arguments: call.arguments }]);
    expect(run.response.aiMessage.toolExecutionRequests).to.deep.equal([]);
  });
});
