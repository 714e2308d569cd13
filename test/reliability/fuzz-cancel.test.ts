import { expect } from 'chai';
import fc from 'fast-check';
import { startLoopbackServer, type Reply } from '../support/loopback-server';
import { corpus, corpusNote, type CorpusEntry } from './support/fixture-corpus';
import { checkFixture, eachFixture, fuzzedFixtures, replayNote, runsPerFixture } from './support/fuzz-config';
import { STREAM_CONTENT_TYPE, streamWithClient, within } from '../support/http-clients';
import { expectNothingLost, expectOneTerminal, isTerminal } from './support/invariants';
import { recordingHandler, referenceRuns, replay, splitAt, type Delay, type SourceKind } from './support/replay';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

interface CancelCase {
  /** Ordinal of the callback that cancels. */
  readonly at: number;
  readonly how: 'handle' | 'signal';
  /** The cancelling callback throws right after cancelling. */
  readonly thenThrows: boolean;
  readonly offsets: readonly number[];
  readonly kind: SourceKind;
  readonly delays: readonly Delay[];
}

function cancelCase(fixture: CorpusEntry, callbacks: number): fc.Arbitrary<CancelCase> {
  return fc.record({
    at: fc.nat({ max: Math.max(0, callbacks - 1) }),
    how: fc.constantFrom<'handle' | 'signal'>('handle', 'signal'),
    thenThrows: fc.boolean(),
    offsets: fc.array(fc.nat({ max: fixture.bytes.length }), { maxLength: 16 }),
    kind: fc.constantFrom<SourceKind>('iterable', 'readable', 'response'),
    delays: fc.array(fc.constantFrom<Delay>(0, 1, 4), { maxLength: 3 }),
  });
}

const fixtures = fuzzedFixtures(corpus());

