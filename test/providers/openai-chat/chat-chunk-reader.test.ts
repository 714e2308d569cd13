import { expect } from 'chai';
import fc from 'fast-check';
import sinon from 'sinon';
import { ChatChunkReader } from '../../../lib/providers/openai-chat/chat-chunk-reader';

/** What the reader must always equal: JSON.parse, undefined unless it yields a plain object. */
function reference(data: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

function readsLikeJsonParse(reader: ChatChunkReader, data: string): void {
  expect(reader.read(data), JSON.stringify(data)).to.deep.equal(reference(data));
}

interface Envelope {
  readonly id: string;
  readonly created: number;
  readonly extra?: string;
}

function chunk({ id, created, extra }: Envelope, delta: Record<string, unknown>, tail = ''): string {
  const head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":"m","system_fingerprint":"fp_1",`;
  const choices = `"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":null}]`;
  return `${head}${choices}${extra === undefined ? '' : `,"obfuscation":${JSON.stringify(extra)}`}${tail}}`;
}

const envelope: Envelope = { id: 'chatcmpl-1', created: 1727346171 };

describe('ChatChunkReader', () => {
  it('reads a stream of content and reasoning chunks into what JSON.parse builds, each a fresh object', () => {
    const reader = new ChatChunkReader();
    const frames = [
      chunk(envelope, { role: 'assistant', content: '' }),
      chunk(envelope, { reasoning_content: 'Let' }),
      chunk(envelope, { reasoning_content: ' me' }),
      chunk(envelope, { content: 'Hé' }),
      chunk(envelope, { content: ' 漢😀' }),
      chunk(envelope, { content: 'line\nbreak' }),
      chunk(envelope, { content: ' end' }),
      chunk(envelope, {}),
    ];
    const read = frames.map((data) => reader.read(data));
    frames.forEach((data, i) => expect(read[i]).to.deep.equal(JSON.parse(data)));
    expect(read[4]).to.not.equal(read[3]);
    expect((read[4] as { choices: unknown[] }).choices).to.not.equal((read[3] as { choices: unknown[] }).choices);
  });

  it('reads a chunk whose shell it has seen without JSON.parse', () => {
    const reader = new ChatChunkReader();
    reader.read(chunk(envelope, { content: 'first' }));
    const parse = sinon.spy(JSON, 'parse');
    try {
      const read = reader.read(chunk(envelope, { content: 'second' }));
      expect(read).to.deep.equal(JSON.parse(chunk(envelope, { content: 'second' })));
      expect(parse.callCount).to.equal(1); // the comparison's own
    } finally {
      parse.restore();
    }
  });

  it('keeps the parsed shell to itself: changing a returned chunk changes no later one', () => {
    const reader = new ChatChunkReader();
    reader.read(chunk(envelope, { content: 'a' }));
    const second = reader.read(chunk(envelope, { content: 'b' })) as { id: string; choices: { index: number }[] };
    second.id = 'changed';
    second.choices[0].index = 9;
    expect(reader.read(chunk(envelope, { content: 'c' }))).to.deep.equal(JSON.parse(chunk(envelope, { content: 'c' })));
  });

  it('stops learning when every chunk has a different shell (a random field per chunk)', () => {
    const reader = new ChatChunkReader();
    const parse = sinon.spy(JSON, 'parse');
    try {
      for (let i = 0; i < 40; i++) readsLikeJsonParse(reader, chunk({ ...envelope, extra: `x${i}` }, { content: `t${i}` }));
      // 40 reference parses; learning (two parses a chunk) gave up after a few shells that never served.
      expect(parse.callCount - 40).to.be.below(40 + 2 * 10);
    } finally {
      parse.restore();
    }
  });

  it('answers like JSON.parse when the hole is not the delta: duplicate keys, strings that look alike, other choices', () => {
    const cases = [
      '{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}',
      '{"x":{"delta":{"content":"fake"}},"choices":[{"index":0,"delta":{"content":"real"}}]}',
      '{"choices":[{"index":1,"delta":{"content":"other choice"}}]}',
      '{"choices":[{"index":0,"delta":{"content":"a\\"b"}}]}',
      '{"choices":[{"index":0,"delta":{"content":"tab\there"}}]}',
      '{"choices":[{"index":0,"delta":{"content":"unterminated}}]}',
      '{"__proto__":{"x":1},"choices":[{"index":0,"delta":{"content":"p"}}]}',
      '{"choices":[{"index":0,"delta":{"content":"a"}}]} trailing',
      'not json',
      '[]',
    ];
    for (const order of [cases, [...cases].reverse()]) {
      const reader = new ChatChunkReader();
      for (const data of order) {
        readsLikeJsonParse(reader, data);
        readsLikeJsonParse(reader, data);
      }
    }
  });

  it('equals JSON.parse on any sequence of chunks from a few shells, with any strings and damage (property)', () => {
    const envelopes = fc.constantFrom<Envelope>(envelope, { id: 'chatcmpl-2', created: 5 }, { ...envelope, extra: 'o' });
    const delta = fc.oneof(
      fc.record({ content: fc.string({ unit: 'binary', maxLength: 8 }) }),
      fc.record({ reasoning_content: fc.string({ unit: 'binary', maxLength: 8 }) }),
      fc.constant({}),
    );
    const frame = fc
      .tuple(envelopes, delta, fc.boolean(), fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([env, d, damaged, position, cut, insert]) => {
        const data = chunk(env, d);
        if (!damaged) return data;
        const at = position % (data.length + 1);
        return data.slice(0, at) + insert + data.slice(Math.min(data.length, at + cut));
      });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 30 }), (frames) => {
        const reader = new ChatChunkReader();
        for (const data of frames) readsLikeJsonParse(reader, data);
      }),
      { numRuns: 1500 },
    );
  });
});
