import { expect } from 'chai';
import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import { tokenUsage } from '../../../lib/handler/values';
import { GeminiMapper } from '../../../lib/providers/gemini/gemini-mapper';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { dataFrame, runFrames, type Step } from '../shared/mapper-harness';

const ID = 'resp-g1';
const MODEL = 'gemini-test';
const USAGE = { promptTokenCount: 9, candidatesTokenCount: 20, thoughtsTokenCount: 5, totalTokenCount: 34 };

function chunk(parts: unknown[] | null, candidate: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): SseFrame {
  const content = parts === null ? {} : { content: { role: 'model', parts } };
  return dataFrame({ candidates: [{ ...content, ...candidate }], usageMetadata: { trafficType: 'ON_DEMAND' }, modelVersion: MODEL, responseId: ID, ...extra });
}
function finish(reason = 'STOP', parts: unknown[] = [{ text: '' }]): SseFrame {
  return chunk(parts, { finishReason: reason }, { usageMetadata: USAGE });
}
function complete(finishReason: FinishReason | null, usage: TokenUsage | null = tokenUsage(9, 25, 34, { reasoningTokenCount: 5 })): Step {
  return ['complete', { id: ID, modelName: MODEL, tokenUsage: usage, finishReason }, {}];
}
function run(frames: SseFrame[], truncatedFrame = false) {
  return runFrames(new GeminiMapper(), frames, truncatedFrame);
}
function partialArg(jsonPath: string, value: Record<string, unknown>): Record<string, unknown> {
  return { jsonPath, ...value };
}
function callChunk(functionCall: Record<string, unknown>, extra: Record<string, unknown> = {}): SseFrame {
  return chunk([{ functionCall, ...extra }]);
}
const signature = (data: string) => ({ provider: 'google', kind: 'thought_signature', data });

