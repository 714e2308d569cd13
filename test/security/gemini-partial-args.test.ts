import { expect } from 'chai';
import { parseJsonPath } from '../../lib/providers/gemini/gemini-json-path';
import { consumeStream } from '../../lib/driver/consume-stream';
import { trackedSource } from '../support/chunk-sources';
import { recordingHandler, type Recorded } from '../support/recording-handler';
import { runIsolated } from './support/run-isolated';

/** One Gemini SSE frame whose only part is `functionCall`. */
function callFrame(functionCall: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ functionCall }] } }] })}\n\n`;
}
const FINISH = `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }] })}\n\n`;

/** Streams the frames, then the finish frame, through `consumeStream`; returns the callbacks. */
async function run(frames: string[]): Promise<{ calls: Recorded[]; status: string }> {
  const handler = recordingHandler();
  const outcome = await consumeStream(trackedSource([...frames, FINISH]), handler, { format: 'gemini' });
  return { calls: handler.calls, status: outcome.status };
}

function completedArguments(calls: readonly Recorded[]): string[] {
  return calls.flatMap((call) => (call.on === 'completeToolCall' ? [call.arguments] : []));
}

function rawData(calls: readonly Recorded[]): string[] {
  return calls.flatMap((call) => (call.on === 'unmappedRawEvent' ? [(call.raw as { data: string }).data] : []));
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

function expectPrototypesUntouched(): void {
  expect(({} as Record<string, unknown>).polluted, 'Object.prototype.polluted').to.equal(undefined);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(PROTOTYPE_NAMES);
  expect(Object.getPrototypeOf({})).to.equal(Object.prototype);
  expect(Object.getOwnPropertyNames(Array.prototype)).to.not.include('polluted');
}

describe('Gemini partialArgs from a hostile server', () => {
  afterEach(() => {
    // Undo any pollution so one failing case does not leak into the rest of the suite.
    delete (Object.prototype as Record<string, unknown>).polluted;
    delete (Array.prototype as unknown as Record<string, unknown>).polluted;
  });

  describe('prototype keys are ordinary own keys', () => {
    // [path, the arguments expected after whole args {"a":{"b":1},"list":[1]} and the value "yes"]
    const cases: Array<[string, string]> = [
      ['$.__proto__.polluted', '{"a":{"b":1},"list":[1],"__proto__":{"polluted":"yes"}}'],
      ['$["__proto__"].polluted', '{"a":{"b":1},"list":[1],"__proto__":{"polluted":"yes"}}'],
      ["$['__proto__']['polluted']", '{"a":{"b":1},"list":[1],"__proto__":{"polluted":"yes"}}'],
      ['$.a.__proto__.polluted', '{"a":{"b":1,"__proto__":{"polluted":"yes"}},"list":[1]}'],
      ['$.list[1].__proto__.polluted', '{"a":{"b":1},"list":[1,{"__proto__":{"polluted":"yes"}}]}'],
      ['$.constructor.prototype.polluted', '{"a":{"b":1},"list":[1],"constructor":{"prototype":{"polluted":"yes"}}}'],
      ['$.a.constructor.prototype.polluted', '{"a":{"b":1,"constructor":{"prototype":{"polluted":"yes"}}},"list":[1]}'],
      ['$.__proto__', '{"a":{"b":1},"list":[1],"__proto__":"yes"}'],
      ['$.toString', '{"a":{"b":1},"list":[1],"toString":"yes"}'],
      ['$.hasOwnProperty.polluted', '{"a":{"b":1},"list":[1],"hasOwnProperty":{"polluted":"yes"}}'],
    ];
    for (const [path, expected] of cases) {
      it(`keeps ${path} an own key after whole args, in the same functionCall`, async () => {
        const { calls, status } = await run([callFrame({ name: 'f', args: { a: { b: 1 }, list: [1] }, partialArgs: [{ jsonPath: path, stringValue: 'yes' }], willContinue: true }), callFrame({})]);
        expectPrototypesUntouched();
        expect(status).to.equal('completed');
        expect(completedArguments(calls)).to.deep.equal([expected]);
      });
    }

    it('keeps __proto__ an own key after whole args, in a later chunk of the call', async () => {
      const { calls } = await run([
        callFrame({ name: 'f', args: { a: { b: 1 }, list: [1] }, willContinue: true }),
        callFrame({ partialArgs: [{ jsonPath: '$.__proto__.polluted', stringValue: 'yes' }], willContinue: true }),
        callFrame({ partialArgs: [{ jsonPath: '$.__proto__.polluted', stringValue: '!' }], willContinue: true }),
        callFrame({}),
      ]);
      expectPrototypesUntouched();
      expect(completedArguments(calls)).to.deep.equal(['{"a":{"b":1},"list":[1],"__proto__":{"polluted":"yes!"}}']);
    });

    it('keeps a __proto__ key the whole args already had, and continues it', async () => {
      const { calls } = await run([
        `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"__proto__":{"x":"a"}},"partialArgs":[{"jsonPath":"$.__proto__.polluted","stringValue":"yes"}],"willContinue":true}}]}}]}\n\n`,
        callFrame({}),
      ]);
      expectPrototypesUntouched();
      expect(completedArguments(calls)).to.deep.equal(['{"__proto__":{"x":"a","polluted":"yes"}}']);
    });

    it('streams __proto__ and constructor keys as ordinary members when no whole args came first', async () => {
      const { calls } = await run([
        callFrame({ name: 'f', partialArgs: [{ jsonPath: '$.__proto__.polluted', stringValue: 'y', willContinue: true }], willContinue: true }),
        callFrame({ partialArgs: [{ jsonPath: '$.__proto__.polluted', stringValue: 'es' }], willContinue: true }),
        callFrame({ partialArgs: [{ jsonPath: '$.constructor.prototype.polluted', boolValue: true }], willContinue: true }),
        callFrame({}),
      ]);
      expectPrototypesUntouched();
      const expected = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":true}}}';
      const fragments = calls.flatMap((call) => (call.on === 'partialToolCall' ? [call.partialArguments] : []));
      expect({ args: completedArguments(calls), fragments: fragments.join('') }).to.deep.equal({ args: [expected], fragments: expected });
    });
  });

  describe('array indexes are bounded by the array, not by the number sent', () => {
    it('refuses an index past the end of an array: the arguments stay valid and the chunk surfaces raw', async () => {
      const skip = callFrame({ partialArgs: [{ jsonPath: '$.a[5]', numberValue: 5 }], willContinue: true });
      const { calls, status } = await run([
        callFrame({ name: 'f', partialArgs: [{ jsonPath: '$.a[0]', numberValue: 0 }], willContinue: true }),
        skip,
        callFrame({ partialArgs: [{ jsonPath: '$.a[1]', numberValue: 1 }], willContinue: true }),
        callFrame({}),
      ]);
      expect(status).to.equal('completed');
      expect(completedArguments(calls)).to.deep.equal(['{"a":[0,1]}']);
      expect(rawData(calls)).to.include(skip.slice('data: '.length, -2));
    });

    it('surfaces raw a chunk whose refused value shares it with a completed call', async () => {
      const frame = callFrame({ name: 'f', args: { a: [] }, partialArgs: [{ jsonPath: '$.a[3]', stringValue: 'x' }] });
      const { calls } = await run([frame]);
      expect(completedArguments(calls)).to.deep.equal(['{"a":[]}']);
      expect(rawData(calls)).to.include(frame.slice('data: '.length, -2));
    });

    it('parses no index larger than an array can have', () => {
      expect([parseJsonPath('$.a[4294967294]'), parseJsonPath('$.a[4294967295]'), parseJsonPath(`$.a[${'9'.repeat(400)}]`)]).to.deep.equal([['a', 4294967294], null, null]);
    });

    it('handles 200-byte frames naming huge indexes in bounded time and memory (isolated)', async function () {
      this.timeout(60_000);
      const script = `
        const { consumeStream } = require(${JSON.stringify(require.resolve('../../lib/driver/consume-stream'))});
        const frame = (call) => 'data: ' + JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ functionCall: call }] } }] }) + '\\n\\n';
        const finish = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}\\n\\n';
        const cases = {
          streamed: [frame({ name: 'f', partialArgs: [{ jsonPath: '$.a[100000000]', stringValue: 'x' }], willContinue: true }), frame({})],
          afterElements: [frame({ name: 'f', partialArgs: [{ jsonPath: '$.a[0]', numberValue: 0 }], willContinue: true }),
                          frame({ partialArgs: [{ jsonPath: '$.a[4294967294]', numberValue: 1 }], willContinue: true }), frame({})],
          seeded: [frame({ name: 'f', args: { a: [1] }, partialArgs: [{ jsonPath: '$.a[100000000]', numberValue: 2 }], willContinue: true }), frame({})],
          nested: [frame({ name: 'f', partialArgs: [{ jsonPath: '$.a[0][99999999].b[100000000000000000000]', nullValue: 'NULL_VALUE' }], willContinue: true }), frame({})],
        };
        (async () => {
          const result = {};
          for (const [name, frames] of Object.entries(cases)) {
            const seen = { args: [], raw: 0, terminal: [] };
            async function* source() { for (const f of [...frames, finish]) yield f; }
            await consumeStream(source(), {
              onCompleteToolCall: (c) => seen.args.push(c.toolExecutionRequest.arguments),
              onUnmappedRawEvent: () => seen.raw++,
              onCompleteResponse: () => seen.terminal.push('complete'),
              onError: (e) => seen.terminal.push(e.name + ': ' + e.message),
            }, { format: 'gemini' });
            result[name] = seen;
          }
          console.log(JSON.stringify(result));
        })();
      `;
      const outcome = await runIsolated(script, { maxOldSpaceMb: 64, timeoutMs: 30_000 });
      expect({ timedOut: outcome.timedOut, code: outcome.code, stderr: outcome.stderr.slice(0, 500) }).to.deep.equal({ timedOut: false, code: 0, stderr: '' });
      expect(JSON.parse(outcome.stdout)).to.deep.equal({
        streamed: { args: ['{}'], raw: 2, terminal: ['complete'] },
        afterElements: { args: ['{"a":[0]}'], raw: 2, terminal: ['complete'] },
        seeded: { args: ['{"a":[1]}'], raw: 2, terminal: ['complete'] },
        nested: { args: ['{}'], raw: 2, terminal: ['complete'] },
      });
    });
  });

  describe('cost is linear in the bytes sent (isolated)', () => {
    it('parses and places paths, deep or long, in time that grows about linearly', async function () {
      this.timeout(60_000);
      const script = `
        const { PartialArgsAssembler } = require(${JSON.stringify(require.resolve('../../lib/providers/gemini/partial-args-assembler'))});
        // The best of three runs, each after a full collection: garbage left by the previous run
        // must not pass for growth.
        function time(build, n) {
          const args = build(n);
          let best = Infinity;
          let length = 0;
          for (let run = 0; run < 3; run++) {
            global.gc();
            const assembler = new PartialArgsAssembler();
            const start = process.hrtime.bigint();
            for (const arg of args) if (assembler.apply(arg) === null) throw new Error('refused ' + JSON.stringify(arg).slice(0, 80));
            assembler.close();
            length = assembler.toJson().length;
            best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
          }
          return { ms: best, length };
        }
        const shapes = {
          deepPath: (n) => [{ jsonPath: '$' + '.k'.repeat(n), stringValue: 'x' }],
          quotedKey: (n) => [{ jsonPath: "$['" + "\\\\'a".repeat(n) + "']", stringValue: 'x' }],
          longArray: (n) => Array.from({ length: n }, (_, i) => ({ jsonPath: '$.a[' + i + ']', numberValue: i })),
          stringPieces: (n) => Array.from({ length: n }, () => ({ jsonPath: '$.s', stringValue: 'abc', willContinue: true })),
          deepArrays: (n) => [{ jsonPath: '$.a' + '[0]'.repeat(n), stringValue: 'x' }],
        };
        const result = {};
        for (const [name, build] of Object.entries(shapes)) {
          time(build, 2000);
          const small = time(build, 2000);
          const large = time(build, 64000);
          result[name] = { ratio: large.ms / Math.max(small.ms, 2), grew: large.length > small.length };
        }
        console.log(JSON.stringify(result));
      `;
      const outcome = await runIsolated(script, { maxOldSpaceMb: 512, timeoutMs: 50_000 });
      expect({ timedOut: outcome.timedOut, code: outcome.code, stderr: outcome.stderr.slice(0, 500) }).to.deep.equal({ timedOut: false, code: 0, stderr: '' });
      const result = JSON.parse(outcome.stdout) as Record<string, { ratio: number; grew: boolean }>;
      expect(Object.keys(result)).to.have.length(5);
      for (const [shape, { ratio, grew }] of Object.entries(result)) {
        expect(grew, shape).to.equal(true);
        // 32x the input: linear is about 32 (a few times that once the heap outgrows the young
        // generation, as deep structures do), quadratic about 1024.
        expect(ratio, `${shape}: time for 32n over time for n`).to.be.below(320);
      }
    });
  });
});
