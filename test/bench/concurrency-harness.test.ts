import { expect } from 'chai';
import { concurrencyConfig, concurrencyTargets } from '../../bench/concurrency-config';
import { cutsOf, measureConcurrencyInProcess, type ConcurrencyRun } from '../../bench/concurrency-process';
import { summarizeConcurrency } from '../../bench/concurrency';
import { ConcurrentFeeder, piecesWithCuts } from '../../bench/concurrent-feed';
import { generateTranscript } from '../../bench/generate-transcript';

// The concurrency section of `npm run bench` at a tiny size: the feeder really interleaves the
// streams one piece per turn of the event loop, the live-heap pass holds them where it says, and
// the summary and targets compare partstream with the floor the right way round.

const bytesOf = (...values: number[]): Uint8Array => Uint8Array.from(values);

/** Reads a source to the end, recording for each piece the event-loop turn it arrived in. */
async function turnsOf(source: AsyncIterable<Uint8Array>, turn: () => number): Promise<number[]> {
  const turns: number[] = [];
  for await (const piece of source) {
    expect(piece.length).to.be.greaterThan(0);
    turns.push(turn());
  }
  return turns;
}

describe('bench concurrency section', () => {
  describe('ConcurrentFeeder', () => {
    it('hands each stream one piece per turn of the event loop, all streams in the same turns', async () => {
      let turns = 0;
      let ticking = true;
      const tick = (): void => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const feeder = new ConcurrentFeeder();
      const pieces = [bytesOf(1), bytesOf(2), bytesOf(3), bytesOf(4)];
      const [a, b] = await Promise.all([turnsOf(feeder.source(pieces), () => turns), turnsOf(feeder.source(pieces), () => turns)]);
      ticking = false;
      // A piece per turn: four distinct, increasing turns per stream, the two streams in lockstep.
      expect(new Set(a).size).to.equal(4);
      expect(a).to.deep.equal([...a].sort((x, y) => x - y));
      expect(b).to.deep.equal(a);
    });

    it('holds every stream at the limit until released', async () => {
      const feeder = new ConcurrentFeeder();
      const pieces = [bytesOf(1), bytesOf(2), bytesOf(3)];
      const seen: number[][] = [[], []];
      feeder.holdAt(2);
      const done = Promise.all(
        [0, 1].map(async (k) => {
          for await (const piece of feeder.source(pieces)) seen[k].push(piece[0]);
        }),
      );
      await feeder.whenParked(2);
      expect(seen).to.deep.equal([
        [1, 2],
        [1, 2],
      ]);
      feeder.release();
      await done;
      expect(seen).to.deep.equal([
        [1, 2, 3],
        [1, 2, 3],
      ]);
    });
  });

  describe('piecesWithCuts', () => {
    it('cuts pieces of the given size and starts a piece at each cut', () => {
      const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
      const { pieces, cutIndexes } = piecesWithCuts(bytes, 4, [3, 9]);
      expect(pieces.map((p) => [...p])).to.deep.equal([[0, 1, 2], [3, 4, 5, 6], [7, 8], [9]]);
      expect(cutIndexes).to.deep.equal([1, 3]);
    });
  });

  describe('cutsOf', () => {
    it('opens Anthropic streams up to the content block start, before the first delta', async () => {
      const { bytes } = generateTranscript({ format: 'anthropic', n: 200, seed: 7 });
      const cuts = await cutsOf('anthropic', bytes);
      const opening = Buffer.from(bytes.subarray(0, cuts.opening)).toString('utf8');
      const rest = Buffer.from(bytes.subarray(cuts.opening)).toString('utf8');
      expect(opening).to.include('event: message_start\n').and.include('event: content_block_start\n').and.not.include('_delta');
      expect(rest.startsWith('event: content_block_delta\n')).to.equal(true);
      expect(cuts.middle).to.be.within(bytes.length / 2, bytes.length);
      expect(cuts.deltasAtMiddle).to.be.greaterThan(100);
      // Every delta string takes at least its 16-byte header, 8-aligned: 24 bytes or more.
      expect(cuts.stringBytesAtMiddle).to.be.at.least(24 * cuts.deltasAtMiddle);
    });
  });

  describe('measureConcurrencyInProcess', () => {
    for (const contender of ['partstream', 'floor'] as const) {
      it(`runs a few interleaved streams through ${contender} in a fresh process, with the live-heap pass`, async function () {
        this.timeout(60_000);
        const row = await measureConcurrencyInProcess({
          format: 'openai-chat',
          contender,
          streams: 4,
          perStreamN: 300,
          seed: 0x5eed,
          pieceSize: 512,
          warmupStreams: 2,
          memory: true,
        });
        expect(row).to.include({ format: 'openai-chat', contender, streams: 4 });
        expect(row.deltasPerStream).to.equal(generateTranscript({ format: 'openai-chat', n: 300, seed: 0x5eed }).steps.length);
        expect(row.deltasPerSecond).to.be.closeTo((4 * row.deltasPerStream) / (row.wallMs / 1000), 1e-6);
        expect(row.heapPeakBytes).to.be.greaterThan(0);
        expect(row.memory).to.not.equal(null);
        expect(row.memory?.deltasHeldPerStream).to.be.within(1, row.deltasPerStream - 1);
      });
    }
  });

  describe('summary and targets', () => {
    const run = (contender: 'partstream' | 'floor', streams: number, deltasPerSecond: number, heapPeakBytes: number): ConcurrencyRun => ({
      format: 'anthropic',
      contender,
      streams,
      deltasPerStream: 2_000,
      wallMs: (streams * 2_000 * 1000) / deltasPerSecond,
      cpuMs: (streams * 2_000 * 1000) / deltasPerSecond,
      deltasPerSecond,
      heapPeakBytes,
      memory: null,
    });

    it('divides partstream by the floor, medians over the runs', () => {
      const [summary] = summarizeConcurrency([
        run('floor', 10, 200_000, 100),
        run('partstream', 10, 150_000, 180),
        run('floor', 10, 100_000, 120),
        run('partstream', 10, 90_000, 140),
        run('floor', 10, 300_000, 80),
        run('partstream', 10, 240_000, 160),
      ]);
      expect(summary.runs).to.equal(3);
      expect(summary.throughputRatio).to.be.closeTo(0.75, 1e-12);
      expect(summary.throughputRatioFromMax).to.be.closeTo(0.8, 1e-12);
      expect(summary.cpuThroughputRatio).to.be.closeTo(0.75, 1e-12);
      expect(summary.heapPeakRatio).to.be.closeTo(1.6, 1e-12);
    });

    it('judges throughput as a minimum and the heap peak as a maximum, at the largest count', () => {
      const summaries = summarizeConcurrency([run('floor', 10, 100, 100), run('partstream', 10, 95, 140), run('floor', 99, 100, 100), run('partstream', 99, 85, 160)]);
      const targets = concurrencyTargets(summaries, 99);
      const byName = new Map(targets.map((t) => [t.name, t]));
      expect(byName.get('concurrent throughput ÷ floor, anthropic ×10')).to.include({ pass: true, atLeast: true, reportedOnly: true });
      expect(byName.get('concurrent throughput ÷ floor, anthropic ×99')).to.include({ pass: false, atLeast: true }).and.not.have.property('reportedOnly');
      expect(byName.get('concurrent heap peak ÷ floor, anthropic ×99')).to.include({ pass: false, value: 1.6 });
      expect(byName.has('concurrent heap peak ÷ floor, anthropic ×10')).to.equal(false);
    });
  });

  describe('concurrencyConfig', () => {
    it('reads the stream counts, runs and formats, and refuses what it cannot read', () => {
      const config = concurrencyConfig({ BENCH_CONC_STREAMS: '500,50', BENCH_CONC_RUNS: '4', BENCH_CONC_LARGE_RUNS: '2', BENCH_CONC_FORMATS: 'gemini,ollama' }, false, 1);
      expect(config.streamCounts).to.deep.equal([50, 500]);
      expect([config.runsAt(50), config.runsAt(500)]).to.deep.equal([4, 2]);
      expect(config.formats).to.deep.equal(['gemini', 'ollama']);
      const defaults = concurrencyConfig({}, false, 1);
      expect(defaults.streamCounts).to.deep.equal([1_000, 10_000]);
      expect(defaults.formats).to.deep.equal(['openai-chat', 'anthropic']);
      expect(() => concurrencyConfig({ BENCH_CONC_STREAMS: '10,x' }, false, 1)).to.throw(/BENCH_CONC_STREAMS/);
      expect(() => concurrencyConfig({ BENCH_CONC_FORMATS: 'openai' }, false, 1)).to.throw(/BENCH_CONC_FORMATS/);
    });
  });
});
