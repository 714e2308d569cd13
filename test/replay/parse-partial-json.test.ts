import { expect } from 'chai';
import { JsonSyntaxError } from '../../lib/replay/json-syntax-error';
import { parsePartialJson } from '../../lib/replay/parse-partial-json';
import { ROOT, runIsolated } from '../security/support/run-isolated';

// Each row: a partial text and the value it already determines, worked out by hand.
const determined: ReadonlyArray<readonly [string, string, unknown]> = [
  ['nothing yet', '', undefined],
  ['only whitespace', ' \t\r\n', undefined],
  ['a lone minus', '-', undefined],
  ['a cut true', 't', undefined],
  ['a cut null', 'nu', undefined],
  ['a cut false', 'fals', undefined],
  ['a number waiting for its fraction', '1.', undefined],
  ['a number waiting for its exponent', '1e', undefined],
  ['a number waiting for its exponent digits', '1e+', undefined],
  ['an opening quote', '"', ''],
  ['a cut string', '"ab', 'ab'],
  ['a string cut after a backslash', '"a\\', 'a'],
  ['a string cut inside \\u', '"a\\u00', 'a'],
  ['a string with a complete escape', '"a\\n\\u0041', 'a\nA'],
  ['a string cut after a high surrogate escape', '"x\\uD83D', 'x'],
  ['a string cut between the escapes of a pair', '"x\\uD83D\\', 'x'],
  ['a string cut inside the low surrogate escape', '"x\\uD83D\\uDE0', 'x'],
  ['a string with a complete escaped pair', '"x\\uD83D\\uDE00', 'x\u{1F600}'],
  ['a string cut after a raw high surrogate', '"x\uD83D', 'x'],
  ['a string with a raw pair', '"x\uD83D\uDE00', 'x\u{1F600}'],
  ['a lone high surrogate followed by more text', '"\\uD83Dx', '\uD83Dx'],
  ['a complete string with a lone surrogate, as JSON.parse', '"\\uD83D"', '\uD83D'],
  ['a bare number: a complete JSON text', '12', 12],
  ['a bare number and whitespace', '12 ', 12],
  ['a number at the end of an array', '[12', []],
  ['a number and a comma', '[12,', [12]],
  ['a number and whitespace in an array', '[12 ', [12]],
  ['a minus in an array', '[-', []],
  ['a negative zero', '[-0,', [-0]],
  ['a number with fraction and exponent', '[1.5e3]', [1500]],
  ['a number in an object, at the end', '{"a":12', {}],
  ['a number in an object, then whitespace', '{"a":12 ', { a: 12 }],
  ['a cut literal in an array', '[tr', []],
  ['a complete true in an array', '[true', [true]],
  ['a complete null in an array', '[null', [null]],
  ['a cut null in an object', '{"a":nul', {}],
  ['a complete false in an object', '{"a":false', { a: false }],
  ['an opening brace', '{', {}],
  ['a key that has just begun', '{"', {}],
  ['a key still streaming', '{"ke', {}],
  ['a key without its colon', '{"key"', {}],
  ['a key without its value', '{"key":', {}],
  ['a key and whitespace', '{"key": ', {}],
  ['a string value just begun', '{"key": "', { key: '' }],
  ['a string value cut', '{"key": "va', { key: 'va' }],
  ['a complete string value', '{"a":"x"', { a: 'x' }],
  ['a second key still streaming', '{"a":1,"b', { a: 1 }],
  ['a comma after a member', '{"a":1,', { a: 1 }],
  ['an array value just opened', '{"a": [', { a: [] }],
  ['nested containers', '{"a": {"b": [1, {"c": "d', { a: { b: [1, { c: 'd' }] } }],
  ['an object in an array', '[{', [{}]],
  ['an array in an array', '[[', [[]]],
  ['strings in an array', '["a","b', ['a', 'b']],
  ['a complete text with whitespace everywhere', ' {\n "a" : [ 1 , "x" , null ] ,\t"b":{}}\r\n', { a: [1, 'x', null], b: {} }],
];

