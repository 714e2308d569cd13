import { expect } from 'chai';
import { join } from 'path';
import fc from 'fast-check';
import sinon from 'sinon';
import { GeminiChunkReader } from '../../../lib/providers/gemini/parse-gemini-chunk';
import { retainedByScript } from '../../support/heap-script';
import { jsonObjectReference } from '../../support/json-object-reference';
import { mutateAfterRead } from '../shared/mutate-after-read';

/** Every object and array in `value`, with its path. */
function containers(value: unknown, path = '$', out: Array<[string, object]> = []): Array<[string, object]> {
  if (typeof value === 'object' && value !== null) {
    out.push([path, value]);
    for (const key of Object.keys(value)) containers((value as Record<string, unknown>)[key], `${path}.${key}`, out);
  }
  return out;
}

/**
 * Deep-equal to JSON.parse's, with the same prototypes, key order and serialization; then written
 * over, as a mapper may (the next read must not see it).
 */
function agrees(reader: GeminiChunkReader, data: string): void {
  const read = reader.read(data);
  const expected = jsonObjectReference(data);
  expect(read, JSON.stringify(data)).to.deep.equal(expected);
  if (expected === undefined) return;
  checkShape(read, expected);
  mutateAfterRead(read);
}

function checkShape(read: unknown, expected: unknown): void {
  expect(JSON.stringify(read)).to.equal(JSON.stringify(expected));
  const mine = containers(read);
  const theirs = containers(expected);
  expect(mine.map(([path]) => path)).to.deep.equal(theirs.map(([path]) => path));
  mine.forEach(([path, object], i) => {
    expect(Object.getPrototypeOf(object), path).to.equal(Object.getPrototypeOf(theirs[i][1]));
    expect(Object.keys(object), path).to.deep.equal(Object.keys(theirs[i][1]));
  });
}

const USAGE = '"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9,"promptTokensDetails":[{"modality":"TEXT","tokenCount":9}]}';
const REST = `${USAGE},"modelVersion":"gemini-2.5-pro","responseId":"r-1"}`;

/** A chunk of the wire's compact form: one text (or thought) part, then `rest`. */
const compact = (text: string, thought = false, rest = REST): string =>
  `{"candidates":[{"content":{"parts":[{"text":${JSON.stringify(text)}${thought ? ',"thought":true' : ''}}],"role":"model"},"index":0}],${rest}`;

