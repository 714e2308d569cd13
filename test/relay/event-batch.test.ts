// The producer's batch writer (BatchWriter over EventBatch, the per-token path) against the plain
// path: every event encoded on its own by PartstreamEncoder (a delta's data by JSON.stringify).
// Random runs from the bench's seeded mulberry32; the writer appends into a real memoryStore.

import { expect } from 'chai';
import { JSON_ESCAPE_CASES } from './support/json-escape-cases';
import { mulberry32 } from '../../bench/transcript-content';
import { BatchWriter, type BatchLimits } from '../../lib/relay/batch-writer';
import { EventBatch } from '../../lib/relay/event-batch';
import { memoryStore } from '../../lib/relay/memory-store';
import { PartstreamEncoder, type RelayEventSink } from '../../lib/relay/partstream-encoder';
import type { RelayBatch } from '../../lib/relay/response-store';

/** Code units a text may hold, weighted towards the ones JSON escapes, multi-byte UTF-8 and surrogates (paired and lone). */
const UNITS = [0x41, 0x7a, 0x20, 0x7e, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x4e2d, 0x2028, 0xfeff, 0xffff, 0x22, 0x5c, 0x2f, 0x00, 0x0a, 0x1f, 0xd83e, 0xdd80, 0xd800, 0xdbff, 0xdc00, 0xdfff];
const TOO_LARGE = '{"responseId":"r","error":{"kind":"truncated","message":"too large","code":"relay_too_large"},"producerId":"p","by":"producer"}';

type Step =
  | { readonly kind: 'delta'; readonly index: number; readonly type: 'text' | 'reasoning'; readonly text: string }
  | { readonly kind: 'tool'; readonly index: number; readonly call: number; readonly id: string | null; readonly name: string | null; readonly args: string }
  | { readonly kind: 'event'; readonly type: string; readonly data: string };

function randomText(next: () => number, maxLength: number): string {
  const length = Math.floor(next() * (maxLength + 1));
  let text = '';
  for (let k = 0; k < length; k++) text += String.fromCharCode(UNITS[Math.floor(next() * UNITS.length)] as number);
  return text;
}

/**
 * A random run: deltas in runs of one index and type (some at indexes beyond 2³¹), tool-call
 * deltas in runs of one call (ids and names with escapes, multi-byte characters, lone surrogates,
 * or null; some long), other events between them.
 */
function randomSteps(next: () => number, count: number): Step[] {
  const steps: Step[] = [];
  let index = 0;
  let type: 'text' | 'reasoning' = 'text';
  let call = { index: 0, call: 0, id: null as string | null, name: null as string | null };
  for (let n = 0; n < count; n++) {
    const roll = next();
    if (roll < 0.05) {
      index = next() < 0.2 ? 2 ** 31 + Math.floor(next() * 2 ** 40) : Math.floor(next() * 1000);
      type = next() < 0.5 ? 'text' : 'reasoning';
    }
    if (roll > 0.05 && roll < 0.06) {
      const field = (): string | null => (next() < 0.2 ? null : randomText(next, next() < 0.1 ? 200 : 12));
      // One field changes at a time, or all of them.
      const change = Math.floor(next() * 5);
      call = {
        index: change === 0 || change === 4 ? Math.floor(next() * 1000) : call.index,
        call: change === 1 || change === 4 ? call.call + 1 : call.call,
        id: change === 2 || change === 4 ? field() : call.id,
        name: change === 3 || change === 4 ? field() : call.name,
      };
    }
    if (roll > 0.96) steps.push({ kind: 'event', type: 'block', data: JSON.stringify({ index, text: randomText(next, 8) }) });
    else if (roll > 0.88) steps.push({ kind: 'tool', ...call, args: randomText(next, 8) });
    else steps.push({ kind: 'delta', index, type, text: randomText(next, next() < 0.05 ? 300 : 6) });
  }
  return steps;
}

/** A delta's opening as the writer passes it: one string object per index and type. */
const openings = new Map<string, string>();
function deltaOpening(index: number, type: 'text' | 'reasoning'): string {
  const key = `${index} ${type}`;
  let opening = openings.get(key);
  if (opening === undefined) openings.set(key, (opening = `\nevent: delta\ndata: {"index":${index},"type":"${type}","text":"`));
  return opening;
}

