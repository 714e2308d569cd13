import { expect } from 'chai';
import fc from 'fast-check';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../lib/handler/values';
import { textPart } from '../../lib/parts/factories';
import { StreamError } from '../../lib/handler/stream-error';
import { applyDamage, type Damage } from './support/damage';
import { expectNothingLost, expectOneTerminal } from './support/invariants';
import { summarise, type Replay } from './support/replay';
import { wireFrames } from './support/wire-frames';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const SSE = 'event: a\ndata: {"type":"a","x":"hi"}\n\nevent: b\ndata: {"type":"b","n":1}\n\n';
const NDJSON = '{"message":{"content":"hi"},"done":false}\n{"done":true}\n';

function damaged(text: string, format: 'anthropic' | 'ollama' | 'openai-chat', damage: Damage): string {
  return decoder.decode(applyDamage(encoder.encode(text), format, damage));
}

describe('applyDamage', () => {
  const frame0 = 'event: a\ndata: {"type":"a","x":"hi"}\n\n';
  const frame1 = 'event: b\ndata: {"type":"b","n":1}\n\n';

  it('cuts the body after `at` bytes, modulo its length + 1', () => {
    expect([damaged(SSE, 'anthropic', { type: 'truncate', at: 5 }), damaged(SSE, 'anthropic', { type: 'truncate', at: SSE.length })]).to.deep.equal(['event', SSE]);
  });

  it('drops and duplicates whole frames (SSE events, NDJSON lines)', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'drop-frame', frame: 1 }),
      damaged(SSE, 'anthropic', { type: 'duplicate-frame', frame: 2 }),
      damaged(NDJSON, 'ollama', { type: 'drop-frame', frame: 0 }),
    ]).to.deep.equal([frame0, frame0 + frame0 + frame1, '{"done":true}\n']);
  });

  it('puts a garbage line before a frame, or inside it', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'garbage-line', frame: 1, line: 'zzz', inside: false }),
      damaged(SSE, 'anthropic', { type: 'garbage-line', frame: 1, line: 'zzz', inside: true }),
      damaged(NDJSON, 'ollama', { type: 'garbage-line', frame: 1, line: 'zzz', inside: true }),
    ]).to.deep.equal([`${frame0}zzz\n\n${frame1}`, `${frame0}event: b\nzzz\ndata: {"type":"b","n":1}\n\n`, '{"message":{"content":"hi"},"done":false}\nzzz\n{"done":true}\n']);
  });

  it('breaks the JSON of a data line: cut short, or with a character that does not parse', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'invalid-json', frame: 0, at: 3, insert: '' }),
      damaged(SSE, 'anthropic', { type: 'invalid-json', frame: 1, at: 1, insert: '}' }),
      damaged(SSE, 'anthropic', { type: 'invalid-json', frame: 1, at: 3, insert: 'x' }),
    ]).to.deep.equal([
      `event: a\ndata: {"t\n\n${frame1}`,
      `${frame0}event: b\ndata: {}"type":"b","n":1}\n\n`,
      // 'x' inside a string still parses, so the JSON is cut there instead.
      `${frame0}event: b\ndata: {"t\n\n`,
    ]);
  });

  it('gives one field a value of another JSON type', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'wrong-type', frame: 1, path: 1, value: 0 }),
      damaged(SSE, 'anthropic', { type: 'wrong-type', frame: 1, path: 0, value: 3 }),
      damaged(NDJSON, 'ollama', { type: 'wrong-type', frame: 0, path: 1, value: 8 }),
    ]).to.deep.equal([`${frame0}event: b\ndata: {"type":"b","n":null}\n\n`, `${frame0}event: b\ndata: {"type":true,"n":1}\n\n`, '{"message":{"content":[1,"x"]},"done":false}\n{"done":true}\n']);
  });

  it('renames an event to an unknown type, or inserts an unknown event', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'unknown-event', frame: 0, name: 'x_new', rename: true }),
      damaged(SSE, 'anthropic', { type: 'unknown-event', frame: 1, name: 'x_new', rename: false }),
      damaged(SSE, 'openai-chat', { type: 'unknown-event', frame: 1, name: 'x_new', rename: false }),
    ]).to.deep.equal([
      `event: x_new\ndata: {"type":"x_new","x":"hi"}\n\n${frame1}`,
      `${frame0}event: x_new\ndata: {"type":"x_new","x_new":{"index":0,"text":"never mapped"}}\n\n${frame1}`,
      `${frame0}data: {"type":"x_new","x_new":{"index":0,"text":"never mapped"}}\n\n${frame1}`,
    ]);
  });

  it('replaces one string of a frame’s JSON with another', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'changed-string', frame: 0, path: 1, value: 'other' }),
      damaged(NDJSON, 'ollama', { type: 'changed-string', frame: 1, path: 0, value: 'x' }),
    ]).to.deep.equal([`event: a\ndata: {"type":"a","x":"other"}\n\n${frame1}`, NDJSON]);
  });

  it('grows a string of a frame to the given size, or inserts a huge frame when the frame has no string', () => {
    expect([
      damaged(SSE, 'anthropic', { type: 'huge-frame', frame: 0, path: 1, size: 10, unit: 'ab' }),
      damaged('data: {"n":1}\n\n', 'openai-chat', { type: 'huge-frame', frame: 0, path: 0, size: 4, unit: 'é' }),
    ]).to.deep.equal([`event: a\ndata: {"type":"a","x":"ababababab"}\n\n${frame1}`, 'data: {"type":"ping","padding":"éééé"}\n\ndata: {"n":1}\n\n']);
  });
});

