import fc from 'fast-check';
import type { AggregationChunk } from '../../lib/core/message-aggregator';
import { tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { StreamingPartIndexer } from '../../lib/parts/streaming-part-indexer';
import type { MessagePart, OpaquePayload } from '../../lib/parts/types';

/** One part of a generated message, with how it is streamed. */
type Item =
  | { readonly kind: 'reasoning' | 'text'; readonly text: string; readonly payload: OpaquePayload | null }
  | { readonly kind: 'tool_call'; readonly id: string; readonly name: string; readonly args: string; readonly streamed: boolean };

/** A generated message and the chunks a stamped stream of it was cut into. */
export interface StreamedMessage {
  readonly parts: MessagePart[];
  readonly chunks: AggregationChunk[];
}

/** One streamed operation before stamping. */
type Step = { readonly op: 'stamp' | 'delta' | 'placeholder'; readonly part: MessagePart };

const payloadArb = fc.option(fc.record({ provider: fc.constantFrom('anthropic', 'gemini'), kind: fc.constant('signature'), data: fc.string({ minLength: 1 }) }), {
  nil: null,
  freq: 3,
});

const itemArb = (callId: string): fc.Arbitrary<Item> =>
  fc.oneof(
    fc.record({ kind: fc.constant('reasoning' as const), text: fc.string({ minLength: 1 }), payload: payloadArb }),
    fc.record({ kind: fc.constant('text' as const), text: fc.string({ minLength: 1 }), payload: payloadArb }),
    fc.record({
      kind: fc.constant('tool_call' as const),
      id: fc.constant(callId),
      name: fc.constantFrom('weather', 'search'),
      args: fc.json({ maxDepth: 1 }),
      streamed: fc.boolean(),
    }),
  );

/** Messages of reasoning, text and tool-call parts in which no two neighbours would merge. */
const itemsArb = (prefix: string): fc.Arbitrary<Item[]> =>
  fc
    .array(fc.nat(), { minLength: 1, maxLength: 6 })
    .chain((seeds) => fc.tuple(...seeds.map((_, i) => itemArb(`${prefix}call_${i}`))))
    .filter((items) => items.every((item, i) => i === 0 || item.kind === 'tool_call' || item.kind !== items[i - 1].kind));

function expectedPart(item: Item): MessagePart {
  if (item.kind === 'tool_call') return toolCallPart({ id: item.id, type: 'function', name: item.name, arguments: item.args });
  return item.kind === 'text' ? textPart(item.text, { payload: item.payload }) : reasoningPart(item.text, { payload: item.payload });
}

/** Cuts `text` into 1–4 non-empty pieces at generated points. */
function split(gen: fc.GeneratorValue, text: string): string[] {
  if (text.length < 2) return [text];
  const cuts = [...new Set(gen(fc.array, fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 3 }))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  return pieces;
}

function steps(gen: fc.GeneratorValue, item: Item): Step[] {
  if (item.kind === 'tool_call') {
    const deltas: Step[] = item.streamed ? split(gen, item.args).map((piece) => ({ op: 'delta', part: toolCallPart({ id: item.id, name: item.name, arguments: piece }) })) : [];
    return [...deltas, { op: 'stamp', part: expectedPart(item) }];
  }
  const make = item.kind === 'text' ? (text: string, payload: OpaquePayload | null) => textPart(text, { payload }) : (text: string, payload: OpaquePayload | null) => reasoningPart(text, { payload });
  const pieces = split(gen, item.text);
  const result: Step[] = pieces.map((piece) => ({ op: 'stamp', part: make(piece, null) }));
  if (item.payload !== null) {
    // The payload rides on the last delta, or on a delta of its own with empty text (a signature event).
    if (gen(fc.boolean)) result.push({ op: 'stamp', part: make('', item.payload) });
    else result[result.length - 1] = { op: 'stamp', part: make(pieces[pieces.length - 1], item.payload) };
  }
  return result;
}

/** Stamps the steps with one indexer, sprinkles placeholders and usage-only chunks, cuts into chunks. */
function stream(gen: fc.GeneratorValue, items: readonly Item[], id: string | undefined): AggregationChunk[] {
  const all: Step[] = [];
  for (const item of items) {
    for (const step of steps(gen, item)) {
      if (gen(fc.integer, { min: 0, max: 5 }) === 0) all.push({ op: 'placeholder', part: textPart('') });
      all.push(step);
    }
  }
  if (gen(fc.boolean)) all.push({ op: 'placeholder', part: textPart('') });
  const indexer = new StreamingPartIndexer();
  const stamped = all.map(({ op, part }) => (op === 'delta' ? indexer.stampToolCallDelta(part as never) : indexer.stamp(part)));
  const chunks: AggregationChunk[] = [];
  let at = 0;
  while (at < stamped.length) {
    if (gen(fc.integer, { min: 0, max: 4 }) === 0) {
      chunks.push({ id, parts: [], usage: tokenUsage(3, at + 1, null) });
    }
    const size = gen(fc.integer, { min: 1, max: 3 });
    chunks.push({ id, parts: stamped.slice(at, at + size) });
    at += size;
  }
  return chunks;
}

/** A message (see `itemsArb`) streamed through a `StreamingPartIndexer` into chunks carrying `id`. */
export function streamedMessageArb(id: string | undefined, prefix = ''): fc.Arbitrary<StreamedMessage> {
  return fc.tuple(itemsArb(prefix), fc.gen()).map(([items, gen]) => ({ parts: items.map(expectedPart), chunks: stream(gen, items, id) }));
}