describe('GeminiChunkReader', () => {
  it('reads compact text and thought chunks into what JSON.parse builds', () => {
    const reader = new GeminiChunkReader();
    expect(reader.read(compact('Hé 漢 😀'))).to.deep.equal({
      candidates: [{ content: { parts: [{ text: 'Hé 漢 😀' }], role: 'model' }, index: 0 }],
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'r-1',
    });
    expect(reader.read(compact('Hmm', true))).to.deep.include({ candidates: [{ content: { parts: [{ text: 'Hmm', thought: true }], role: 'model' }, index: 0 }] });
    for (const thought of [false, true]) for (const text of ['plain', 'two\nlines', '']) agrees(reader, compact(text, thought));
  });

  it('parses a chunk whole when its rest is new, the rest alone at its first repeat, then only texts with escapes', () => {
    const reader = new GeminiChunkReader();
    const parse = sinon.spy(JSON, 'parse');
    try {
      reader.read(compact('one'));
      expect(parse.callCount).to.equal(1);
      expect(parse.lastCall.args[0]).to.equal(compact('one')); // a rest not seen before: the chunk whole
      reader.read(compact('two', true));
      expect(parse.callCount).to.equal(2);
      expect(parse.lastCall.args[0]).to.equal(`{${REST}`); // its first repeat: the rest alone
      reader.read(compact('three'));
      expect(parse.callCount).to.equal(2);
      reader.read(compact('line\nbreak'));
      expect(parse.callCount).to.equal(3);
      expect(parse.lastCall.args[0]).to.equal(String.raw`"line\nbreak"`);
      const changed = `${USAGE},"modelVersion":"gemini-2.5-pro","responseId":"r-2"}`;
      reader.read(compact('four', false, changed));
      expect(parse.callCount).to.equal(4);
      expect(parse.lastCall.args[0]).to.equal(compact('four', false, changed));
      reader.read('{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}]}');
      expect(parse.callCount).to.equal(5);
      // After a changed rest one chunk is parsed whole (above); then the new rest is reused.
      reader.read(compact('five', false, changed));
      expect(parse.callCount).to.equal(6);
      expect(parse.lastCall.args[0]).to.equal(`{${changed}`);
      reader.read(compact('six', false, changed));
      expect(parse.callCount).to.equal(6);
    } finally {
      parse.restore();
    }
  });

  it('returns strings of their own: a text kept does not keep the chunk text it was cut from', function () {
    this.timeout(20_000);
    // 300 chunks, each cut from a 1 MB text of its own as a decoder cuts them, and every text kept:
    // with views into the texts (or a rest kept as one), some 600 MB would stay alive.
    const { retainedMiB, report } = retainedByScript(
      `const { GeminiChunkReader } = require(${JSON.stringify(join(__dirname, '../../../lib/providers/gemini/parse-gemini-chunk'))});
      const reader = new GeminiChunkReader();`,
      `for (let i = 0; i < 300; i++) {
        const chunk = '{"candidates":[{"content":{"parts":[{"text":"a text of forty characters, number ' + String(i).padStart(3, '0') + '"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":' + i + '},"modelVersion":"gemini-2.5-pro","responseId":"response number one"}';
        kept.push(reader.read(cutFromChunk(chunk)).candidates[0].content.parts[0].text);
      }`,
      'kept.length',
    );
    expect(Number(report[0])).to.equal(300);
    expect(retainedMiB).to.be.below(5);
  });

  it('answers like JSON.parse for near misses: other parts, spacing, repeated or special keys, broken strings', () => {
    const cases = [
      compact('x', false, '"candidates":[],"modelVersion":"m"}'),
      compact('x', false, '"\\u0063andidates":0}'),
      compact('x', false, '"__proto__":{"polluted":true},"modelVersion":"m"}'),
      compact('x', false, '"1":2,"modelVersion":"m"}'),
      compact('x', false, '}'),
      compact('x', false, ' "modelVersion":"m"}'),
      compact('x', false, '"modelVersion":"m"} '),
      compact('x', false, '"modelVersion":"m"}}'),
      compact('x', false, '"modelVersion":"m"'),
      compact('x', false, '"modelVersion":"m","modelVersion":"n"}'),
      '{"candidates":[{"content":{"parts":[{"text":"a","thought":false}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"a"},{"text":"b"}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":1}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"a\\"}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"raw\ttab"}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"\\x"}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"q"q"}],"role":"model"},"index":0}],"modelVersion":"m"}',
      '{"candidates":[{"content":{"parts":[{"text":"',
      '{"candidates":[]}',
      '[1,2]',
      'not json',
      '',
    ];
    for (const data of cases) agrees(new GeminiChunkReader(), data);
    const reader = new GeminiChunkReader();
    for (const data of cases) agrees(reader, data);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  /** A key already in the rest (or `candidates`) given a second time, first or last: JSON.parse keeps the last value. */
  const CALL = '[{"content":{"parts":[{"functionCall":{"name":"f","args":{"x":1},"partialArgs":[{"jsonPath":"$.y","stringValue":"s"}]}}],"role":"model"},"index":0}]';
  const rest = fc.oneof(
    fc.constant(REST),
    fc.constant(`"candidates":${CALL},${REST}`),
    fc.constant(`${REST.slice(0, -1)},"candidates":${CALL}}`),
    fc.constant(`${USAGE},"modelVersion":"a",${USAGE.replace('9,', '10,')},"modelVersion":"b"}`),
    fc
      .tuple(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean())
      .map(([fields, again, first]) => {
        const text = JSON.stringify(fields).slice(1, -1);
        const repeated = `${JSON.stringify(Object.keys(fields)[0])}:${JSON.stringify(again)}`;
        return first ? `${repeated},${text}}` : `${text},${repeated}}`;
      }),
    fc.string({ unit: 'binary', maxLength: 6 }).map((id) => `${USAGE},"modelVersion":"gemini-2.5-pro","responseId":${JSON.stringify(id)}}`),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((fields) => JSON.stringify(fields).slice(1)),
  );

  it('equals JSON.parse on compact chunks of any text and rest (repeated keys included), in any sequence, each read written over after it (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.boolean(), rest), { minLength: 1, maxLength: 6 }), (chunks) => {
        const reader = new GeminiChunkReader();
        for (const [text, thought, tail] of chunks) agrees(reader, compact(text, thought, tail));
      }),
      { seed: 1717, numRuns: 1500 },
    );
  });

  it('equals JSON.parse on runs of compact chunks that repeat one rest (repeated keys included), each read written over after it (property)', () => {
    fc.assert(
      fc.property(rest, fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 6 }), fc.boolean()), { minLength: 2, maxLength: 5 }), (tail, chunks) => {
        const reader = new GeminiChunkReader();
        for (const [text, thought] of chunks) agrees(reader, compact(text, thought, tail));
      }),
      { seed: 2020, numRuns: 1500 },
    );
  });

  it('equals JSON.parse on damaged chunks, after an intact one (property)', () => {
    const damaged = fc
      .tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.boolean(), fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([text, thought, position, cut, insert]) => {
        const data = compact(text, thought);
        const at = position % (data.length + 1);
        return data.slice(0, at) + insert + data.slice(Math.min(data.length, at + cut));
      });
    fc.assert(
      fc.property(damaged, (data) => {
        const reader = new GeminiChunkReader();
        agrees(reader, compact('warm'));
        agrees(reader, data);
      }),
      { seed: 1818, numRuns: 3000 },
    );
  });
});
