import { expect } from 'chai';
import sinon from 'sinon';
import { PacedHandler } from '../../lib/cli/paced-handler';
import { DEFAULT_TTY_PACE_MS, MAX_PACE_MS, parseArgs } from '../../lib/cli/parse-args';
import { replayPaceMs } from '../../lib/cli/replay';
import { main } from '../../lib/cli/main';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { partialResponse, partialThinking } from '../../lib/handler/values';
import { jsonEvents } from './run-cli';

/** An Ollama recording of `deltas` text deltas and a final line. */
function ollamaRecording(deltas: number): string {
  const line = (content: string, done: boolean): string =>
    `${JSON.stringify({ model: 'm', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content }, done, ...(done ? { done_reason: 'stop' } : {}) })}\n`;
  return Array.from({ length: deltas }, (_, i) => line(`w${i} `, false)).join('') + line('', true);
}

/** Runs `partstream <argv>` on `recording` as standard input, timing the whole run. */
async function timedReplay(argv: readonly string[], recording: string, io: { isTTY: boolean; ttyPaceMs?: number }) {
  let stdout = '';
  const started = performance.now();
  const status = await main(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: io.isTTY, columns: 100 },
    stderr: { write: () => undefined },
    stdin: (async function* () {
      yield recording;
    })(),
    env: { NO_COLOR: '1' },
    ttyPaceMs: io.ttyPaceMs,
  });
  return { status, stdout, elapsedMs: performance.now() - started };
}