function play(sink: RelayEventSink, steps: readonly Step[]): void {
  sink.emit('start', '{"v":1,"responseId":"r","producerId":"p","createdAt":"2026-01-01T00:00:00.000Z"}');
  for (const step of steps) {
    if (step.kind === 'delta') sink.delta(step.index, step.type, step.text);
    else if (step.kind === 'tool') sink.toolDelta(step.index, step.call, step.id, step.name, step.args);
    else sink.emit(step.type, step.data);
  }
  sink.emit('complete', '{"responseId":"r","metadata":{},"attributes":{}}', true);
}

/** What the plain path makes of `steps` under `limits`: each batch's range and text, cut by the writer's rules from each event's text. */
function plainBatches(steps: readonly Step[], limits: BatchLimits): { first: number; last: number; text: string }[] {
  const events: string[] = [];
  const encoder = new PartstreamEncoder({ event: (_sequence, text) => void events.push(text) });
  play(encoder, steps);
  const batches: { first: number; last: number; text: string }[] = [];
  let filling: string[] = [];
  let first = 1;
  let bytes = 0;
  let total = 0;
  const cut = (): void => {
    batches.push({ first, last: first + filling.length - 1, text: filling.join('') });
    first += filling.length;
    filling = [];
    bytes = 0;
  };
  for (let k = 0; k < events.length; k++) {
    let text = events[k] as string;
    let terminal = k === events.length - 1;
    if (total + text.length > limits.maxResponseBytes) {
      text = `id: ${k + 1}\nevent: error\ndata: ${TOO_LARGE}\n\n`;
      terminal = true;
    }
    total += text.length;
    if (filling.length > 0 && bytes + text.length > limits.flushBytes) cut();
    filling.push(text);
    bytes += text.length;
    if (terminal) {
      cut();
      break;
    }
    if (filling.length >= limits.flushCount || bytes >= limits.flushBytes) cut();
  }
  return batches;
}

/** What the producer's writer appends of `steps` under `limits`, read back from a memoryStore. */
async function writtenBatches(steps: readonly Step[], limits: BatchLimits): Promise<RelayBatch[]> {
  const store = memoryStore();
  await store.open('r', { producerId: store.producerId, createdAt: '2026-01-01T00:00:00.000Z' }, { ttlMs: 60_000 });
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const writer = new BatchWriter(store, 'r', limits, {
    beforeFlush: () => undefined,
    refused: (error) => expect.fail(`refused: ${error.message}`),
    ended: () => ended(),
    failed: (error) => expect.fail(`failed: ${String(error)}`),
    tooLargeData: () => TOO_LARGE,
  });
  play(writer, steps);
  await done;
  const batches: RelayBatch[] = [];
  for await (const batch of store.read('r', 0, new AbortController().signal)) batches.push(batch);
  return batches;
}

