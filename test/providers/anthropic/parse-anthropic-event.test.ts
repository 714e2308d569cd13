import { expect } from 'chai';
import { join } from 'path';
import fc from 'fast-check';
import sinon from 'sinon';
import { parseAnthropicEvent } from '../../../lib/providers/anthropic/parse-anthropic-event';
import { retainedByScript } from '../../support/heap-script';
import { jsonObjectReference } from '../../support/json-object-reference';
import { mutateAfterRead } from '../shared/mutate-after-read';

function agrees(data: string): void {
  const read = parseAnthropicEvent(data);
  expect(read, JSON.stringify(data)).to.deep.equal(jsonObjectReference(data));
  // Written over, as a mapper may: the next read must not see it.
  mutateAfterRead(read);
}

const DELTA_KEYS = [
  ['text_delta', 'text'],
  ['thinking_delta', 'thinking'],
  ['input_json_delta', 'partial_json'],
] as const;

const compact = (index: number | string, type: string, key: string, value: string): string =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${key}":${JSON.stringify(value)}}}`;

describe('parseAnthropicEvent', () => {
  it('reads the compact text, thinking and input JSON deltas into what JSON.parse builds', () => {
    for (const [type, key] of DELTA_KEYS) {
      const data = compact(3, type, key, 'Hé 漢 😀');
      expect(parseAnthropicEvent(data)).to.deep.equal({ type: 'content_block_delta', index: 3, delta: { type, [key]: 'Hé 漢 😀' } });
      agrees(data);
    }
  });

  it('builds plain objects as JSON.parse does: Object.prototype, own enumerable keys in wire order', () => {
    for (const [type, key] of DELTA_KEYS) {
      for (const value of ['plain', 'two\nlines']) {
        const event = parseAnthropicEvent(compact(7, type, key, value)) as { readonly delta: object };
        expect(Object.getPrototypeOf(event)).to.equal(Object.prototype);
        expect(Object.getPrototypeOf(event.delta)).to.equal(Object.prototype);
        expect(Object.keys(event)).to.deep.equal(['type', 'index', 'delta']);
        expect(Object.keys(event.delta)).to.deep.equal(['type', key]);
        expect(JSON.stringify(event)).to.equal(compact(7, type, key, value));
      }
    }
  });

  it('reads a plain compact delta without JSON.parse, and only the string literal when it has escapes', () => {
    const parse = sinon.spy(JSON, 'parse');
    try {
      parseAnthropicEvent(compact(1, 'text_delta', 'text', 'plain'));
      parseAnthropicEvent(compact(1, 'thinking_delta', 'thinking', 'plain'));
      parseAnthropicEvent(compact(1, 'input_json_delta', 'partial_json', '{"a":'));
      expect(parse.callCount).to.equal(1); // the partial JSON has quotes: the whole event goes to JSON.parse
      parseAnthropicEvent(compact(1, 'text_delta', 'text', 'two\nlines'));
      expect(parse.callCount).to.equal(2);
      expect(parse.lastCall.args[0]).to.equal(String.raw`"two\nlines"`);
      parseAnthropicEvent('{"type":"ping"}');
      expect(parse.lastCall.args[0]).to.equal('{"type":"ping"}');
    } finally {
      parse.restore();
    }
  });

  it('returns strings of their own: a delta kept does not keep the chunk text it was cut from', function () {
    this.timeout(20_000);
    // 300 events, each cut from a 1 MB text of its own as a decoder cuts them from a chunk, and
    // every delta kept: with views into the texts, some 600 MB would stay alive.
    const { retainedMiB, report } = retainedByScript(
      `const { parseAnthropicEvent } = require(${JSON.stringify(join(__dirname, '../../../lib/providers/anthropic/parse-anthropic-event'))});`,
      `for (let i = 0; i < 300; i++) {
        const event = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a delta of forty characters, number ' + String(i).padStart(3, '0') + '"}}';
        kept.push(parseAnthropicEvent(cutFromChunk(event)).delta.text);
      }`,
      'kept.length',
    );
    expect(Number(report[0])).to.equal(300);
    expect(retainedMiB).to.be.below(5);
  });

  it('keeps JSON.parse’s key order, so raw events serialize back the same', () => {
    const data = compact(12, 'text_delta', 'text', 'x');
    expect(JSON.stringify(parseAnthropicEvent(data))).to.equal(data);
  });

  it('reads escapes in the string as JSON does', () => {
    for (const value of ['line\nbreak', 'tab\there', 'back\\slash', 'a\u0001b', '\ud83d\ude00', 'lone \ud800 surrogate', '']) {
      agrees(compact(0, 'text_delta', 'text', value));
    }
    agrees('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u00e9\\/"}}');
  });

  it('answers like JSON.parse for near misses: other deltas, numbers, spacing, broken strings', () => {
    const cases = [
      compact(0, 'signature_delta', 'signature', 'sig'),
      compact(0, 'citations_delta', 'citation', 'c'),
      compact('01', 'text_delta', 'text', 'x'),
      compact('-1', 'text_delta', 'text', 'x'),
      compact('1.5', 'text_delta', 'text', 'x'),
      compact('1e2', 'text_delta', 'text', 'x'),
      compact('1234567890123', 'text_delta', 'text', 'x'),
      compact('', 'text_delta', 'text', 'x'),
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}, "x":1}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":"b"}}',
      '{"type":"content_block_delta", "index":0,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw\ttab"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\x"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"q"q"}}',
      '{"type":"content_block_delta","index":0}',
      '{"type":"ping"}',
      '[1,2]',
      'not json',
      '',
    ];
    for (const data of cases) agrees(data);
  });

  it('equals JSON.parse on compact deltas of any string and index (property)', () => {
    const delta = fc.constantFrom(...DELTA_KEYS);
    fc.assert(
      fc.property(fc.nat(), delta, fc.string({ unit: 'binary' }), (index, [type, key], value) => {
        agrees(compact(index, type, key, value));
      }),
      { seed: 1212, numRuns: 2000 },
    );
  });

  it('equals JSON.parse on damaged deltas (property)', () => {
    const delta = fc.constantFrom(...DELTA_KEYS);
    const damaged = fc
      .tuple(fc.nat({ max: 1e6 }), delta, fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([index, [type, key], value, position, cut, insert]) => {
        const data = compact(index, type, key, value);
        const at = position % (data.length + 1);
        return data.slice(0, at) + insert + data.slice(Math.min(data.length, at + cut));
      });
    fc.assert(fc.property(damaged, agrees), { seed: 1313, numRuns: 3000 });
  });
});
