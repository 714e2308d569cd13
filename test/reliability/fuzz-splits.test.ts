import { expect } from 'chai';
import fc from 'fast-check';
import type { WireFormat } from '../../lib/providers/registry';
import { anyDamage, applyDamage, damageArbitraries } from './support/damage';
import { corpus, corpusNote, type CorpusEntry } from './support/fixture-corpus';
import { checkFixture, eachFixture, fuzzedFixtures, replayNote, runsPerFixture } from './support/fuzz-config';
import { partials } from './support/invariants';
import { replay, splitAt, whole, type Delay, type Replay, type SourceKind } from './support/replay';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';
import { framePayload, wireFrames } from './support/wire-frames';

type LineEnding = 'lf' | 'crlf' | 'cr';

interface SplitCase {
  readonly lineEnding: LineEnding;
  /** Read with format 'auto' (recognised from the first frames) instead of the fixture's format. */
  readonly auto: boolean;
  readonly cuts: { readonly mode: 'offsets'; readonly offsets: readonly number[] } | { readonly mode: 'every'; readonly step: number };
  readonly kind: SourceKind;
  readonly delays: readonly Delay[];
}

/** Most chunks a body is cut into when it is cut every few bytes (the step grows with the body). */
const MAX_CHUNKS = 4000;

/** The body with every line end (LF or CRLF, as written) made `ending`. */
function withLineEnding(bytes: Uint8Array, ending: LineEnding): Uint8Array {
  const replacement = ending === 'crlf' ? [13, 10] : ending === 'cr' ? [13] : [10];
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    // A CRLF is one line end: an LF after it would make a CR LF LF, a blank line that ends the event.
    if (byte === 13 && bytes[i + 1] === 10) continue;
    if (byte === 10) out.push(...replacement);
    else out.push(byte);
  }
  return new Uint8Array(out);
}

function lineEndings(format: WireFormat): LineEnding[] {
  // NDJSON lines end in LF (CRLF tolerated); a lone CR ends an SSE line only.
  return format === 'ollama' ? ['lf', 'crlf'] : ['lf', 'crlf', 'cr'];
}

function splitCase(fixture: CorpusEntry): fc.Arbitrary<SplitCase> {
  const length = fixture.bytes.length * 2;
  const minStep = Math.max(1, Math.ceil(length / MAX_CHUNKS));
  return fc.record({
    lineEnding: fc.constantFrom(...lineEndings(fixture.format)),
    auto: fc.boolean(),
    cuts: fc.oneof(
      { weight: 4, arbitrary: fc.record({ mode: fc.constant('offsets' as const), offsets: fc.array(fc.nat({ max: length }), { maxLength: 64 }) }) },
      { weight: 1, arbitrary: fc.record({ mode: fc.constant('every' as const), step: fc.integer({ min: minStep, max: minStep + 16 }) }) },
    ),
    kind: fc.constantFrom<SourceKind>('iterable', 'readable', 'response'),
    delays: fc.array(fc.constantFrom<Delay>(0, 0, 0, 1, 2, 3, 4), { maxLength: 8 }),
  });
}

function chunksOf(bytes: Uint8Array, cuts: SplitCase['cuts']): Uint8Array[] {
  if (cuts.mode === 'offsets') return splitAt(bytes, cuts.offsets);
  const offsets: number[] = [];
  for (let at = cuts.step; at < bytes.length; at += cuts.step) offsets.push(at);
  return splitAt(bytes, offsets);
}

/** What must not change with the split: every callback in order, and the outcome. */
function observable(run: Replay): unknown {
  return {
    calls: run.calls,
    status: run.outcome.status,
    message: run.message,
  };
}

const fixtures = fuzzedFixtures(corpus());

