import { expect } from 'chai';
import fc from 'fast-check';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { corpus, corpusNote, type CorpusEntry } from './support/fixture-corpus';
import { checkFixture, eachFixture, fuzzedFixtures, replayNote, runsPerFixture } from './support/fuzz-config';
import { expectOneTerminal } from './support/invariants';
import { replay, splitAt, whole, type Call, type Delay, type ErrorSummary, type Hook, type Replay } from './support/replay';
import { HOSTILE_THROWS, ordinaryThrows } from './support/thrown-values';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

/** The values the handler throws: ordinary errors and non-errors, and hostile values (a revoked Proxy, a throwing message getter). */
function thrownValues(): unknown[] {
  return [...ordinaryThrows(), ...HOSTILE_THROWS.map(([, make]) => make())];
}

interface ThrowCase {
  /** Ordinals (among the stream's own callbacks) at which the handler throws. */
  readonly at: readonly number[];
  /** Index into the thrown values, per throw. */
  readonly value: number;
  /** Whether `onError` throws too when it receives a callback error. */
  readonly onErrorThrows: boolean;
  readonly offsets: readonly number[];
  readonly delays: readonly Delay[];
}

function throwCase(fixture: CorpusEntry, callbacks: number): fc.Arbitrary<ThrowCase> {
  return fc.record({
    at: fc.oneof(fc.uniqueArray(fc.nat({ max: callbacks - 1 }), { minLength: 1, maxLength: 8 }), fc.constant([...Array(callbacks).keys()])),
    value: fc.nat({ max: 1000 }),
    onErrorThrows: fc.boolean(),
    offsets: fc.array(fc.nat({ max: fixture.bytes.length }), { maxLength: 8 }),
    delays: fc.array(fc.constantFrom<Delay>(0, 1, 4), { maxLength: 3 }),
  });
}

function isCallbackError(call: Call): boolean {
  return call.on === 'onError' && (call.value as ErrorSummary).callbackName !== undefined;
}

const fixtures = fuzzedFixtures(corpus());

describe(`fuzz: a handler that throws (${replayNote()})${corpusNote('fuzz: throwing handler')}`, () => {
  let watch: UnhandledWatch;
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  const runs = runsPerFixture(fixtures.length);
  it(`goes on after every throw, reports each once as a HandlerCallbackError with the thrown value as cause, and ends with the same message (${runs} cases per fixture)`, async function () {
    this.timeout(0);
    const values = thrownValues();
    await eachFixture(fixtures, async (fixture) => {
      const reference: Replay = await replay(whole(fixture.bytes), fixture.format);
      await checkFixture(
        'handler throws',
        fixture,
        throwCase(fixture, reference.calls.length),
        async (spec) => {
          const mark = watch.escaped.length;
          const throwAt = new Set(spec.at);
          const thrown = new Map<number, unknown>();
          let ordinal = 0;
          const hook: Hook = (_index, call) => {
            if (isCallbackError(call)) return spec.onErrorThrows ? { throws: new Error('onError throws too') } : undefined;
            const own = ordinal++;
            if (!throwAt.has(own)) return undefined;
            const value = values[(spec.value + own) % values.length];
            thrown.set(own, value);
            return { throws: value };
          };
          const run = await replay(splitAt(fixture.bytes, spec.offsets), fixture.format, { hook, delays: spec.delays });

          // The stream's own callbacks are exactly those of the quiet run, each throw followed by its report.
          const expected: Call[] = [];
          reference.calls.forEach((call, own) => {
            expected.push(call);
            if (thrown.has(own) && call.on !== 'onError') expected.push({ on: 'onError', value: { callbackName: call.on } });
          });
          const got = run.calls.map((call) => (isCallbackError(call) ? { on: call.on, value: { callbackName: (call.value as ErrorSummary).callbackName } } : call));
          expect(got).to.deep.equal(expected);
          const causes = run.errors.filter((error) => HandlerCallbackError.isInstance(error)).map((error) => error.cause);
          const expectedCauses = [...thrown].filter(([own]) => reference.calls[own]?.on !== 'onError').map(([, value]) => value);
          expect(causes.length).to.equal(expectedCauses.length);
          causes.forEach((cause, i) => expect(Object.is(cause, expectedCauses[i]), `cause ${i} is the thrown value`).to.equal(true));
          expect(run.outcome.status).to.equal(reference.outcome.status);
          expect(run.message).to.deep.equal(reference.message);
          expectOneTerminal(run, true);
          await watch.settle(mark);
        },
        runs,
      );
    });
    expect(watch.escaped).to.deep.equal([]);
  });
});