describe('wireFrames', () => {
  it('cuts a body into frames that join back into it byte for byte', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', ':', ' ') }), fc.constantFrom<'anthropic' | 'ollama'>('anthropic', 'ollama'), (text, format) => {
        expect(wireFrames(text, format).join('')).to.equal(text);
      }),
      { seed: 8, numRuns: 100 },
    );
  });

  it('keeps each SSE event with its blank line, and each NDJSON line with its newline', () => {
    expect([wireFrames('data: 1\n\n\ndata: 2\n\ndata: 3', 'openai-chat'), wireFrames('{}\n\n{"a":1}', 'ollama')]).to.deep.equal([
      ['data: 1\n\n\n', 'data: 2\n\n', 'data: 3'],
      ['{}\n', '\n', '{"a":1}'],
    ]);
  });
});

describe('the reliability invariants', () => {
  const response = chatResponse(aiMessage([textPart('Hi')]), responseMetadata({ finishReason: 'STOP' }));
  const base = (overrides: Partial<Replay>): Replay => ({
    calls: [
      { on: 'onPartialResponse', value: partialResponse('Hi') },
      { on: 'onCompleteResponse', value: response },
    ],
    errors: [],
    outcome: { status: 'completed', response },
    message: response,
    cancelledAt: null,
    released: false,
    ended: true,
    ...overrides,
  });

  it('accept a run that ends once and keeps what it delivered', () => {
    expect(() => {
      expectOneTerminal(base({}));
      expectNothingLost(base({}));
    }).to.not.throw();
  });

  it('reject text that was delivered but is missing from the message', () => {
    const run = base({
      calls: [
        { on: 'onPartialResponse', value: partialResponse('Hi') },
        { on: 'onPartialResponse', value: partialResponse('!') },
        { on: 'onCompleteResponse', value: response },
      ],
    });
    expect(() => expectNothingLost(run)).to.throw(/aggregated text vs delivered text/);
  });

  it('reject a second terminal callback, and a failure that is not a StreamError', () => {
    const error = new StreamError('truncated', 'cut');
    const twice = base({ calls: [...base({}).calls, { on: 'onError', value: summarise(error) }] });
    expect(() => expectOneTerminal(twice)).to.throw(/terminal callbacks/);
    const plain = new Error('plain');
    const failed = base({ calls: [{ on: 'onError', value: summarise(plain) }], errors: [plain], outcome: { status: 'failed', error: plain, partial: response } });
    expect(() => expectOneTerminal(failed)).to.throw(/a StreamError, got Error: plain/);
  });
});
