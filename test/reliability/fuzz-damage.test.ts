import { expect } from 'chai';
import fc from 'fast-check';
import { anyDamage, applyDamage, damageArbitraries, type Damage, type DamageType } from './support/damage';
import { corpus, corpusNote } from './support/fixture-corpus';
import { checkFixture, eachFixture, fuzzedFixtures, replayNote, runsPerFixture } from './support/fuzz-config';
import { expectNothingLost, expectOneTerminal, isTerminal, partials } from './support/invariants';
import { referenceRuns, replay, splitAt, type Call, type Delay, type ErrorSummary, type Hook, type Replay } from './support/replay';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

const fixtures = fuzzedFixtures(corpus());

/** A damaged body, delivered in random pieces with random small delays. */
function damagedRun(damage: fc.Arbitrary<Damage>): fc.Arbitrary<{ damage: Damage; offsets: number[]; delays: Delay[]; auto: boolean }> {
  return fc.record({
    damage,
    offsets: fc.array(fc.nat({ max: 1 << 22 }), { maxLength: 12 }),
    delays: fc.array(fc.constantFrom<Delay>(0, 0, 1, 4), { maxLength: 4 }),
    // Read with format 'auto' sometimes: the damage may then hit the format recognition too.
    auto: fc.boolean(),
  });
}

/** The invariants every damaged stream keeps. */
function expectSurvived(run: Replay): void {
  expectOneTerminal(run);
  expectNothingLost(run);
  expect(
    run.calls.filter((call) => call.on === 'onError' && (call.value as { callbackName?: string }).callbackName !== undefined),
    'callback errors without a throwing callback',
  ).to.deep.equal([]);
}

const CLASSES: ReadonlyArray<{ type: DamageType; title: string; share: number; extra?: (run: Replay, reference: Replay) => void }> = [
  {
    type: 'truncate',
    title: 'truncation at any byte',
    share: 1,
    extra: (run, reference) => {
      // Cut anywhere, the stream delivers a prefix of what the whole stream delivered.
      const got = partials(run.calls);
      expect(got, 'partial callbacks are a prefix of the whole stream’s').to.deep.equal(partials(reference.calls).slice(0, got.length));
    },
  },
  { type: 'drop-frame', title: 'a dropped frame', share: 1 },
  { type: 'duplicate-frame', title: 'a duplicated frame', share: 1 },
  { type: 'garbage-line', title: 'a garbage line', share: 1 },
  { type: 'invalid-json', title: 'invalid JSON in a data line', share: 1 },
  { type: 'wrong-type', title: 'a field of the wrong type', share: 1 },
  { type: 'unknown-event', title: 'an unknown event type', share: 1 },
  { type: 'changed-string', title: 'a changed string (an id, a type, a name, a text)', share: 1 },
  { type: 'huge-frame', title: 'a huge (2 MB) frame', share: 0.05 },
  { type: 'stray-bytes', title: 'stray bytes (invalid UTF-8, a lone CR or LF, NUL, a BOM) anywhere', share: 1 },
];

