import { expect } from 'chai';
import type { MessagePart, UnknownPart } from '../../lib/parts/types';
import type { SseFrame } from '../../lib/wire/types';
import type { WireFormat } from '../../lib/providers/registry';
import { fixtureEntries, fixturesAvailable, readFixture, recordRun, referenceSseFrames, type RecordedRun, valuesOf } from '../providers/shared/fixture-support';

// The recorded streams: every block, item or part no callback models is in the final message as
// an unknown part, at its place, rebuilt from the frames; its frames still surface raw. The
// expectations are read from the frames here (eventsource-parser), not from partstream.

type Json = Record<string, unknown>;

const CALLBACK_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);
const CALLBACK_ITEMS = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call']);
const CALLBACK_PARTS = new Set(['text', 'thought', 'thoughtSignature', 'functionCall']);

/** What one unmodelled block is, as read from the frames: its kind, its JSON, the frame that starts it. */
interface Expected {
  readonly kind: string;
  readonly value: Json;
  readonly frame: SseFrame;
}

function parse(frame: SseFrame): Json | null {
  try {
    return JSON.parse(frame.data) as Json;
  } catch {
    return null;
  }
}

/** Anthropic: each unmodelled block, its input from input_json_delta, strings of other deltas appended. */
function anthropicBlocks(frames: readonly SseFrame[]): Expected[] {
  const open = new Map<number, { expected: Expected; input: string; strings: Map<string, string> }>();
  const result: Expected[] = [];
  for (const frame of frames) {
    const event = parse(frame);
    if (event === null) continue;
    const index = event.index as number;
    if (event.type === 'content_block_start') {
      const block = event.content_block as Json;
      if (!CALLBACK_BLOCKS.has(block.type as string)) open.set(index, { expected: { kind: block.type as string, value: { ...block }, frame }, input: '', strings: new Map() });
    } else if (event.type === 'content_block_delta' && open.has(index)) {
      const state = open.get(index)!;
      const delta = event.delta as Json;
      if (delta.type === 'input_json_delta') state.input += delta.partial_json as string;
      else for (const [key, value] of Object.entries(delta)) if (key !== 'type' && typeof value === 'string') state.strings.set(key, (state.strings.get(key) ?? '') + value);
    } else if (event.type === 'content_block_stop' && open.has(index)) {
      const { expected, input, strings } = open.get(index)!;
      open.delete(index);
      if (input.trim() !== '') expected.value.input = JSON.parse(input);
      for (const [key, value] of strings) expected.value[key] = (typeof expected.value[key] === 'string' ? expected.value[key] : '') + value;
      result.push(expected);
    }
  }
  return result;
}

/** OpenAI Responses: the item of each output_item.done whose type no callback models. */
function responsesItems(frames: readonly SseFrame[]): Expected[] {
  return frames.flatMap((frame) => {
    const event = parse(frame);
    const item = event?.type === 'response.output_item.done' ? (event.item as Json) : null;
    return item !== null && !CALLBACK_ITEMS.has(item.type as string) ? [{ kind: item.type as string, value: item, frame }] : [];
  });
}

/** Gemini: each part of candidate 0 that holds something other than text, a thought or a function call. */
function geminiParts(frames: readonly SseFrame[]): Expected[] {
  return frames.flatMap((frame) => {
    const candidates = (parse(frame)?.candidates ?? []) as Json[];
    const parts = ((candidates[0]?.content as Json | undefined)?.parts ?? []) as Json[];
    return parts.flatMap((part) => {
      const kind = Object.keys(part).find((key) => !CALLBACK_PARTS.has(key));
      return kind === undefined ? [] : [{ kind, value: part, frame }];
    });
  });
}

const READERS: Partial<Record<WireFormat, (frames: readonly SseFrame[]) => Expected[]>> = {
  anthropic: anthropicBlocks,
  'openai-responses': responsesItems,
  gemini: geminiParts,
};

function unknownParts(parts: readonly MessagePart[]): UnknownPart[] {
  return parts.filter((part): part is UnknownPart => part.type === 'unknown');
}

const available = fixturesAvailable('record fixtures');
const entries = (['anthropic', 'openai-responses', 'gemini'] as const).flatMap((format) => fixtureEntries(format)).filter((entry) => entry.expected.serverToolEvents.length > 0);

(available ? describe : describe.skip)('the recorded streams keep their unmodelled blocks in the final message', () => {
  for (const entry of entries) {
    describe(entry.file, () => {
      let run: RecordedRun;
      let expected: Expected[];

      before(async () => {
        const bytes = readFixture(entry.file);
        expected = READERS[entry.format]!(referenceSseFrames(bytes));
        run = await recordRun([bytes], entry.format);
      });

      it('holds one unknown part per unmodelled block, in stream order, whose rawJson is the block as sent', () => {
        expect(expected).to.not.have.length(0);
        const parts = unknownParts(run.response.aiMessage.parts);
        expect(parts.map((part) => [part.provider, part.kind, JSON.parse(part.rawJson)])).to.deep.equal(
          expected.map((block) => [entry.format === 'gemini' ? 'google' : entry.format === 'anthropic' ? 'anthropic' : 'openai', block.kind, block.value]),
        );
      });

      it('still surfaces the frames of those blocks raw', () => {
        const raw = valuesOf<SseFrame>(run.events, 'unmappedRawEvent');
        for (const block of expected)
          expect(
            raw.some((frame) => frame.data === block.frame.data),
            block.kind,
          ).to.equal(true);
      });
    });
  }

  it('anthropic/web-search-tool.sse: each cited text block carries its own citations', async function () {
    if (!fixturesAvailable('anthropic/web-search-tool.sse citations')) this.skip();
    const entry = fixtureEntries('anthropic').find((candidate) => candidate.file.endsWith('web-search-tool.sse'));
    expect(entry, 'the manifest lists anthropic/web-search-tool.sse').to.not.equal(undefined);
    const bytes = readFixture((entry as { file: string }).file);
    // From the frames: the citations of each text block, in order.
    const byBlock = new Map<number, unknown[]>();
    for (const frame of referenceSseFrames(bytes)) {
      const event = parse(frame);
      const delta = event?.delta as Json | undefined;
      if (event?.type === 'content_block_delta' && delta?.type === 'citations_delta') {
        const list = byBlock.get(event.index as number) ?? [];
        list.push(delta.citation);
        byBlock.set(event.index as number, list);
      }
    }
    const run = await recordRun([bytes], 'anthropic');
    const cited = run.response.aiMessage.parts.filter((part) => part.type === 'text' && part.payload?.kind === 'citations');
    expect(cited.map((part) => JSON.parse(part.payload!.data))).to.deep.equal([...byBlock.values()]);
  });
});
