import { expect } from 'chai';
import { join } from 'path';
import fc from 'fast-check';
import sinon from 'sinon';
import { OpenAIChatChunkReader } from '../../../lib/providers/openai-chat/parse-openai-chat-chunk';
import { retainedByScript } from '../../support/heap-script';
import { jsonObjectReference } from '../../support/json-object-reference';
import { mutateAfterRead } from '../shared/mutate-after-read';

const HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1727346171,"model":"gpt-4o","system_fingerprint":"fp_1","choices":[{"index":0,"delta":';
const TAIL = ',"logprobs":null,"finish_reason":null}],"usage":null}';
const OBFUSCATED_TAIL = (value: string): string => `,"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":${JSON.stringify(value)}}`;
const ROLE = `${HEAD}{"role":"assistant","content":"","refusal":null}${TAIL}`;

/** The compact deltas real servers send around one string. */
const DELTAS: readonly ((value: string, index: number) => string)[] = [
  (value) => `{"content":${JSON.stringify(value)}}`,
  (value) => `{"content":null,"reasoning_content":${JSON.stringify(value)}}`,
  (value) => `{"content":${JSON.stringify(value)},"reasoning_content":null}`,
  (value) => `{"reasoning_content":${JSON.stringify(value)}}`,
  (value) => `{"reasoning":${JSON.stringify(value)}}`,
  (value, index) => `{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(value)}}}]}`,
];

/** A reader that has learned the envelope of HEAD/TAIL (or its obfuscated form) from a role chunk. */
function primed(obfuscated = false): OpenAIChatChunkReader {
  const reader = new OpenAIChatChunkReader();
  // The chunk the envelope is learned from is written over once read, as a mapper may.
  mutateAfterRead(reader.read(obfuscated ? `${HEAD}{"role":"assistant","content":""}${OBFUSCATED_TAIL('abc')}` : ROLE));
  return reader;
}

function agrees(reader: OpenAIChatChunkReader, data: string): void {
  const read = reader.read(data);
  const expected = jsonObjectReference(data);
  expect(read, JSON.stringify(data)).to.deep.equal(expected);
  // Same key order at every level, so a raw chunk serializes back the same.
  expect(JSON.stringify(read), JSON.stringify(data)).to.equal(JSON.stringify(expected));
  // Written over, as a mapper may: the next read must not see it.
  mutateAfterRead(read);
}

describe('OpenAIChatChunkReader', () => {
  it('reads each compact delta of a learned envelope into what JSON.parse builds', () => {
    for (const obfuscated of [false, true]) {
      const reader = primed(obfuscated);
      for (const delta of DELTAS) agrees(reader, `${HEAD}${delta('Hé 漢 😀', 2)}${obfuscated ? OBFUSCATED_TAIL('xYz12') : TAIL}`);
    }
    expect(primed().read(`${HEAD}{"content":"Hi"}${TAIL}`)).to.deep.equal({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1727346171,
      model: 'gpt-4o',
      system_fingerprint: 'fp_1',
      choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: null, finish_reason: null }],
      usage: null,
    });
  });

  it('reads a plain compact delta without JSON.parse once the envelope is learned', () => {
    const reader = primed();
    const obfuscatedReader = primed(true);
    const parse = sinon.spy(JSON, 'parse');
    try {
      for (const delta of DELTAS) reader.read(`${HEAD}${delta('plain', 1)}${TAIL}`);
      obfuscatedReader.read(`${HEAD}{"content":"plain"}${OBFUSCATED_TAIL('q9')}`);
      expect(parse.callCount).to.equal(0);
      reader.read(`${HEAD}{"content":"two\\nlines"}${TAIL}`);
      expect(parse.callCount).to.equal(1);
      expect(parse.lastCall.args[0]).to.equal('"two\\nlines"');
      reader.read(`${HEAD}{"content":"","refusal":null}${TAIL}`);
      expect(parse.callCount).to.equal(2);
    } finally {
      parse.restore();
    }
  });

  it('builds plain objects as JSON.parse does: Object.prototype, own keys in wire order', () => {
    const reader = primed();
    for (const delta of DELTAS) {
      const data = `${HEAD}${delta('x', 3)}${TAIL}`;
      const chunk = reader.read(data) as { choices: { delta: Record<string, unknown> }[] };
      const choice = chunk.choices[0];
      for (const object of [chunk, choice, choice.delta]) expect(Object.getPrototypeOf(object)).to.equal(Object.prototype);
      expect(Object.getPrototypeOf(chunk.choices)).to.equal(Array.prototype);
      expect(Object.keys(chunk)).to.deep.equal(['id', 'object', 'created', 'model', 'system_fingerprint', 'choices', 'usage']);
      expect(Object.keys(choice)).to.deep.equal(['index', 'delta', 'logprobs', 'finish_reason']);
      expect(JSON.stringify(chunk)).to.equal(data);
    }
  });

  it('gives each chunk objects of its own, as JSON.parse does', () => {
    const reader = new OpenAIChatChunkReader();
    const nested = (text: string): string => `{"x":{"a":1},"choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"logprobs":{"content":[]}}]}`;
    const chunks = ['', 'a', 'b'].map((text) => reader.read(nested(text)) as { x: object; choices: { logprobs: object }[] });
    expect(chunks[2]).to.deep.equal(JSON.parse(nested('b')));
    expect(chunks[1].x).to.not.equal(chunks[2].x);
    expect(chunks[1].choices).to.not.equal(chunks[2].choices);
    expect(chunks[1].choices[0].logprobs).to.not.equal(chunks[2].choices[0].logprobs);
    const flat = primed();
    const [first, second] = ['a', 'b'].map((text) => flat.read(`${HEAD}{"content":"${text}"}${TAIL}`) as { choices: object[] });
    expect(first.choices).to.not.equal(second.choices);
    expect(first.choices[0]).to.not.equal(second.choices[0]);
  });

  it('answers like JSON.parse before and after learning, for envelopes it cannot learn and for near misses', () => {
    const cases = [
      ROLE,
      `${HEAD}{"content":"a"}${TAIL.replace('"finish_reason":null', '"finish_reason":"stop"')}`,
      `${HEAD}{"content":"a"}${TAIL.replace('"usage":null', '"usage":{"prompt_tokens":1}')}`,
      `${HEAD.replace('gpt-4o', 'gpt-5')}{"content":"a"}${TAIL}`,
      `${HEAD}{"content":"a"} ${TAIL}`,
      `${HEAD}{"content":"a","content":"b"}${TAIL}`,
      `${HEAD}{"content":"a\\"}${TAIL}`,
      `${HEAD}{"content":"}${TAIL}`,
      `${HEAD}{"content":"q"q"}${TAIL}`,
      `${HEAD}{"content":"raw\ttab"}${TAIL}`,
      `${HEAD}{"content":"\\x"}${TAIL}`,
      `${HEAD}{"tool_calls":[{"index":01,"function":{"arguments":"a"}}]}${TAIL}`,
      `${HEAD}{"tool_calls":[{"index":-1,"function":{"arguments":"a"}}]}${TAIL}`,
      `${HEAD}{"tool_calls":[{"index":1.5,"function":{"arguments":"a"}}]}${TAIL}`,
      `${HEAD}{"tool_calls":[{"index":1234567890123,"function":{"arguments":"a"}}]}${TAIL}`,
      `${HEAD}{"tool_calls":[{"index":,"function":{"arguments":"a"}}]}${TAIL}`,
      `${HEAD}{"content":"a"}${TAIL},"usage":{}}`,
      `${HEAD}{"content":"a"}${OBFUSCATED_TAIL('a\\"b')}`,
      `${HEAD}{"content":"a"}${OBFUSCATED_TAIL('')}`,
      `${HEAD}{"content":"a"}`,
      HEAD,
      '{"choices":[{"index":0,"delta":{"content":"a"}}],"__proto__":1}',
      '{"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[]}',
      '{"choices":[{"index":0,"delta":{"content":"a"},"delta":{"content":"b"}}]}',
      '[DONE]',
      '[1,2]',
      '',
    ];
    for (const obfuscated of [false, true]) {
      for (const data of cases) agrees(primed(obfuscated), data);
      // Every case also read by a fresh reader, then the reader reading what it may have learned.
      for (const data of cases) {
        const fresh = new OpenAIChatChunkReader();
        agrees(fresh, data);
        for (const other of cases) agrees(fresh, other);
      }
    }
  });

  it('learns the envelope of the stream it reads, and no envelope that hides a later key', () => {
    const reader = new OpenAIChatChunkReader();
    const head = '{"choices":[{"index":0,"delta":';
    agrees(reader, `${head}{"content":""}}],"delta":{}}`);
    agrees(reader, `${head}{"content":"x"}}],"delta":{}}`);
    agrees(reader, `${head}{"content":"x"}}],"__proto__":{"a":1}}`);
    agrees(reader, `${head}{"content":"y"}}],"__proto__":{"a":1}}`);
    // Duplicate keys: the later value wins in JSON.parse, so the delta slot of the text is not the chunk's.
    for (const [learnFrom, next] of [
      ['{"choices":[{"index":0,"delta":{"content":""},"delta":{"content":""}}]}', '{"choices":[{"index":0,"delta":{"content":"x"},"delta":{"content":""}}]}'],
      [
        '{"choices":[{"index":0,"delta":{"content":""}}],"choices":[{"index":0,"delta":{"content":""}}]}',
        '{"choices":[{"index":0,"delta":{"content":"x"}}],"choices":[{"index":0,"delta":{"content":""}}]}',
      ],
    ]) {
      const duplicates = new OpenAIChatChunkReader();
      agrees(duplicates, learnFrom);
      agrees(duplicates, next);
    }
    const other = new OpenAIChatChunkReader();
    agrees(other, '{"__proto__":"p","choices":[{"index":0,"delta":{"content":""}}]}');
    const proto = other.read('{"__proto__":"p","choices":[{"index":0,"delta":{"content":"z"}}]}');
    expect(Object.getPrototypeOf(proto)).to.equal(Object.prototype);
    expect(Object.keys(proto as object)).to.deep.equal(['__proto__', 'choices']);
  });

  it('returns and learns strings of their own: a delta or an envelope kept does not keep the chunk text it was cut from', function () {
    this.timeout(20_000);
    // 300 chunks, each cut from a 1 MB text of its own as a decoder cuts them from a network
    // chunk, and every delta kept; and 300 readers, each with an envelope learned from such a
    // chunk: with views into the texts, some 600 MB would stay alive either way.
    const { retainedMiB, report } = retainedByScript(
      `const { OpenAIChatChunkReader } = require(${JSON.stringify(join(__dirname, '../../../lib/providers/openai-chat/parse-openai-chat-chunk'))});
      const head = ${JSON.stringify(HEAD)};
      const tail = ${JSON.stringify(OBFUSCATED_TAIL('abcdefghijklmnopq'))};
      const reader = new OpenAIChatChunkReader();
      const readers = [];`,
      `for (let i = 0; i < 300; i++) {
        const read = reader.read(cutFromChunk(head + '{"content":"a delta of forty characters, number ' + String(i).padStart(3, '0') + '"}' + tail));
        kept.push(read.choices[0].delta.content, read.obfuscation);
      }
      // 300 streams kept open, each reader having learned its envelope from a chunk cut from a 1 MB text.
      for (let i = 0; i < 300; i++) {
        const stream = new OpenAIChatChunkReader();
        stream.read(cutFromChunk(head + '{"role":"assistant","content":""}' + tail));
        readers.push(stream);
      }`,
      `kept.length + ' ' + kept[599] + ' ' + readers.length`,
    );
    expect(report).to.deep.equal(['600', 'abcdefghijklmnopq', '300']);
    expect(retainedMiB).to.be.below(5);
  });

  it('equals JSON.parse on compact deltas of any string and index (property)', () => {
    const reader = primed();
    const obfuscatedReader = primed(true);
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...DELTAS), fc.string({ unit: 'binary' }), fc.string({ unit: 'binary', maxLength: 20 }), (index, delta, value, obfuscation) => {
        agrees(reader, `${HEAD}${delta(value, index)}${TAIL}`);
        agrees(obfuscatedReader, `${HEAD}${delta(value, index)}${OBFUSCATED_TAIL(obfuscation)}`);
      }),
      { seed: 1717, numRuns: 2000 },
    );
  });

  it('equals JSON.parse on damaged chunks (property)', () => {
    const damaged = fc
      .tuple(fc.boolean(), fc.nat({ max: 1e6 }), fc.constantFrom(...DELTAS), fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([obfuscated, index, delta, value, position, cut, insert]) => {
        const data = `${HEAD}${delta(value, index)}${obfuscated ? OBFUSCATED_TAIL('k3') : TAIL}`;
        const at = position % (data.length + 1);
        return { obfuscated, data: data.slice(0, at) + insert + data.slice(Math.min(data.length, at + cut)) };
      });
    const reader = primed();
    const obfuscatedReader = primed(true);
    fc.assert(
      fc.property(damaged, ({ obfuscated, data }) => {
        agrees(obfuscated ? obfuscatedReader : reader, data);
        // A fresh reader may learn the damaged chunk's envelope: the next chunks must still read right.
        const fresh = new OpenAIChatChunkReader();
        agrees(fresh, data);
        agrees(fresh, data.replace('"content":', '"content":"x","c":'));
        agrees(fresh, `${HEAD}{"content":"next"}${obfuscated ? OBFUSCATED_TAIL('k4') : TAIL}`);
      }),
      { seed: 1818, numRuns: 3000 },
    );
  });
});
