import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { buildReplay, callbackCount, FinalResponseSink, replayChain, replayFloor, replayThroughChain } from '../../bench/callback-replay';
import { chunkedSource } from '../../bench/chunked-source';
import { BenchCorrectnessError, checkExtracted, checkResponse, type Expectation } from '../../bench/check';
import { coldStartTargets, measureColdStart, type ColdStart, type LoadRow } from '../../bench/cold-start';
import { bytesOnlyFloor, parseFloor } from '../../bench/floors';
import { generateTranscript, sha256, type BenchFormat } from '../../bench/generate-transcript';
import { measureHeapInProcess } from '../../bench/heap-process';
import { interleave, type Contender } from '../../bench/measure';
import { subjectOf } from '../../bench/subject';

// The bench is not run by `npm test` (it takes minutes); these tests keep what it measures
// honest: every contender produces the generator's message, the checks can fail, and the
// harness runs and collects as it says.

const FORMATS: readonly BenchFormat[] = ['openai-chat', 'anthropic', 'openai-responses', 'gemini', 'ollama'];
const N = 2_000;

type GcCall = 'minor' | 'major';

/** Replaces `globalThis.gc` (the bench needs `node --expose-gc`) with a recorder while `body` runs. */
async function withRecordedGc<T>(body: (calls: GcCall[]) => Promise<T>): Promise<T> {
  const holder = globalThis as { gc?: unknown };
  const saved = holder.gc;
  const calls: GcCall[] = [];
  holder.gc = (options?: { type?: GcCall }) => calls.push(options?.type ?? 'major');
  try {
    return await body(calls);
  } finally {
    holder.gc = saved;
  }
}

