import { expect } from 'chai';
import { readFileSync } from 'fs';
import { join } from 'path';
import fc from 'fast-check';
import sinon from 'sinon';
import { parseOllamaLine } from '../../../lib/providers/ollama/parse-ollama-line';
import { fixturesAvailable } from '../shared/fixture-support';
import { retainedByScript } from '../../support/heap-script';
import { mutateAfterRead } from '../shared/mutate-after-read';

type Outcome = { readonly value: unknown } | { readonly thrown: string };

function outcome(parse: (text: string) => unknown, text: string): Outcome {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { thrown: (error as Error).name };
  }
}

/** Every object in `value` with its path, prototype and own keys in order. */
function shape(value: unknown, path = '$', out: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return out;
  const proto = Object.getPrototypeOf(value) as unknown;
  out.push(`${path} ${proto === Object.prototype ? 'Object' : proto === Array.prototype ? 'Array' : 'other'} ${Object.keys(value).join(',')}`);
  for (const key of Object.keys(value)) shape((value as Record<string, unknown>)[key], `${path}.${key}`, out);
  return out;
}

/** The line parser must be JSON.parse: same value, same prototypes and key order, throws where it throws. */
function agrees(text: string): void {
  const mine = outcome(parseOllamaLine, text);
  const reference = outcome(JSON.parse, text);
  expect(mine, JSON.stringify(text)).to.deep.equal(reference);
  if ('value' in mine && 'value' in reference) {
    expect(shape(mine.value), JSON.stringify(text)).to.deep.equal(shape(reference.value));
    expect(JSON.stringify(mine.value)).to.equal(JSON.stringify(reference.value));
    // Written over, as a mapper may: the next read must not see it.
    mutateAfterRead(mine.value);
  }
}

const CREATED = '2025-07-07T20:22:19.184789Z';
const textLine = (content: string, model = 'qwen3', created = CREATED): string =>
  `{"model":${JSON.stringify(model)},"created_at":${JSON.stringify(created)},"message":{"role":"assistant","content":${JSON.stringify(content)}},"done":false}`;
const thinkingLine = (thinking: string, model = 'qwen3', created = CREATED): string =>
  `{"model":${JSON.stringify(model)},"created_at":${JSON.stringify(created)},"message":{"role":"assistant","content":"","thinking":${JSON.stringify(thinking)}},"done":false}`;