// Each row: a text that can never become valid JSON and the position where it broke.
const broken: ReadonlyArray<readonly [string, string, number]> = [
  ['a bracket closing a brace', '{]', 1],
  ['two commas', '[1,,', 3],
  ['a trailing comma in an array', '[1,]', 3],
  ['a trailing comma in an object', '{"a":1,}', 7],
  ['a missing colon', '{"a" 1', 5],
  ['a key that is not a string', '{a', 1],
  ['trailing garbage after a value', '{} x', 3],
  ['a second root value', '1 2', 2],
  ['a closing brace too many', '{"a":1}}', 7],
  ['a leading zero', '01', 1],
  ['a leading zero in an array', '[01', 2],
  ['a bad escape', '"\\x', 2],
  ['a bad hex digit', '"\\u12g', 5],
  ['a raw control character in a string', '"a\u0001', 2],
  ['a misspelled true', 'trux', 3],
  ['NaN', 'NaN', 0],
  ['a misspelled null', 'nan', 1],
  ['Infinity', 'Infinity', 0],
  ['a minus without digits', '-a', 1],
  ['a fraction without digits', '1.e', 2],
  ['an exponent without digits', '1e+x', 3],
  ['a single-quoted string', "'a'", 0],
  ['a byte-order mark', '\uFEFF{}', 0],
];