describe('GeminiMapper', () => {
  describe('text and thinking', () => {
    it('maps text parts to partial responses and completes after the finish chunk when the bytes end', () => {
      const last = finish();
      const { steps, returns } = run([chunk([{ text: 'The sky ' }]), chunk([{ text: 'is blue.' }]), last]);
      expect(steps).to.deep.equal([['text', 'The sky '], ['text', 'is blue.'], ['raw', last], complete('STOP')]);
      expect(returns).to.deep.equal([false, false, false]);
    });

    it('maps thought parts to partial thinking, before the text of the same chunk', () => {
      const { steps } = run([chunk([{ text: 'Hmm.', thought: true }, { text: 'Three.' }]), finish()]);
      expect(steps.slice(0, 2)).to.deep.equal([
        ['thinking', 'Hmm.'],
        ['text', 'Three.'],
      ]);
    });

    it('keeps a thought signature on the part that carried it, including a signature-only empty text part', () => {
      const { steps } = run([chunk([{ text: 'Thinking…', thought: true, thoughtSignature: 'sigA' }]), chunk([{ text: 'Answer.' }]), finish('STOP', [{ text: '', thoughtSignature: 'sigB' }])]);
      expect(steps).to.deep.equal([['thinking', 'Thinking…', signature('sigA')], ['text', 'Answer.'], ['text', '', signature('sigB')], complete('STOP')]);
    });

    it('maps only the first candidate', () => {
      const frame = dataFrame({
        candidates: [
          { index: 0, content: { parts: [{ text: 'zero' }] } },
          { index: 1, content: { parts: [{ text: 'one' }] } },
        ],
        responseId: ID,
        modelVersion: MODEL,
      });
      expect(run([frame, finish()]).steps[0]).to.deep.equal(['text', 'zero']);
    });
  });

  describe('function calls', () => {
    it('maps a whole functionCall to a complete tool call with its signature and JSON arguments in key order', () => {
      const { steps } = run([callChunk({ name: 'weather', args: { location: 'SF', days: 2 } }, { thoughtSignature: 'sigC' }), finish()]);
      expect(steps.filter((step) => step[0] !== 'raw')).to.deep.equal([['tool', 0, null, 'weather', '{"location":"SF","days":2}', signature('sigC')], complete('TOOL_EXECUTION')]);
    });

    it('takes the call id when the API sends one, and "{}" for a call without args', () => {
      const { steps } = run([callChunk({ id: 'fc-1', name: 'now' }), finish()]);
      expect(steps[0]).to.deep.equal(['tool', 0, 'fc-1', 'now', '{}']);
    });

    it('streams partialArgs as JSON fragments and completes at the empty functionCall', () => {
      const start = callChunk({ name: 'getWeather', willContinue: true }, { thoughtSignature: 'sigD' });
      const frames = [
        start,
        callChunk({ partialArgs: [partialArg('$.city', { stringValue: 'New', willContinue: true })], willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.city', { stringValue: ' York', willContinue: true })], willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.city', { stringValue: '' })], willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.unit', { stringValue: 'C', willContinue: true })], willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.unit', { stringValue: '' })], willContinue: true }),
        callChunk({}, {}),
      ];
      const { steps } = run([...frames, finish()]);
      const args = '{"city":"New York","unit":"C"}';
      expect(steps.slice(0, 9)).to.deep.equal([
        ['raw', start],
        ['toolDelta', 0, null, 'getWeather', '{"city":"New'],
        ['toolDelta', 0, null, 'getWeather', ' York'],
        ['toolDelta', 0, null, 'getWeather', '"'],
        ['toolDelta', 0, null, 'getWeather', ',"unit":"C'],
        ['toolDelta', 0, null, 'getWeather', '"'],
        ['toolDelta', 0, null, 'getWeather', '}'],
        ['tool', 0, null, 'getWeather', args, signature('sigD')],
        ['raw', finish()],
      ]);
      const streamed = steps
        .filter((step) => step[0] === 'toolDelta')
        .map((step) => step[4])
        .join('');
      expect(streamed).to.equal(args);
    });

    it('completes a streamed call at the first chunk without willContinue', () => {
      const { steps } = run([
        callChunk({ name: 'writeItems', willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.items[0].id', { stringValue: 'a' })], willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.items[0].price', { numberValue: 0.5 })] }),
        finish(),
      ]);
      expect(steps.filter((step) => step[0] === 'tool')).to.deep.equal([['tool', 0, null, 'writeItems', '{"items":[{"id":"a","price":0.5}]}']]);
    });

    it('numbers parallel calls 0, 1 … and lets a named functionCall end the call before it', () => {
      const { steps } = run([
        callChunk({ name: 'read_theme' }),
        callChunk({ name: 'read_screen', willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.id', { stringValue: 'A' })], willContinue: true }),
        callChunk({ name: 'read_screen', willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.id', { stringValue: 'B' })], willContinue: true }),
        callChunk({}),
        finish(),
      ]);
      expect(steps.filter((step) => step[0] === 'tool')).to.deep.equal([
        ['tool', 0, null, 'read_theme', '{}'],
        ['tool', 1, null, 'read_screen', '{"id":"A"}'],
        ['tool', 2, null, 'read_screen', '{"id":"B"}'],
      ]);
    });

    it('completes a call still streaming when the stream ends after a finish reason', () => {
      const { steps } = run([
        callChunk({ name: 'f', willContinue: true }),
        callChunk({ partialArgs: [partialArg('$.a', { boolValue: true })], willContinue: true }, { thoughtSignature: 'late' }),
        chunk([], { finishReason: 'STOP' }, { usageMetadata: USAGE }),
      ]);
      expect(steps.slice(-3)).to.deep.equal([['toolDelta', 0, null, 'f', '}'], ['tool', 0, null, 'f', '{"a":true}', signature('late')], complete('TOOL_EXECUTION')]);
    });

    it('surfaces a continuation chunk that carries nothing, and a lone terminator, raw', () => {
      const keepAlive = callChunk({ willContinue: true });
      const lone = callChunk({});
      expect(run([lone, callChunk({ name: 'f', willContinue: true }), keepAlive, callChunk({}), finish()]).steps.slice(0, 3)).to.deep.equal([
        ['raw', lone],
        ['raw', callChunk({ name: 'f', willContinue: true })],
        ['raw', keepAlive],
      ]);
    });
  });

  describe('other parts and metadata', () => {
    it('surfaces a chunk of parts it does not map raw', () => {
      const response = chunk([{ functionResponse: { name: 'f', response: { ok: true } } }]);
      expect(run([response, finish()]).steps[0]).to.deep.equal(['raw', response]);
    });

    it('surfaces a chunk that mixes mapped and unmapped content raw once, after its callbacks', () => {
      const mixed = chunk([{ text: 'Result:' }, { executableCode: { language: 'PYTHON', code: 'print(1)' } }]);
      const grounded = chunk([{ text: 'Cited.' }], { groundingMetadata: { webSearchQueries: ['q'] } });
      expect(run([mixed, grounded, finish()]).steps.slice(0, 4)).to.deep.equal([
        ['text', 'Result:'],
        ['raw', mixed],
        ['text', 'Cited.'],
        ['raw', grounded],
      ]);
    });

    it('surfaces usage-only chunks raw and keeps the last usage that has counts', () => {
      const usageOnly = dataFrame({ usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 }, modelVersion: MODEL, responseId: ID });
      const last = chunk([{ text: '' }], { finishReason: 'STOP' });
      const { steps } = run([chunk([{ text: 'Hi' }]), usageOnly, last]);
      expect(steps).to.deep.equal([['text', 'Hi'], ['raw', usageOnly], ['raw', last], complete('STOP', tokenUsage(9, 3, 12))]);
    });

    it('keeps reading after a finish reason and reports the last one', () => {
      const { steps } = run([callChunk({ name: 'srv', args: {} }, {}), chunk([{ text: 'More.' }], { finishReason: 'STOP' }), chunk([{ text: 'Cut' }], { finishReason: 'MAX_TOKENS' })]);
      // A stop for length stays LENGTH even though a call completed.
      expect(steps.slice(1)).to.deep.equal([['text', 'More.'], ['text', 'Cut'], complete('LENGTH', null)]);
    });

    it('maps MAX_TOKENS to LENGTH and SAFETY to CONTENT_FILTER', () => {
      expect(run([chunk([{ text: 'a' }]), finish('MAX_TOKENS')]).steps.at(-1)).to.deep.equal(complete('LENGTH'));
      expect(run([chunk([{ text: 'a' }]), finish('SAFETY')]).steps.at(-1)).to.deep.equal(complete('CONTENT_FILTER'));
    });

    it('completes a response whose prompt was blocked with CONTENT_FILTER', () => {
      const blocked = dataFrame({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 }, modelVersion: MODEL });
      const { steps } = run([blocked]);
      expect(steps).to.deep.equal([
        ['raw', blocked],
        ['complete', { id: null, modelName: MODEL, tokenUsage: tokenUsage(4, null, 4), finishReason: 'CONTENT_FILTER' }, {}],
      ]);
    });
  });

  describe('errors', () => {
    it('reports an error body as one provider StreamError with status and code, and stops reading', () => {
      const error = { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' };
      const { steps, returns, errors } = run([dataFrame({ error }), chunk([{ text: 'never' }])]);
      expect(steps).to.deep.equal([['error', 'provider', 'models/x is not found']]);
      expect(returns).to.deep.equal([true]);
      const streamError = errors[0] as StreamError;
      expect([streamError.status, streamError.code, streamError.body]).to.deep.equal([404, 'NOT_FOUND', error]);
    });

    it('reports a stream that ends without a finish reason as truncated, leaving a streaming call incomplete', () => {
      const { steps } = run([callChunk({ name: 'f', willContinue: true }), callChunk({ partialArgs: [partialArg('$.a', { stringValue: 'x', willContinue: true })], willContinue: true })]);
      expect(steps.slice(1)).to.deep.equal([
        ['toolDelta', 0, null, 'f', '{"a":"x'],
        ['error', 'truncated', 'The stream ended before a chunk with a finishReason'],
      ]);
    });

    it('reports an empty stream as truncated', () => {
      expect(run([]).steps).to.deep.equal([['error', 'truncated', 'The stream ended before a chunk with a finishReason']]);
    });

    it('reports a stream cut in the middle of a frame as truncated even after a finish reason', () => {
      expect(
        run([chunk([{ text: 'a' }]), finish()], true)
          .steps.at(-1)
          ?.slice(0, 2),
      ).to.deep.equal(['error', 'truncated']);
    });

    it('surfaces a frame that is not JSON raw', () => {
      const broken: SseFrame = { event: null, data: '{"candidates": [' };
      expect(run([broken, finish()]).steps[0]).to.deep.equal(['raw', broken]);
    });
  });
});