describe('partstream replay --pace', () => {
  describe('parseArgs', () => {
    it('reads --pace MS and --pace=MS, and leaves the pace out when it is not given', () => {
      expect([parseArgs(['replay', '--pace', '25']), parseArgs(['replay', 'rec.sse', '--pace=0', '--json']), parseArgs(['replay', `--pace=${MAX_PACE_MS}`]), parseArgs(['replay'])]).to.deep.equal([
        { type: 'replay', file: null, format: 'auto', json: false, pace: 25 },
        { type: 'replay', file: 'rec.sse', format: 'auto', json: true, pace: 0 },
        { type: 'replay', file: null, format: 'auto', json: false, pace: MAX_PACE_MS },
        { type: 'replay', file: null, format: 'auto', json: false },
      ]);
    });

    it('refuses a pace that is not a whole number of milliseconds in range, quoting it', () => {
      const refused = ['-1', '1.5', '1e3', 'fast', '', ' 5', `${MAX_PACE_MS + 1}`, '99999999999'].map((value) => parseArgs(['replay', `--pace=${value}`]));
      expect(refused).to.deep.equal(
        ['"-1"', '"1.5"', '"1e3"', '"fast"', '""', '" 5"', `"${MAX_PACE_MS + 1}"`, '"99999999999"'].map((quoted) => ({
          type: 'usage-error',
          message: `--pace needs a whole number of milliseconds from 0 to ${MAX_PACE_MS}, got ${quoted}`,
        })),
      );
      expect(parseArgs(['replay', '--pace'])).to.deep.equal({
        type: 'usage-error',
        message: `--pace needs a whole number of milliseconds from 0 to ${MAX_PACE_MS}, got nothing`,
      });
    });

    it('lists --pace and its defaults in the help', async () => {
      let help = '';
      await main(['--help'], { stdout: { write: (text: string) => (help += text) }, stderr: { write: () => undefined }, stdin: (async function* () {})(), env: {} });
      expect(help).to.include('--pace MS').and.include(`${DEFAULT_TTY_PACE_MS} on a terminal, adding 2 s at most in all; 0 when piped or with --json`);
    });
  });

  describe('replayPaceMs', () => {
    const replay = (json: boolean, pace?: number) => ({ type: 'replay', file: null, format: 'auto', json, ...(pace === undefined ? {} : { pace }) }) as const;
    const tty = { stdout: { write: () => undefined, isTTY: true } };
    const pipe = { stdout: { write: () => undefined, isTTY: false } };

    it(`paces the human view on a terminal by ${DEFAULT_TTY_PACE_MS} ms by default, and never a pipe or --json unless asked`, () => {
      expect({
        terminal: replayPaceMs(replay(false), tty),
        terminalJson: replayPaceMs(replay(true), tty),
        pipe: replayPaceMs(replay(false), pipe),
        unknown: replayPaceMs(replay(false), { stdout: { write: () => undefined } }),
        askedOnPipe: replayPaceMs(replay(true, 7), pipe),
        zeroOnTerminal: replayPaceMs(replay(false, 0), tty),
        ttyDefaultChanged: replayPaceMs(replay(false), { ...tty, ttyPaceMs: 3 }),
      }).to.deep.equal({ terminal: DEFAULT_TTY_PACE_MS, terminalJson: 0, pipe: 0, unknown: 0, askedOnPipe: 7, zeroOnTerminal: 0, ttyDefaultChanged: 3 });
    });
  });

  describe('PacedHandler', () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers();
    });
    afterEach(() => clock.restore());

    function recorder(): { handler: StreamingChatResponseHandler; seen: string[] } {
      const seen: string[] = [];
      return {
        seen,
        handler: {
          onPartialResponse: (partial) => void seen.push(`text ${partial.text}`),
          onPartialThinking: (partial) => void seen.push(`thinking ${partial.text}`),
          onUnmappedRawEvent: () => void seen.push('raw'),
          onCompleteResponse: () => void seen.push('complete'),
          onError: (error) => void seen.push(`error ${error.message}`),
        },
      };
    }
    const context = { streamingHandle: { cancel: () => undefined, isCancelled: () => false } };

    it('waits the pace before each delta, and passes other callbacks on at once', async () => {
      const { handler, seen } = recorder();
      const paced = new PacedHandler(handler, 40);
      const text = paced.onPartialResponse(partialResponse('a'), context);
      await clock.tickAsync(39);
      const beforePace = [...seen];
      paced.onUnmappedRawEvent({ event: 'ping', data: '{}' });
      await clock.tickAsync(1);
      await text;
      const thinking = paced.onPartialThinking(partialThinking('b'), context);
      await clock.tickAsync(40);
      await thinking;
      expect({ beforePace, seen }).to.deep.equal({ beforePace: [], seen: ['raw', 'text a', 'thinking b'] });
    });

    it('stops waiting as soon as the signal aborts (Ctrl-C is immediate)', async () => {
      const { handler, seen } = recorder();
      const controller = new AbortController();
      const paced = new PacedHandler(handler, MAX_PACE_MS, controller.signal);
      const text = paced.onPartialResponse(partialResponse('a'), context);
      await clock.tickAsync(5);
      controller.abort();
      await text;
      expect({ seen, pendingTimers: clock.countTimers() }).to.deep.equal({ seen: ['text a'], pendingTimers: 0 });
    });

    /** The wait before each of `deltas` deltas, in fake milliseconds, paced by `paced`. */
    async function waits(paced: PacedHandler, deltas: number): Promise<number[]> {
      const out: number[] = [];
      for (let i = 0; i < deltas; i++) {
        const started = clock.now;
        const pending = paced.onPartialResponse(partialResponse('a'), context);
        await clock.runAllAsync();
        await pending;
        out.push(clock.now - started);
      }
      return out;
    }

    it('with a budget, keeps the pace for the first deltas and adds less than the budget in all, however many come', async () => {
      for (const deltas of [10, 300, 5000]) {
        const taken = await waits(new PacedHandler(recorder().handler, 40, undefined, 2000), deltas);
        const total = taken.reduce((sum, ms) => sum + ms, 0);
        // 25 waits of 40 ms spend half the budget; then each wait is a 25th of what is left.
        expect({ deltas, first: taken.slice(0, 25).every((ms) => ms === 40), underBudget: total <= 2000 }).to.deep.equal({
          deltas,
          first: true,
          underBudget: true,
        });
        if (deltas === 10) expect(total).to.equal(400);
        // A long recording still takes close to the budget: it streams visibly, then speeds up.
        if (deltas >= 300) expect(total).to.be.greaterThan(1900);
      }
    });

    it('without a budget, waits the pace before every delta (an explicit --pace is kept)', async () => {
      const taken = await waits(new PacedHandler(recorder().handler, 40), 300);
      expect(taken.reduce((sum, ms) => sum + ms, 0)).to.equal(300 * 40);
    });

    it('refuses a negative or non-finite pace', () => {
      const { handler } = recorder();
      expect(() => new PacedHandler(handler, -1)).to.throw(TypeError, 'Expected paceMs to be a finite number >= 0, got -1');
      expect(() => new PacedHandler(handler, Number.NaN)).to.throw(TypeError, 'got NaN');
    });
  });

  describe('a whole replay (real time: lower bounds only, and one generous upper bound)', function () {
    this.timeout(20_000);

    it('--pace 60 on 5 deltas takes at least 5 x 60 ms and prints the same callbacks as an unpaced run', async () => {
      const recording = ollamaRecording(5);
      const paced = await timedReplay(['replay', '-', '--json', '--pace', '60'], recording, { isTTY: false });
      const unpaced = await timedReplay(['replay', '-', '--json'], recording, { isTTY: false });
      expect({ status: paced.status, atLeast: paced.elapsedMs >= 5 * 60 - 5, events: jsonEvents(paced.stdout) }).to.deep.equal({
        status: 0,
        atLeast: true,
        events: jsonEvents(unpaced.stdout),
      });
    });

    it('--json on a terminal does not wait, even with a slow terminal default (would take 6 s paced)', async () => {
      const run = await timedReplay(['replay', '-', '--json'], ollamaRecording(3), { isTTY: true, ttyPaceMs: 2_000 });
      expect({ status: run.status, quick: run.elapsedMs < 3_000 }).to.deep.equal({ status: 0, quick: true });
    });

    it('the default terminal pace adds about 2 s at most: a 300-delta capture does not take 12 s', async () => {
      const run = await timedReplay(['replay', '-'], ollamaRecording(300), { isTTY: true });
      expect({ status: run.status, atLeast: run.elapsedMs >= 1_000, bounded: run.elapsedMs < 6_000, last: run.stdout.includes('w299 ') }).to.deep.equal({
        status: 0,
        atLeast: true,
        bounded: true,
        last: true,
      });
    });

    it('an explicit --pace on a terminal is not capped', async () => {
      const run = await timedReplay(['replay', '-', '--pace', '30'], ollamaRecording(80), { isTTY: true });
      expect({ status: run.status, atLeast: run.elapsedMs >= 80 * 30 - 5 }).to.deep.equal({ status: 0, atLeast: true });
    });

    it('the human view on a terminal waits the terminal default before each delta', async () => {
      const run = await timedReplay(['replay', '-'], ollamaRecording(4), { isTTY: true, ttyPaceMs: 50 });
      expect({ status: run.status, atLeast: run.elapsedMs >= 4 * 50 - 5, text: run.stdout.includes('w0 w1 w2 w3') }).to.deep.equal({
        status: 0,
        atLeast: true,
        text: true,
      });
    });
  });
});