describe(`fuzz: cancel (${replayNote()})${corpusNote('fuzz: cancel')}`, () => {
  let watch: UnhandledWatch;
  const referenceOf = referenceRuns();
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  const runs = runsPerFixture(fixtures.length);
  it(`delivers nothing after cancel() at a random callback, resolves cancelled with everything delivered, and lets go of the source (${runs} cases per fixture)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const reference = await referenceOf(fixture);
      const terminalAt = reference.calls.findIndex(isTerminal);
      await checkFixture(
        'cancel in a callback',
        fixture,
        cancelCase(fixture, reference.calls.length),
        async (spec) => {
          const mark = watch.escaped.length;
          const run = await replay(splitAt(fixture.bytes, spec.offsets), fixture.format, {
            kind: spec.kind,
            delays: spec.delays,
            hook: (ordinal) => (ordinal === spec.at ? { cancel: spec.how, ...(spec.thenThrows ? { throws: new Error('after cancel') } : {}) } : undefined),
          });
          if (spec.at < terminalAt) {
            expect(run.calls, 'the callbacks up to the cancelling one, nothing after').to.deep.equal(reference.calls.slice(0, spec.at + 1));
            expect(run.outcome.status).to.equal('cancelled');
            expect(run.released || run.ended, 'the source was let go (or had ended)').to.equal(true);
            expectNothingLost(run);
          } else {
            // A cancel from the terminal callback changes nothing (a throw there is still reported, once).
            const expected =
              spec.thenThrows && spec.at === terminalAt && reference.calls[terminalAt]?.on === 'onCompleteResponse'
                ? [
                    ...reference.calls,
                    { on: 'onError', value: { name: 'HandlerCallbackError', message: 'Handler callback onCompleteResponse threw: after cancel', callbackName: 'onCompleteResponse' } },
                  ]
                : reference.calls;
            expect(run.calls).to.deep.equal(expected);
            expect(run.outcome.status).to.equal(reference.outcome.status);
            expect(run.message).to.deep.equal(reference.message);
          }
          await watch.settle(mark);
        },
        runs,
      );
    });
    expect(watch.escaped).to.deep.equal([]);
  });

  it(`stops between chunks when the AbortSignal fires from outside, delivering a prefix and losing nothing (${runs} cases per fixture)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const reference = await referenceOf(fixture);
      await checkFixture(
        'abort between chunks',
        fixture,
        fc.record({
          offsets: fc.array(fc.nat({ max: fixture.bytes.length }), { minLength: 1, maxLength: 16 }),
          chunk: fc.nat({ max: 16 }),
          kind: fc.constantFrom<SourceKind>('iterable', 'readable', 'response'),
        }),
        async ({ offsets, chunk, kind }) => {
          const mark = watch.escaped.length;
          const chunks = splitAt(fixture.bytes, offsets);
          const abortBeforeChunk = chunk % chunks.length;
          const run = await replay(chunks, fixture.format, { kind, abortBeforeChunk });
          expect(run.calls, 'a prefix of the whole stream’s callbacks').to.deep.equal(reference.calls.slice(0, run.calls.length));
          if (run.calls.some(isTerminal)) {
            // The stream had ended before the chunk the abort waited for was asked for.
            expect(run.calls).to.deep.equal(reference.calls);
            expect(run.outcome.status).to.equal(reference.outcome.status);
          } else {
            expect(run.outcome.status).to.equal('cancelled');
            expect(run.released || run.ended).to.equal(true);
          }
          expectNothingLost(run);
          await watch.settle(mark);
        },
        runs,
      );
    });
  });

  const httpRuns = runsPerFixture(fixtures.length, 0.25);
  it(`closes the socket (the server sees it close) when cancel() is called at a random callback of a stream served over HTTP (${httpRuns} case(s) per fixture)`, async function () {
    this.timeout(0);
    let current: Reply = {};
    const server = await startLoopbackServer(() => current, { maxRequests: Number.MAX_SAFE_INTEGER });
    try {
      await eachFixture(fixtures, async (fixture) => {
        const reference = await referenceOf(fixture);
        const terminalAt = reference.calls.findIndex(isTerminal);
        if (terminalAt <= 0) return; // nothing is delivered before the end: no callback to cancel from
        await checkFixture(
          'cancel over HTTP',
          fixture,
          fc.record({
            at: fc.nat({ max: terminalAt - 1 }),
            how: fc.constantFrom<'handle' | 'signal'>('handle', 'signal'),
            sizes: fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 8 }),
          }),
          async ({ at, how, sizes }) => {
            const mark = watch.escaped.length;
            // The server never ends the response: only the client can close the connection.
            current = { body: fixture.bytes, chunkSize: sizes, fault: 'stall', headers: { 'content-type': STREAM_CONTENT_TYPE[fixture.format] } };
            const requestsBefore = server.requests.length;
            const abort = new AbortController();
            const recorder = recordingHandler(
              (ordinal) => (ordinal === at ? { cancel: how } : undefined),
              (way) => (way === 'signal' ? abort.abort() : recorder.handle()?.cancel()),
            );
            const outcome = await streamWithClient(fixture.format, recorder.handler, { baseUrl: server.url, signal: abort.signal, idleTimeoutMs: 5000 });
            expect(recorder.calls, 'the callbacks up to the cancelling one, nothing after').to.deep.equal(reference.calls.slice(0, at + 1));
            expect(outcome.status).to.equal('cancelled');
            if (outcome.status === 'cancelled') {
              expectNothingLost({ calls: recorder.calls, errors: recorder.errors, outcome, message: outcome.partial, cancelledAt: at, released: true, ended: false });
            }
            const request = server.requests[requestsBefore];
            expect(request, 'one request').to.not.equal(undefined);
            expect(await within(request?.closed ?? Promise.resolve(), 5000), 'the server saw the socket close').to.equal(true);
            expect(request?.closedByClient).to.equal(true);
            await watch.settle(mark);
          },
          httpRuns,
        );
      });
    } finally {
      await server.close();
    }
  });

  it(`ends once, losing nothing and leaving no timer behind, when a 1–3 ms idle timeout races a slow stream (${runs} cases per fixture)`, async function () {
    this.timeout(0);
    const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    await eachFixture(fixtures, async (fixture) => {
      const reference = await referenceOf(fixture);
      await checkFixture(
        'idle timeout race',
        fixture,
        fc.record({
          idleTimeoutMs: fc.integer({ min: 1, max: 3 }),
          offsets: fc.array(fc.nat({ max: fixture.bytes.length }), { maxLength: 6 }),
          delays: fc.array(fc.constantFrom<Delay>(0, 4, 5), { minLength: 1, maxLength: 3 }),
        }),
        async ({ idleTimeoutMs, offsets, delays }) => {
          const mark = watch.escaped.length;
          const before = timers();
          const run = await replay(splitAt(fixture.bytes, offsets), fixture.format, { idleTimeoutMs, delays });
          expectOneTerminal(run);
          expectNothingLost(run);
          const last = run.calls[run.calls.length - 1]?.value as { kind?: string } | undefined;
          if (run.outcome.status === 'failed' && last?.kind === 'timeout') {
            expect(run.calls.slice(0, -1), 'a prefix of the whole stream’s callbacks').to.deep.equal(reference.calls.slice(0, run.calls.length - 1));
            expect(run.released, 'the source was let go').to.equal(true);
          } else {
            expect(run.calls).to.deep.equal(reference.calls);
          }
          // The source's own 2 ms delay may still be pending after a timeout; give it time to fire.
          if (timers() > before) await new Promise((resolve) => setTimeout(resolve, 5));
          expect(timers(), 'timers left behind').to.be.at.most(before);
          await watch.settle(mark);
        },
        runs,
      );
    });
  });
});
