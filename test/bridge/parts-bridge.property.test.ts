import { expect } from 'chai';
import fc from 'fast-check';
import type { ChatResponse } from '../../lib/handler/types';
import { RecordingHandler } from '../handler/recording-handler';
import { buildChain } from './build-chain';

type Step = { kind: 'thinking'; text: string } | { kind: 'text'; text: string } | { kind: 'tool'; call: number; args: string };

const fragment = fc.string({ minLength: 1, maxLength: 4 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('thinking' as const), text: fragment }),
  fc.record({ kind: fc.constant('text' as const), text: fragment }),
  fc.record({ kind: fc.constant('tool' as const), call: fc.integer({ min: 0, max: 2 }), args: fragment }),
);

/** Maximal runs of one content type, tool-call deltas not counting (they do not end a run). */
function runs(steps: readonly Step[]): Array<'text' | 'reasoning'> {
  const result: Array<'text' | 'reasoning'> = [];
  for (const s of steps) {
    if (s.kind === 'tool') continue;
    const type = s.kind === 'text' ? 'text' : 'reasoning';
    if (result.at(-1) !== type) result.push(type);
  }
  return result;
}

describe('PartsBridge (property)', () => {
  it('rebuilds the text, the reasoning, each tool call and the runs from any interleaving of deltas', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.boolean(), (steps, idless) => {
        const user = new RecordingHandler();
        const chain = buildChain(user);
        const args = new Map<number, string>();
        for (const s of steps) {
          if (s.kind === 'thinking') chain.thinking(s.text);
          else if (s.kind === 'text') chain.text(s.text);
          else {
            chain.toolDelta(s.call, idless ? null : `call_${s.call}`, `tool_${s.call}`, s.args);
            args.set(s.call, (args.get(s.call) ?? '') + s.args);
          }
        }
        for (const [call, joined] of args) chain.toolComplete(call, idless ? null : `call_${call}`, `tool_${call}`, joined);
        chain.complete({ id: 'r' });

        const final = user.calls.find(([name]) => name === 'onCompleteResponse')?.[1] as ChatResponse;
        const texts = steps.flatMap((s) => (s.kind === 'text' ? [s.text] : []));
        const thoughts = steps.flatMap((s) => (s.kind === 'thinking' ? [s.text] : []));
        expect(final.aiMessage.text).to.equal(texts.length === 0 ? null : texts.join(''));
        expect(final.aiMessage.thinking).to.equal(thoughts.length === 0 ? null : thoughts.join(''));
        expect(final.aiMessage.toolExecutionRequests).to.deep.equal(
          // Blank arguments read as "{}" (CompleteToolCall's rule).
          [...args].map(([call, joined]) => ({ id: idless ? null : `call_${call}`, name: `tool_${call}`, arguments: joined.trim() === '' ? '{}' : joined })),
        );
        const contentTypes = final.aiMessage.parts.map((part) => part.type).filter((type) => type !== 'tool_call');
        expect(contentTypes).to.deep.equal(runs(steps));
        expect(final.aiMessage.parts.every((part) => Object.keys(part.attributes).length === 0)).to.equal(true);
      }),
      { numRuns: 150 },
    );
  });
});
