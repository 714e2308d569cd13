import { expect } from 'chai';
import fc from 'fast-check';
import { GeminiMapper } from '../../../lib/providers/gemini/gemini-mapper';
import type { SseFrame } from '../../../lib/wire/types';
import { runFrames, type Step } from '../shared/mapper-harness';

/** A chunk as Gemini sends it: candidates first, then usage, model and id. */
interface Chunk {
  readonly text: string;
  readonly thought: boolean;
  readonly signature: string | null;
  readonly usage: number;
  readonly id: number;
}

const USAGES = [
  { promptTokenCount: 9, totalTokenCount: 9, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] },
  { promptTokenCount: 9, candidatesTokenCount: 4, thoughtsTokenCount: 2, totalTokenCount: 15 },
  { trafficType: 'ON_DEMAND' },
];

function chunkObject({ text, thought, signature, usage, id }: Chunk): object {
  const part = { text, ...(thought ? { thought: true } : {}), ...(signature === null ? {} : { thoughtSignature: signature }) };
  return { candidates: [{ content: { parts: [part], role: 'model' }, index: 0 }], usageMetadata: USAGES[usage], modelVersion: 'gemini-2.5-pro', responseId: `r-${id}` };
}

/** A finish chunk without usage, model or id: the response's metadata is the text chunks'. */
const FINISH = { candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }] };

/** The callbacks of a run, raw frames as the JSON they hold (the two spellings differ in bytes only). */
function outcome(frames: SseFrame[]): unknown {
  const { steps, returns, provider } = runFrames(new GeminiMapper(), frames);
  const parsed = steps.map((step: Step) => (step[0] === 'raw' ? ['raw', JSON.parse((step[1] as SseFrame).data)] : step));
  return { steps: parsed, returns, provider };
}

describe('GeminiMapper on compact chunks', () => {
  it('maps a stream of compact chunks as it maps the same chunks spaced out, which JSON.parse reads whole (property)', () => {
    const chunk = fc.record({
      text: fc.string({ unit: 'binary', maxLength: 8 }),
      thought: fc.boolean(),
      signature: fc.option(fc.constantFrom('sigA', 'sigB'), { freq: 4 }),
      usage: fc.nat({ max: USAGES.length - 1 }),
      id: fc.nat({ max: 1 }),
    });
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 8 }), fc.boolean(), (chunks, finished) => {
        const objects = [...chunks.map(chunkObject), ...(finished ? [FINISH] : [])];
        const compact = objects.map((o): SseFrame => ({ event: null, data: JSON.stringify(o) }));
        const spaced = objects.map((o): SseFrame => ({ event: null, data: JSON.stringify(o, null, 1) }));
        expect(outcome(compact)).to.deep.equal(outcome(spaced));
      }),
      { seed: 1919, numRuns: 1000 },
    );
  });

  it('maps chunks whose repeated rest holds a second candidates key with a function call as JSON.parse reads them', () => {
    // JSON.parse keeps the last of two equal keys (at the first one's place): each chunk's call is
    // the one its own text sends, seeded with {"x":1} and given "y" by its partialArgs.
    const call = '"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"x":1},"partialArgs":[{"jsonPath":"$.y","stringValue":"s"}]}}],"role":"model"},"index":0}]';
    const data = `{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}],${call},"modelVersion":"m"}`;
    const frames = (text: string): SseFrame[] => [...new Array<SseFrame>(4).fill({ event: null, data: text }), { event: null, data: JSON.stringify(FINISH) }];
    const compact = outcome(frames(data));
    expect(compact).to.deep.equal(outcome(frames(`{ ${data.slice(1)}`)));
    const calls = (compact as { steps: Step[] }).steps.filter((step) => step[0] === 'tool');
    expect(calls.map((step) => step[4])).to.deep.equal(['{"x":1,"y":"s"}', '{"x":1,"y":"s"}', '{"x":1,"y":"s"}', '{"x":1,"y":"s"}']);
  });
});