describe('parseOllamaLine', () => {
  it('reads the compact text and thinking lines into what JSON.parse builds', () => {
    expect(parseOllamaLine(textLine('Hé 漢 😀'))).to.deep.equal({
      model: 'qwen3',
      created_at: CREATED,
      message: { role: 'assistant', content: 'Hé 漢 😀' },
      done: false,
    });
    expect(parseOllamaLine(thinkingLine('Hm, 😀'))).to.deep.equal({
      model: 'qwen3',
      created_at: CREATED,
      message: { role: 'assistant', content: '', thinking: 'Hm, 😀' },
      done: false,
    });
  });

  it('builds plain objects as JSON.parse does: Object.prototype, own keys in wire order', () => {
    for (const line of [textLine('plain'), textLine('two\nlines'), thinkingLine('plain'), thinkingLine('a\tb')]) {
      const value = parseOllamaLine(line) as { readonly message: object };
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      expect(Object.getPrototypeOf(value.message)).to.equal(Object.prototype);
      expect(Object.keys(value)).to.deep.equal(['model', 'created_at', 'message', 'done']);
      expect(JSON.stringify(value)).to.equal(line);
      agrees(line);
    }
  });

  it('reads a plain token line without JSON.parse, and only the string literal when it has escapes', () => {
    const parse = sinon.spy(JSON, 'parse');
    try {
      parseOllamaLine(textLine('plain'));
      parseOllamaLine(thinkingLine('plain'));
      expect(parse.callCount).to.equal(0);
      parseOllamaLine(textLine('two\nlines'));
      expect(parse.callCount).to.equal(1);
      expect(parse.lastCall.args[0]).to.equal(String.raw`"two\nlines"`);
      parseOllamaLine(textLine('say "hi"')); // escaped quotes: the string literal alone
      expect(parse.lastCall.args[0]).to.equal(String.raw`"say \"hi\""`);
      const extra = '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a","x":"b"},"done":false}';
      expect(parseOllamaLine(extra)).to.deep.equal({ model: 'q', created_at: 'c', message: { role: 'assistant', content: 'a', x: 'b' }, done: false });
      expect(parse.lastCall.args[0]).to.equal(extra); // a raw quote in the body: the whole line goes to JSON.parse
      const done = '{"model":"qwen3","created_at":"x","message":{"role":"assistant","content":""},"done_reason":"stop","done":true}';
      parseOllamaLine(done);
      expect(parse.lastCall.args[0]).to.equal(done);
    } finally {
      parse.restore();
    }
  });

  it('returns strings of their own: a line kept does not keep the chunk text it was cut from', function () {
    this.timeout(20_000);
    // 300 lines, each cut from a 1 MB text of its own as the decoder cuts them from a chunk, and
    // every line kept: with views into the texts, some 600 MB would stay alive.
    const { retainedMiB, report } = retainedByScript(
      `const { parseOllamaLine } = require(${JSON.stringify(join(__dirname, '../../../lib/providers/ollama/parse-ollama-line'))});`,
      `for (let i = 0; i < 300; i++) {
        const n = String(i).padStart(3, '0');
        const line = '{"model":"a model name of some length ' + n + '","created_at":"2025-07-07T20:22:19.184' + n + 'Z","message":{"role":"assistant","content":"","thinking":"a delta of forty characters, number ' + n + '"},"done":false}';
        kept.push(parseOllamaLine(cutFromChunk(line)));
      }`,
      'kept.filter((l) => l.message.thinking.length === 39).length',
    );
    expect(Number(report[0])).to.equal(300);
    expect(retainedMiB).to.be.below(5);
  });

  it('reads escapes in the strings as JSON does', () => {
    for (const value of ['line\nbreak', 'tab\there', 'back\\slash', 'a\u0001b', '\ud83d\ude00', 'lone \ud800 surrogate', '', '","thinking":"x']) {
      agrees(textLine(value));
      agrees(thinkingLine(value));
      agrees(textLine('x', value));
      agrees(textLine('x', 'qwen3', value));
    }
    agrees('{"model":"q","created_at":"c","message":{"role":"assistant","content":"\\u00e9\\/"},"done":false}');
  });

  it('answers like JSON.parse for near misses: other fields, order, spacing, broken strings', () => {
    const cases = [
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a"},"done":true}',
      '{"model":"q","created_at":"c","message":{"role":"user","content":"a"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a","thinking":"b"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"","thinking":"b","x":1},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a"},"done":false,"x":1}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a"},"done":false} ',
      '{"model":"q", "created_at":"c","message":{"role":"assistant","content":"a"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a\\"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"","thinking":"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"raw\ttab"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"\\x"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"q"q"},"done":false}',
      '{"model":"q\\"","created_at":"c","message":{"role":"assistant","content":"a"},"done":false}',
      '{"model":"q","created_at":"c\\","message":{"role":"assistant","content":"a"},"done":false}',
      '{"model":"q","created_at":"c","message":{"role":"assistant","content":"a"},"done":false}{"done":false}',
      '{"model":"","created_at":"","message":{"role":"assistant","content":""},"done":false}',
      '{"model":"q"}',
      '{"error":"boom"}',
      '[1,2]',
      'not json',
      '',
    ];
    for (const text of cases) agrees(text);
  });

  it('equals JSON.parse on the lines of the recorded Ollama fixtures', function () {
    // Absent fixtures skip here; under CI=true test/providers/shared/recorded-fixtures.test.ts fails the run.
    if (!fixturesAvailable('parseOllamaLine over the recorded Ollama lines')) this.skip();
    const dir = join(__dirname, '../../../../shared/fixtures/ollama');
    for (const name of ['docs-chat-stream-tools.ndjson', 'docs-midstream-error.ndjson', 'sk-parallel-tool-calls.ndjson', 'sk-phi3-text-tail.ndjson']) {
      const lines = readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '');
      expect(lines.length, name).to.be.above(0);
      for (const line of lines) agrees(line);
    }
  });

  it('equals JSON.parse on compact token lines of any strings (property)', () => {
    const any = fc.string({ unit: 'binary' });
    fc.assert(
      fc.property(fc.boolean(), any, any, any, (thinking, value, model, created) => {
        agrees(thinking ? thinkingLine(value, model, created) : textLine(value, model, created));
      }),
      { seed: 1717, numRuns: 2000 },
    );
  });

  it('equals JSON.parse on damaged token lines (property)', () => {
    const damaged = fc
      .tuple(fc.boolean(), fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([thinking, value, position, cut, insert]) => {
        const line = thinking ? thinkingLine(value, 'q', 'c') : textLine(value, 'q', 'c');
        const at = position % (line.length + 1);
        return line.slice(0, at) + insert + line.slice(Math.min(line.length, at + cut));
      });
    fc.assert(fc.property(damaged, agrees), { seed: 1818, numRuns: 3000 });
  });

  it('equals JSON.parse on any string (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), agrees), { seed: 1919, numRuns: 1000 });
  });
});