describe('parsePartialJson', () => {
  describe('determined values of partial texts', () => {
    for (const [name, text, expected] of determined) {
      it(`${name}: ${JSON.stringify(text)}`, () => {
        const value = parsePartialJson(text);
        expect(value).to.deep.equal(expected);
        if (typeof expected === 'number') expect(Object.is(value, expected)).to.equal(true, 'same number, -0 included');
      });
    }
  });

  describe('texts that can never become JSON', () => {
    for (const [name, text, position] of broken) {
      it(`throws naming position ${position} for ${name}: ${JSON.stringify(text)}`, () => {
        expect(() => JSON.parse(text), 'JSON.parse agrees the text is invalid').to.throw(SyntaxError);
        let caught: unknown;
        try {
          parsePartialJson(text);
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(SyntaxError);
        expect(JsonSyntaxError.isInstance(caught)).to.equal(true);
        expect((caught as JsonSyntaxError).position).to.equal(position);
        expect((caught as Error).message).to.match(new RegExp(`^Invalid JSON at position ${position}: expected .+, got `));
      });
    }

    it('stops at the first error: nothing partial is returned', () => {
      expect(() => parsePartialJson('{"a": "long value", ]')).to.throw(JsonSyntaxError, 'position 20: expected a string key, got "]"');
    });

    it('never treats a text that stops early as an error', () => {
      expect(parsePartialJson('{"a": [1, {"b": ')).to.deep.equal({ a: [1, {}] });
    });

    it('quotes only the offending character of the text', () => {
      const secretish = `{"token": "${'s'.repeat(200)}" x`;
      expect(() => parsePartialJson(secretish)).to.throw(JsonSyntaxError, /^Invalid JSON at position 213: expected ',' or '}', got "x"$/);
    });

    it('rejects a text that is not a string', () => {
      expect(() => parsePartialJson(null as never)).to.throw(TypeError, 'Expected text to be a string, got null');
      expect(() => parsePartialJson(Buffer.from('{}') as never)).to.throw(TypeError, 'Expected text to be a string, got a Uint8Array');
    });
  });

  describe('prototype keys', () => {
    it('keeps __proto__ an own key, as JSON.parse does, and writes to no prototype', () => {
      const text = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
      const value = parsePartialJson(text) as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyNames(value)).to.deep.equal(['__proto__', 'constructor']);
      expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).to.deep.equal({ polluted: true });
      expect(value).to.deep.equal(JSON.parse(text));
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('keeps a __proto__ key own while its value streams', () => {
      const value = parsePartialJson('{"__proto__": "x') as Record<string, unknown>;
      expect(Object.getOwnPropertyNames(value)).to.deep.equal(['__proto__']);
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
    });

    it('makes keys that Object.prototype has own keys', () => {
      const text = '{"toString": 1, "hasOwnProperty": "x", "valueOf": [null';
      const value = parsePartialJson(text) as Record<string, unknown>;
      expect(Object.getOwnPropertyNames(value)).to.deep.equal(['toString', 'hasOwnProperty', 'valueOf']);
      expect(value.valueOf).to.deep.equal([null]);
    });

    it('runs no setter that something put on Object.prototype', () => {
      const calls: unknown[] = [];
      Object.defineProperty(Object.prototype, 'planted', { set: (v: unknown) => calls.push(v), configurable: true });
      try {
        const value = parsePartialJson('{"planted": 1, "b": {"planted": "x"}}') as Record<string, unknown>;
        expect(calls).to.deep.equal([]);
        expect(Object.getOwnPropertyDescriptor(value, 'planted')?.value).to.equal(1);
        expect(Object.getOwnPropertyDescriptor(value.b, 'planted')?.value).to.equal('x');
      } finally {
        delete (Object.prototype as Record<string, unknown>).planted;
      }
    });

    it('lets a repeated key win last, at its first position, as JSON.parse does', () => {
      const text = '{"a": 1, "b": 2, "a": [3]}';
      const value = parsePartialJson(text) as Record<string, unknown>;
      expect(Object.keys(value)).to.deep.equal(['a', 'b']);
      expect(value).to.deep.equal(JSON.parse(text));
    });
  });

  describe('linear time, any depth (isolated)', () => {
    let report: Record<string, { eightSmall: number; large: number; ratio: number; check: boolean }>;

    before(async function () {
      this.timeout(120_000);
      // Each case: one text of size 8n against eight of size n, so both allocate alike and the
      // garbage collector weighs on both; CPU time (not wall time, the machine is shared), the
      // best of five interleaved samples.
      const script = `
        const { parsePartialJson } = require(${JSON.stringify(`${ROOT}/lib/replay/parse-partial-json`)});
        const depthOf = (v) => { let d = 0; while (v !== null && typeof v === 'object') { v = Array.isArray(v) ? v[0] : v.a; d++; } return d; };
        const cases = {
          plainString: [131072, (n) => '{"a":"' + 'x'.repeat(n) + '"}', (v, n) => v.a.length === n],
          escapedString: [131072, (n) => '["' + '\\\\n\\\\u00e9'.repeat(n / 8) + '"]', (v, n) => v[0] === '\\n\\u00e9'.repeat(n / 8)],
          cutString: [131072, (n) => '{"a":"' + 'x'.repeat(n), (v, n) => v.a.length === n],
          deepArrays: [12500, (n) => '['.repeat(n) + ']'.repeat(n), (v, n) => depthOf(v) === n],
          deepObjects: [12500, (n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n), (v, n) => depthOf(v) === n],
          deepCut: [6250, (n) => '[{"a":'.repeat(n) + '"x', (v, n) => depthOf(v) === 2 * n],
        };
        const cpu = (text, times) => {
          gc();
          const kept = [];
          const start = process.cpuUsage();
          for (let k = 0; k < times; k++) kept.push(parsePartialJson(text));
          const used = process.cpuUsage(start);
          return used.user + used.system;
        };
        const report = {};
        for (const [name, [n, make, check]] of Object.entries(cases)) {
          const small = make(n), large = make(8 * n);
          cpu(small, 8);
          cpu(large, 1);
          let s = Infinity, l = Infinity;
          for (let r = 0; r < 5; r++) {
            s = Math.min(s, cpu(small, 8));
            l = Math.min(l, cpu(large, 1));
          }
          report[name] = { eightSmall: s, large: l, ratio: (8 * l) / s, check: check(parsePartialJson(large), 8 * n) };
        }
        console.log(JSON.stringify(report));
      `;
      const run = await runIsolated(script, { maxOldSpaceMb: 512, timeoutMs: 90_000 });
      expect(run.timedOut, 'the isolated run finished').to.equal(false);
      expect(run.code, run.stderr).to.equal(0);
      report = JSON.parse(run.stdout);
    });

    for (const name of ['plainString', 'escapedString', 'cutString', 'deepArrays', 'deepObjects', 'deepCut']) {
      it(`${name}: a text 8 times as long takes well under 30 times as long, and its value is right`, () => {
        const { ratio, check } = report[name];
        expect(check, 'the value of the large text').to.equal(true);
        expect(ratio, JSON.stringify(report[name])).to.be.below(30);
      });
    }
  });
});