describe(`fuzz: damaged streams (${replayNote()})${corpusNote('fuzz: damaged streams')}`, () => {
  let watch: UnhandledWatch;
  const referenceOf = referenceRuns();
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  for (const damageClass of CLASSES) {
    const runs = runsPerFixture(fixtures.length, damageClass.share);
    it(`survives ${damageClass.title}: one terminal callback, nothing delivered lost, nothing escapes (${runs} case(s) per fixture)`, async function () {
      this.timeout(0);
      await eachFixture(fixtures, async (fixture) => {
        const reference = await referenceOf(fixture);
        await checkFixture(
          `damage: ${damageClass.type}`,
          fixture,
          damagedRun(damageArbitraries[damageClass.type]),
          async ({ damage, offsets, delays, auto }) => {
            const mark = watch.escaped.length;
            const bytes = applyDamage(fixture.bytes, fixture.format, damage);
            const run = await replay(
              splitAt(
                bytes,
                offsets.map((offset) => offset % (bytes.length + 1)),
              ),
              auto ? 'auto' : fixture.format,
              { delays },
            );
            expectSurvived(run);
            damageClass.extra?.(run, reference);
            await watch.settle(mark);
          },
          runs,
        );
      });
      expect(watch.escaped).to.deep.equal([]);
    });
  }

  const chaosRuns = runsPerFixture(fixtures.length);
  it(`survives several damages at once with a handler that throws and may cancel: at most one terminal callback, none after a cancel, each throw reported once, nothing delivered lost (${chaosRuns} case(s) per fixture)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const callbacks = (await referenceOf(fixture)).calls.length + 2;
      await checkFixture(
        'damage: chaos',
        fixture,
        fc.record({
          damages: fc.array(anyDamage, { minLength: 1, maxLength: 4 }),
          offsets: fc.array(fc.nat({ max: 1 << 22 }), { maxLength: 12 }),
          delays: fc.array(fc.constantFrom<Delay>(0, 0, 1, 4), { maxLength: 4 }),
          throwAt: fc.uniqueArray(fc.nat({ max: callbacks }), { maxLength: 6 }),
          cancelAt: fc.option(fc.nat({ max: callbacks }), { nil: null }),
          cancelHow: fc.constantFrom<'handle' | 'signal'>('handle', 'signal'),
        }),
        async ({ damages, offsets, delays, throwAt, cancelAt, cancelHow }) => {
          const mark = watch.escaped.length;
          let bytes = fixture.bytes;
          for (const damage of damages) bytes = applyDamage(bytes, fixture.format, damage);
          const throws = new Set(throwAt);
          const isCallbackError = (call: Call): boolean => call.on === 'onError' && (call.value as ErrorSummary).callbackName !== undefined;
          let own = 0;
          const hook: Hook = (_ordinal, call) => {
            if (isCallbackError(call)) return undefined;
            const at = own++;
            const cancel = at === cancelAt ? { cancel: cancelHow } : {};
            return throws.has(at) ? { ...cancel, throws: new Error(`throw at ${at}`) } : at === cancelAt ? cancel : undefined;
          };
          const run = await replay(
            splitAt(
              bytes,
              offsets.map((offset) => offset % (bytes.length + 1)),
            ),
            fixture.format,
            { delays, hook },
          );

          const ownCalls = run.calls.filter((call) => !isCallbackError(call));
          const terminalAt = ownCalls.findIndex(isTerminal);
          const cancelledFirst = cancelAt !== null && cancelAt < ownCalls.length && (terminalAt < 0 || cancelAt < terminalAt);
          if (cancelledFirst) {
            expect(ownCalls.length, 'nothing after the cancelling callback').to.equal((cancelAt as number) + 1);
            expect(run.calls[run.calls.length - 1], 'the cancelling callback is the last one').to.equal(ownCalls[cancelAt as number]);
            expect(run.outcome.status).to.equal('cancelled');
          } else {
            expectOneTerminal(run, true);
          }
          // Each throw (before any cancel, from a callback other than onError) is reported once, right after its callback.
          const expectedReports: string[] = [];
          ownCalls.forEach((call, at) => {
            if (throws.has(at) && call.on !== 'onError' && !(cancelledFirst && at >= (cancelAt as number))) expectedReports.push(`${at}:${call.on}`);
          });
          const reports: string[] = [];
          run.calls.forEach((call, index) => {
            if (!isCallbackError(call)) return;
            const before = run.calls[index - 1] as Call;
            reports.push(`${ownCalls.indexOf(before)}:${(call.value as ErrorSummary).callbackName}`);
          });
          expect(reports).to.deep.equal(expectedReports);
          expectNothingLost(run);
          await watch.settle(mark);
        },
        chaosRuns,
      );
    });
  });
});