describe('the producer batch writer writes what encoding each event on its own writes', () => {
  const utf8 = new TextEncoder();
  for (const seed of [0x5eed, 0xba7c4, 0x1e77e2]) {
    it(`60 random runs of deltas and events, random flushCount / flushBytes / maxResponseBytes: same batches, same text, same UTF-8 (seed ${seed.toString(16)})`, async () => {
      const next = mulberry32(seed);
      for (let run = 0; run < 60; run++) {
        const steps = randomSteps(next, 1 + Math.floor(next() * 400));
        const limits: BatchLimits = {
          flushMs: 60_000,
          flushCount: 1 + Math.floor(next() * 80),
          flushBytes: 1 + Math.floor(next() * 4000),
          maxResponseBytes: next() < 0.3 ? 100 + Math.floor(next() * 20_000) : 64 * 2 ** 20,
          retryForMs: 1000,
        };
        const expected = plainBatches(steps, limits);
        const written = await writtenBatches(steps, limits);
        expect(
          written.map((b) => [b.first, b.last]),
          `run ${run}: batch ranges`,
        ).to.deep.equal(expected.map((b) => [b.first, b.last]));
        for (let k = 0; k < written.length; k++) {
          const batch = written[k] as RelayBatch;
          const plain = (expected[k] as { text: string }).text;
          expect(batch.bytes, `run ${run}, batch ${k}: carries its UTF-8`).to.be.instanceOf(Uint8Array);
          expect(Buffer.from(batch.bytes as Uint8Array).equals(utf8.encode(plain)), `run ${run}, batch ${k}: UTF-8`).to.equal(true);
          expect(batch.text, `run ${run}, batch ${k}: text`).to.equal(plain);
        }
      }
    });
  }

  it('counts the id up across every change of its digit count, from any first sequence, in and across batches', () => {
    const starts = [1, 5, 95, 995, 9_995, 99_995, 999_995, 9_999_995, 2 ** 31 - 6, 99_999_999_999_995, Number.MAX_SAFE_INTEGER - 30];
    // One batch for all: its ids jump between the runs.
    const batch = new EventBatch();
    for (const start of starts) {
      let expected = '';
      let written = '';
      for (let sequence = start, k = 0; k < 24; k++, sequence++) {
        const index = Math.floor(k / 5);
        const type = k % 10 < 5 ? 'text' : 'reasoning';
        if (k % 6 === 4) {
          batch.event(sequence, 'block', `{"index":${index}}`);
          expected += `id: ${sequence}\nevent: block\ndata: {"index":${index}}\n\n`;
        } else {
          const text = k % 4 === 1 ? `q"${k}` : `t${k}`;
          batch.framed(sequence, deltaOpening(index, type), text);
          expected += `id: ${sequence}\nevent: delta\ndata: ${JSON.stringify({ index, type, text })}\n\n`;
        }
        // Cuts of every kind: after a few events, and all but the event just added.
        if (k % 7 === 6) written += Buffer.from(batch.cut()).toString('utf8');
        else if (k % 7 === 3) written += Buffer.from(batch.cut(true)).toString('utf8');
      }
      written += Buffer.from(batch.cut()).toString('utf8');
      expect(written, `from ${start}`).to.equal(expected);
    }
  });

  it('escapes as JSON.stringify does: every code unit below 0x80, and lone surrogates spelling every hex digit', () => {
    const texts = Array.from({ length: 0x80 }, (_, code) => `a${String.fromCharCode(code)}b`);
    for (const code of [0xd800, 0xd9ab, 0xdacd, 0xdbef, 0xdc01, 0xdd23, 0xde45, 0xdf67, 0xdfff]) texts.push(String.fromCharCode(code), `x${String.fromCharCode(code)}\u00e9`);
    // A pair stays a pair; a pair split by an escape is two lone halves.
    texts.push('\ud83e\udd80', '\ud83e"\udd80', '\udd80\ud83e');
    const batch = new EventBatch();
    let expected = '';
    texts.forEach((text, k) => {
      batch.framed(k + 1, deltaOpening(0, 'text'), text);
      expected += `id: ${k + 1}\nevent: delta\ndata: ${JSON.stringify({ index: 0, type: 'text', text })}\n\n`;
    });
    const bytes = batch.cut();
    expect(Buffer.from(bytes).toString('utf8')).to.equal(expected);
    expect(Buffer.from(bytes).equals(new TextEncoder().encode(expected))).to.equal(true);
  });

  it('writes a lone surrogate and every JSON escape as JSON.stringify does (named texts, one batch each)', async () => {
    // Every named case but the empty text (a delta carries some).
    const texts = JSON_ESCAPE_CASES.filter((text) => text !== '');
    const steps: Step[] = texts.map((text, index) => ({ kind: 'delta', index, type: 'text', text }));
    const limits: BatchLimits = { flushMs: 60_000, flushCount: 1, flushBytes: 32_768, maxResponseBytes: 64 * 2 ** 20, retryForMs: 1000 };
    const written = await writtenBatches(steps, limits);
    expect(written.map((batch) => batch.text)).to.deep.equal(plainBatches(steps, limits).map((batch) => batch.text));
    expect(written[1]?.text).to.equal('id: 2\nevent: delta\ndata: {"index":0,"type":"text","text":"plain text"}\n\n');
    expect(written[12]?.text).to.equal('id: 13\nevent: delta\ndata: {"index":11,"type":"text","text":"lone \\ud800"}\n\n');
  });

  it('writes a lone surrogate in the data of an event as U+FFFD, as TextEncoder does (data no encoder of its own makes)', async () => {
    const steps: Step[] = [
      { kind: 'event', type: 'raw', data: '{"raw":"\ud800 \udfff \ud83e\udd80 \udd80\ud83e \udc00\udc01"}' },
      { kind: 'delta', index: 0, type: 'text', text: 'x' },
    ];
    const limits: BatchLimits = { flushMs: 60_000, flushCount: 64, flushBytes: 32_768, maxResponseBytes: 64 * 2 ** 20, retryForMs: 1000 };
    const [batch] = await writtenBatches(steps, limits);
    const expected = new TextEncoder().encode(plainBatches(steps, limits)[0]?.text);
    expect(Buffer.from(batch?.bytes as Uint8Array).equals(expected)).to.equal(true);
    expect(batch?.text).to.contain('"raw":"\ufffd \ufffd 🦀 \ufffd\ufffd \ufffd\ufffd"');
  });
});