describe(`fuzz: split anywhere (${replayNote()})${corpusNote('fuzz: split anywhere')}`, () => {
  let watch: UnhandledWatch;
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  const runs = runsPerFixture(fixtures.length);
  it(`delivers the same callbacks and outcome however the bytes are split and delayed, for every fixture (${runs} cases each, LF / CRLF / CR line ends, its format or 'auto', iterable / ReadableStream / Response sources)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const references = new Map<string, unknown>();
      for (const ending of lineEndings(fixture.format)) {
        for (const format of [fixture.format, 'auto'] as const) {
          references.set(`${ending} ${format}`, observable(await replay(whole(withLineEnding(fixture.bytes, ending)), format)));
        }
      }
      await checkFixture(
        'split anywhere',
        fixture,
        splitCase(fixture),
        async (split) => {
          const mark = watch.escaped.length;
          const bytes = withLineEnding(fixture.bytes, split.lineEnding);
          const format = split.auto ? 'auto' : fixture.format;
          const run = await replay(chunksOf(bytes, split.cuts), format, { kind: split.kind, delays: split.delays });
          expect(observable(run)).to.deep.equal(references.get(`${split.lineEnding} ${format}`));
          await watch.settle(mark);
        },
        runs,
      );
    });
    expect(watch.escaped).to.deep.equal([]);
  });

  it('delivers the same callbacks with CRLF or CR line ends as with LF, for every fixture', async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const lf = observable(await replay(whole(fixture.bytes), fixture.format));
      for (const ending of lineEndings(fixture.format).filter((ending) => ending !== 'lf')) {
        const other = observable(await replay(whole(withLineEnding(fixture.bytes, ending)), fixture.format));
        expect(other, `${fixture.file} with ${ending} line ends`).to.deep.equal(lf);
      }
    });
  });

  it(`delivers the same callbacks and outcome however a damaged body is split (any damage, stray bytes included, its format or 'auto'; ${runs} cases per fixture)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      await checkFixture(
        'split a damaged body',
        fixture,
        fc.record({
          damages: fc.array(fc.oneof(anyDamage, damageArbitraries['stray-bytes']), { minLength: 1, maxLength: 3 }),
          offsets: fc.array(fc.nat({ max: 1 << 22 }), { minLength: 1, maxLength: 48 }),
          kind: fc.constantFrom<SourceKind>('iterable', 'readable', 'response'),
          delays: fc.array(fc.constantFrom<Delay>(0, 0, 1, 4), { maxLength: 4 }),
          auto: fc.boolean(),
        }),
        async ({ damages, offsets, kind, delays, auto }) => {
          const mark = watch.escaped.length;
          let bytes = fixture.bytes;
          for (const damage of damages) bytes = applyDamage(bytes, fixture.format, damage);
          const format = auto ? 'auto' : fixture.format;
          const reference = observable(await replay(whole(bytes), format));
          const run = await replay(
            splitAt(
              bytes,
              offsets.map((offset) => offset % (bytes.length + 1)),
            ),
            format,
            { kind, delays },
          );
          expect(observable(run)).to.deep.equal(reference);
          await watch.settle(mark);
        },
        runs,
      );
    });
  });

  const sseFixtures = fixtures.filter((fixture) => fixture.format !== 'ollama');
  it('maps an event whose JSON is spread over several data: lines like the one-line event, for every SSE fixture', async function () {
    this.timeout(0);
    const decoder = new TextDecoder();
    await eachFixture(sseFixtures, async (fixture) => {
      const frames = wireFrames(decoder.decode(fixture.bytes), fixture.format);
      // Every JSON payload pretty-printed, one data: line per line of it (joined with "\n", it is the same JSON).
      const spread = frames.map((frame) => {
        const payload = framePayload(frame, fixture.format);
        if (payload === null) return frame;
        const pretty = JSON.stringify(JSON.parse(payload.json), null, 1);
        return payload.rebuild(pretty.split('\n').join('\ndata: '));
      });
      const one = await replay(whole(fixture.bytes), fixture.format);
      const many = await replay(whole(new TextEncoder().encode(spread.join(''))), fixture.format);
      const meaning = (run: Replay): unknown => ({
        partials: partials(run.calls),
        completed: run.calls.filter((call) => call.on === 'onCompleteToolCall'),
        status: run.outcome.status,
        text: run.message.aiMessage.text,
        thinking: run.message.aiMessage.thinking,
        toolCalls: run.message.aiMessage.toolExecutionRequests,
        metadata: run.message.metadata,
      });
      expect(meaning(many), fixture.file).to.deep.equal(meaning(one));
    });
  });
});