describe('bench harness', () => {
  describe('generateTranscript', () => {
    for (const format of FORMATS) {
      it(`is deterministic for a seed and differs across seeds (${format})`, () => {
        const a = generateTranscript({ format, n: 500, seed: 7 });
        const b = generateTranscript({ format, n: 500, seed: 7 });
        const c = generateTranscript({ format, n: 500, seed: 8 });
        expect(a.bytes.equals(b.bytes)).to.equal(true);
        expect(a.hashes).to.deep.equal(b.hashes);
        expect(a.hashes.text).to.not.equal(c.hashes.text);
      });
    }

    // Each format streams the features its provider really streams, so that the floor and
    // consumeStream both pay for them.
    const FEATURES: Record<'openai-responses' | 'gemini' | 'ollama', readonly string[]> = {
      'openai-responses': [
        'event: response.created\n',
        '"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_',
        '"type":"response.reasoning_summary_text.delta"',
        '"type":"response.output_text.delta"',
        '"type":"response.function_call_arguments.delta"',
        '"type":"response.function_call_arguments.done"',
        '"type":"response.output_item.done"',
        '"type":"response.completed"',
        '"usage":{"input_tokens":',
      ],
      gemini: ['"thought":true', '"thoughtSignature":', '"functionCall":{"id":', '"usageMetadata":{', '"finishReason":"STOP"', '"thoughtsTokenCount":'],
      ollama: ['"thinking":', '"tool_calls":[{"id":', '"done":false}\n', '"done_reason":"stop","done":true', '"eval_count":'],
    };
    for (const [format, features] of Object.entries(FEATURES) as [keyof typeof FEATURES, readonly string[]][]) {
      it(`streams the features of ${format}`, () => {
        const transcript = generateTranscript({ format, n: 200, seed: 7 });
        const body = transcript.bytes.toString('utf8');
        for (const feature of features) expect(body, feature).to.include(feature);
        expect(transcript.expected.toolCalls).to.have.length(3);
        expect(transcript.expected.reasoning.length).to.be.greaterThan(0);
      });
    }

    it('frames Ollama as one JSON object per line, and Gemini with one thought signature on text and one on a call', () => {
      const ollama = generateTranscript({ format: 'ollama', n: 100, seed: 9 }).bytes.toString('utf8');
      const lines = ollama.split('\n');
      expect(lines.pop()).to.equal('');
      for (const line of lines) expect(() => JSON.parse(line) as unknown).to.not.throw();
      expect(lines).to.have.length(20 + 100 + 2);
      const gemini = generateTranscript({ format: 'gemini', n: 100, seed: 9 }).bytes.toString('utf8');
      expect(gemini.split('"thoughtSignature":').length - 1).to.equal(2);
    });

    it('rejects a size that is not a positive integer', () => {
      expect(() => generateTranscript({ format: 'anthropic', n: 0 })).to.throw(TypeError, /n to be an integer ≥ 1/);
    });
  });

  for (const format of FORMATS) {
    describe(`every contender yields the generator's message (${format}, N=${N})`, () => {
      const transcript = generateTranscript({ format, n: N, seed: 0x5eed });
      const subject = subjectOf(transcript, 16 * 1024);
      const replay = buildReplay(transcript);

      it('replays one callback per generator step, through a chain that maps them all', () => {
        expect(callbackCount(replay)).to.equal(transcript.steps.length);
        checkResponse('chain', replayThroughChain(replay), subject.expectation);
      });

      it('keeps the replayed chain when asked, with the same final response', () => {
        const replayed = replayChain(replay);
        expect(replayed.chain).to.be.an('object');
        checkResponse('resident chain', replayed.response, subject.expectation);
      });

      it('the callback floor extracts the same strings', () => {
        checkExtracted('callback floor', replayFloor(replay), subject.expectation);
      });

      it('consumeStream over the chunked bytes gives the expected final response', async () => {
        const sink = new FinalResponseSink();
        const outcome = await consumeStream(chunkedSource(subject.chunks), sink, { format });
        expect(outcome.status).to.equal('completed');
        checkResponse('end-to-end', sink.take(), subject.expectation);
      });

      it('the parse floor extracts the same strings', async () => {
        checkExtracted('parse floor', await parseFloor(format, chunkedSource(subject.chunks)), subject.expectation);
      });

      it('the bytes-only floor reads every frame', async () => {
        // The data of every frame, without the framing: most of the body, never more than it.
        const length = await bytesOnlyFloor(chunkedSource(subject.chunks), format);
        expect(length)
          .to.be.greaterThan(transcript.bytes.length / 2)
          .and.below(transcript.bytes.length);
      });
    });
  }

  describe('the checks', () => {
    const transcript = generateTranscript({ format: 'openai-chat', n: 300, seed: 3 });
    const { expectation } = subjectOf(transcript, 4096);
    const response = replayThroughChain(buildReplay(transcript));

    it('reject a text that differs from the generator', () => {
      const wrong: Expectation = { ...expectation, hashes: { ...expectation.hashes, text: sha256('something else') } };
      expect(() => checkResponse('here', response, wrong)).to.throw(BenchCorrectnessError, /here: text does not match/);
    });

    it('reject a missing tool call', () => {
      const wrong: Expectation = { ...expectation, toolCalls: expectation.toolCalls.slice(1) };
      expect(() => checkResponse('here', response, wrong)).to.throw(BenchCorrectnessError, /tool calls, expected/);
    });

    it('reject reasoning that differs in the floor', () => {
      const extracted = { ...replayFloor(buildReplay(transcript)), reasoning: 'nope' };
      expect(() => checkExtracted('floor', extracted, expectation)).to.throw(BenchCorrectnessError, /reasoning does not match/);
    });
  });

  describe('measureHeapInProcess', () => {
    it('measures one stream in a process of its own and reports its heap against the limit', async function () {
      this.timeout(60_000);
      const row = await measureHeapInProcess({ format: 'anthropic', n: 3_000, seed: 0x5eed, chunkSize: 16 * 1024, warmupN: 500 });
      expect(row).to.include({ format: 'anthropic', n: 3_000 });
      expect(row.finalMessageBytes).to.be.greaterThan(3_000);
      expect(row.limitBytes).to.equal(2 * row.finalMessageBytes + 32 * 2 ** 20);
      expect(row.peakBytes).to.be.greaterThan(0).and.below(row.limitBytes);
      expect(row.retainedAfterBytes).to.be.below(2 ** 20);
    });
  });

  describe('measureColdStart', () => {
    it('times fresh processes loading the build and the official SDKs, by require and by import, against node -e 0', function () {
      this.timeout(120_000);
      const cold = measureColdStart(`${__dirname}/../..`, 2, 0);
      expect({ module: cold.module, importModule: cold.importModule }).to.deep.equal({ module: 'dist/cjs/index.cjs', importModule: 'dist/node/index.js' });
      expect(cold.loads.map((l) => `${l.how} ${l.package}`)).to.deep.equal([
        'require partstream',
        'import partstream',
        'require openai',
        'import openai',
        'require @anthropic-ai/sdk',
        'import @anthropic-ai/sdk',
      ]);
      expect(cold.require.samples).to.have.length(2);
      expect(cold.floor.samples).to.have.length(2);
      expect(cold.importFloor.samples).to.have.length(2);
      expect(cold.floor.median).to.be.greaterThan(0);
      expect(cold.differenceMs).to.be.closeTo(cold.require.median - cold.floor.median, 1e-9);
      expect(cold.ratio).to.be.closeTo(cold.require.median / cold.floor.median, 1e-9);
      for (const load of cold.loads) {
        expect([load.inProcess.samples, load.inProcessCpu.samples, load.process.samples].map((s) => s.length)).to.deep.equal([2, 2, 2]);
        // The load is part of its process: every in-process time is above zero and below the whole process's.
        load.inProcess.samples.forEach((inside, i) => expect(inside).to.be.greaterThan(0).and.below(load.process.samples[i]));
        const floor = load.how === 'require' ? cold.floor : cold.importFloor;
        expect(load.overFloorMs).to.be.closeTo(load.process.median - floor.median, 1e-9);
      }
      expect(cold.loads[0].process).to.deep.equal(cold.require);
    });
  });

  describe('coldStartTargets', () => {
    const s = (median: number, min = median): { median: number; min: number; max: number; samples: number[] } => ({ median, min, max: median, samples: [median] });
    const load = (name: LoadRow['package'], how: LoadRow['how'], cpu: number, wall: number): LoadRow => ({
      package: name,
      how,
      inProcess: s(wall, wall - 1),
      inProcessCpu: s(cpu, cpu - 1),
      process: s(100),
      overFloorMs: 20,
      ratioToFloor: 1.25,
    });
    const cold = (ownCpu: number, ownWall: number): ColdStart => ({
      module: 'dist/cjs/index.cjs',
      importModule: 'dist/node/index.js',
      build: 'dist/ is up to date',
      runs: 1,
      require: s(100),
      floor: s(80),
      importFloor: s(80),
      differenceMs: 20,
      ratio: 1.25,
      loads: [load('partstream', 'require', ownCpu, ownWall), load('openai', 'require', 40, 60)],
    });

    it('judges the CPU time of require() in process against the limit; wall-clock time and the SDK ratio are reported only', () => {
      const rows = (c: ColdStart): [string, number, boolean, boolean][] => coldStartTargets(c, 30).map((t) => [t.name, t.value, t.pass, t.reportedOnly === true]);
      // A busy machine: 12 ms of CPU, 45 ms of wall-clock time.
      expect(rows(cold(12, 45))).to.deep.equal([
        ["cold start: require('partstream') in process, CPU ms", 12, true, false],
        ["cold start: require('partstream') in process, wall ms", 45, false, true],
        ["cold start: require('partstream') added to a process (medians), wall ms", 20, true, true],
        ["cold start: require('partstream') ÷ require('openai'), in process, CPU", 0.3, true, true],
      ]);
      expect(coldStartTargets(cold(31, 25), 30)[0]).to.include({ value: 31, valueFromMins: 30, pass: false });
    });
  });

  describe('interleave', () => {
    function counting(name: string, log: string[]): Contender<number> {
      let runs = 0;
      return {
        name,
        run: () => {
          log.push(name);
          return ++runs;
        },
        check: (result) => {
          if (result !== runs) throw new Error(`${name}: result ${result} after ${runs} runs`);
        },
      };
    }

    it('rotates the contenders each round and times only the rounds after the warm-up', async () => {
      const log: string[] = [];
      const timings = await withRecordedGc(() => interleave([counting('a', log), counting('b', log), counting('c', log)], { warmup: 1, reps: 2, gc: 'minor' }));
      expect(log).to.deep.equal(['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
      expect([...timings.keys()]).to.deep.equal(['a', 'b', 'c']);
      for (const { wall, cpu } of timings.values()) {
        expect(wall.samples).to.have.length(2);
        expect(cpu.samples).to.have.length(2);
      }
    });

    it('collects before each run and times a minor collection after it', async () => {
      const log: string[] = [];
      const calls = await withRecordedGc(async (gcCalls) => {
        await interleave([counting('a', log)], { warmup: 0, reps: 2, gc: 'full' });
        return gcCalls;
      });
      // 'full' is two major collections; then the minor one inside the timing.
      expect(calls).to.deep.equal(['major', 'major', 'minor', 'major', 'major', 'minor']);
    });

    it('settling starts each round with a full collection and an untimed run of every contender', async () => {
      const log: string[] = [];
      const { calls, timings } = await withRecordedGc(async (gcCalls) => {
        const result = await interleave([counting('a', log), counting('b', log)], { warmup: 0, reps: 1, gc: 'minor', settleEachRound: true });
        return { calls: gcCalls, timings: result };
      });
      expect(log).to.deep.equal(['a', 'b', 'a', 'b']);
      expect(calls).to.deep.equal(['major', 'major', 'minor', 'minor', 'minor', 'minor']);
      expect(timings.get('a')?.wall.samples).to.have.length(1);
    });

    it('refuses two contenders of the same name', async () => {
      const log: string[] = [];
      let error: unknown;
      try {
        await withRecordedGc(() => interleave([counting('a', log), counting('a', log)], { warmup: 0, reps: 1, gc: 'minor' }));
      } catch (caught) {
        error = caught;
      }
      expect(error)
        .to.be.instanceOf(Error)
        .with.property('message')
        .that.matches(/names must be unique: a, a/);
      expect(log).to.deep.equal([]);
    });

    it('says how to run it when the collector is not exposed', async () => {
      const holder = globalThis as { gc?: unknown };
      const saved = holder.gc;
      holder.gc = undefined;
      try {
        let error: unknown;
        try {
          await interleave([counting('a', [])], { warmup: 0, reps: 1, gc: 'minor' });
        } catch (caught) {
          error = caught;
        }
        expect(error)
          .to.be.instanceOf(Error)
          .with.property('message')
          .that.matches(/node --expose-gc/);
      } finally {
        holder.gc = saved;
      }
    });
  });
});
