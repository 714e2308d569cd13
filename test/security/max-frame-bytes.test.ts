import { expect } from 'chai';
import { consumeStream, DEFAULT_MAX_FRAME_BYTES, startStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import { openChunkReader } from '../../lib/transport/byte-source';
import type { FormatOption } from '../../lib/driver/format-choice';
import { StreamError } from '../../lib/handler/stream-error';
import { trackedSource } from '../support/chunk-sources';
import { recordingHandler, type Recorded } from '../support/recording-handler';
import { ROOT, runIsolated } from './support/run-isolated';

// SPEC §11: one SSE event or NDJSON line may not grow past `maxFrameBytes` (characters of decoded
// text); past it the stream fails `malformed`, naming the limit and the option, and stops reading.

const KiB = 1024;
const MiB = 1024 * KiB;

const chatDelta = (text: string): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
const ollamaLine = (text: string): string => `${JSON.stringify({ model: 'm', created_at: 't', message: { role: 'assistant', content: text }, done: false })}\n`;
const OLLAMA_DONE = `${JSON.stringify({ model: 'm', created_at: 't', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`;

/** `count` chunks of `size` characters that never end a line. */
function endless(count: number, size = KiB): string[] {
  return new Array<string>(count).fill('x'.repeat(size));
}

async function run(chunks: readonly string[], format: FormatOption, maxFrameBytes?: number) {
  const handler = recordingHandler();
  const source = trackedSource(chunks);
  const outcome = await consumeStream(source, handler, maxFrameBytes === undefined ? { format } : { format, maxFrameBytes });
  return { calls: handler.calls, outcome, pulled: source.pulled };
}

/** The outcome failed with one `malformed` error naming `limit` and the option. */
function expectTooLarge(result: { calls: Recorded[]; outcome: StreamOutcome }, limit: number): void {
  const { outcome, calls } = result;
  expect(outcome.status).to.equal('failed');
  const error = (outcome as { error: Error }).error;
  expect(StreamError.isInstance(error) && error.kind).to.equal('malformed');
  expect(error.message).to.contain(`${limit} characters`).and.to.contain('maxFrameBytes');
  expect(calls.filter((call) => call.on === 'error' || call.on === 'completeResponse').map((call) => call.on)).to.deep.equal(['error']);
}

function text(outcome: StreamOutcome): string | null {
  return (outcome.status === 'completed' ? outcome.response : outcome.partial).aiMessage.text;
}

describe('maxFrameBytes (SPEC §11)', () => {
  describe('Server-Sent Events', () => {
    it('fails a line with no line end past the limit as malformed, naming the limit and the option, and stops reading', async () => {
      const result = await run(['data: {"choices":[{"index":0,"delta":{"content":"', ...endless(200)], 'openai-chat', 16 * KiB);
      expectTooLarge(result, 16 * KiB);
      expect(result.pulled).to.be.at.most(16 + 2);
    });

    it('fails a whole oversize line that arrives in one chunk the same way', async () => {
      expectTooLarge(await run([chatDelta('z'.repeat(5000))], 'openai-chat', 1000), 1000);
    });

    it('counts the data lines of one event together', async () => {
      const lines = `data: {"choices":[{"index":0,"delta":{"content":"${'\ndata: y'.repeat(1000)}"}}]}\n\n`;
      const result = await run([lines], 'openai-chat', 4 * KiB);
      expectTooLarge(result, 4 * KiB);
      expectTooLarge(await run(lines.match(/[^]{1,100}/g) as string[], 'openai-chat', 4 * KiB), 4 * KiB);
    });

    it('accepts an event exactly at the limit (all its lines, line ends not counted) and fails one character over', async () => {
      const first = 'data: {"choices":[{"index":0,';
      const second = 'data: "delta":{"content":"hi"}}]}';
      const size = first.length + second.length;
      for (const end of ['\n', '\r\n', '\r']) {
        const body = `${first}${end}${second}${end}${end}data: [DONE]${end}${end}`;
        const fits = await run([body], 'openai-chat', size);
        expect(fits.outcome.status, JSON.stringify(end)).to.equal('completed');
        expect(text(fits.outcome)).to.equal('hi');
        expectTooLarge(await run([body], 'openai-chat', size - 1), size - 1);
        // Split in the middle of the second line: the same verdicts.
        const cut = first.length + end.length + 10;
        expect((await run([body.slice(0, cut), body.slice(cut)], 'openai-chat', size)).outcome.status).to.equal('completed');
        expectTooLarge(await run([body.slice(0, cut), body.slice(cut)], 'openai-chat', size - 1), size - 1);
      }
    });

    it('accepts an event exactly at the limit split at every point around its line ends (LF, CRLF, lone CR), while the format is checked too', async () => {
      const line = 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}';
      for (const format of ['openai-chat', 'auto'] as const) {
        for (const end of ['\n', '\r\n', '\r']) {
          const body = `${line}${end}${end}data: [DONE]${end}${end}`;
          for (let cut = line.length - 1; cut <= line.length + 2 * end.length + 1; cut++) {
            const chunks = [body.slice(0, cut), body.slice(cut)];
            const what = `${format} ${JSON.stringify(chunks)}`;
            expect((await run(chunks, format, line.length)).outcome.status, what).to.equal('completed');
            expectTooLarge(await run(chunks, format, line.length - 1), line.length - 1);
          }
        }
      }
    });

    it('keeps what was aggregated before the oversize event, in the same chunk or an earlier one', async () => {
      const before = chatDelta('Hel') + chatDelta('lo');
      const oversize = chatDelta('z'.repeat(5000));
      for (const chunks of [[before + oversize], [before, oversize], [before + oversize.slice(0, 3000), oversize.slice(3000)]]) {
        const result = await run(chunks, 'openai-chat', 1000);
        expectTooLarge(result, 1000);
        expect(result.calls.filter((call) => call.on === 'partialResponse')).to.deep.equal([
          { on: 'partialResponse', text: 'Hel' },
          { on: 'partialResponse', text: 'lo' },
        ]);
        expect(text(result.outcome)).to.equal('Hello');
      }
    });
  });

  describe('NDJSON', () => {
    it('fails a line with no LF past the limit as malformed and stops reading', async () => {
      const result = await run([ollamaLine('Hi'), '{"model":"m","message":{"content":"', ...endless(200)], 'ollama', 16 * KiB);
      expectTooLarge(result, 16 * KiB);
      expect(result.pulled).to.be.at.most(1 + 16 + 2);
      expect(text(result.outcome)).to.equal('Hi');
    });

    it('fails a first line with no LF past the limit while the format is checked', async () => {
      const result = await run(['{"model":"m","message":{"content":"', ...endless(200)], 'ollama', 16 * KiB);
      expectTooLarge(result, 16 * KiB);
      expect(result.pulled).to.be.at.most(16 + 2);
    });

    it('accepts a line exactly at the limit (before its LF) and fails one character over', async () => {
      // The done line is the longest: it decides.
      const body = [ollamaLine('hi'), OLLAMA_DONE];
      const size = OLLAMA_DONE.length - 1;
      const fits = await run(body, 'ollama', size);
      expect(fits.outcome.status).to.equal('completed');
      const over = await run(body, 'ollama', size - 1);
      expectTooLarge(over, size - 1);
      expect(text(over.outcome)).to.equal('hi');
    });

    describe('the line end never counts', () => {
      // The done line decides; it is sent first (read while the format is checked) and after a
      // short line (read by the line decoder), with each line end, whole and split at each point
      // around its end.
      const line = OLLAMA_DONE.slice(0, -1);
      const size = line.length;
      const short = ollamaLine('hi');
      /** The body split before the line's last character, before its line end, inside it, and after it. */
      function splits(before: string, end: string): string[][] {
        const body = `${before}${line}${end}`;
        const at = before.length + size;
        return [[body], [body.slice(0, at - 1), body.slice(at - 1)], [body.slice(0, at), body.slice(at)], [body.slice(0, at + 1), body.slice(at + 1)], [...body]];
      }

      for (const format of ['ollama', 'auto'] as const) {
        for (const before of ['', short]) {
          const where = `${format}, ${before === '' ? 'first line' : 'second line'}`;
          for (const end of ['\n', '\r\n']) {
            it(`accepts a line of exactly maxFrameBytes ending in ${JSON.stringify(end)} and fails one character less (${where})`, async () => {
              for (const chunks of splits(before, end)) {
                const fits = await run(chunks, format, size);
                expect(fits.outcome.status, JSON.stringify(chunks.slice(0, 3))).to.equal('completed');
                expectTooLarge(await run(chunks, format, size - 1), size - 1);
              }
            });
          }

          it(`accepts a last line of exactly maxFrameBytes that ends with a lone CR and no LF (${where})`, async () => {
            for (const chunks of splits(before, '\r')) {
              expect((await run(chunks, format, size)).outcome.status, JSON.stringify(chunks.slice(0, 3))).to.equal('completed');
            }
          });
        }
      }

      it('counts a lone CR inside a line (not a line end in NDJSON): the line is then one character longer', async () => {
        const body = `${short}${line.slice(0, -1)}\r}\n`;
        expectTooLarge(await run([body], 'ollama', size), size);
        expect((await run([body], 'ollama', size + 1)).outcome.status).to.equal('completed');
      });
    });

    it('keeps what was aggregated before the oversize line', async () => {
      const result = await run([ollamaLine('Hel') + ollamaLine('lo') + ollamaLine('z'.repeat(5000))], 'ollama', 1000);
      expectTooLarge(result, 1000);
      expect(text(result.outcome)).to.equal('Hello');
    });
  });

  describe('while the format is being recognised (format auto)', () => {
    it('fails an SSE first line past the limit as malformed, not as an unknown format', async () => {
      const result = await run(['data: {"choices":[{"index":0,"delta":{"content":"', ...endless(200)], 'auto', 64 * KiB);
      expectTooLarge(result, 64 * KiB);
      expect(result.pulled).to.be.at.most(64 + 2);
    });

    it('fails a first SSE event of many short data lines past the limit', async () => {
      const result = await run(['data: {"choices":[\n', ...new Array<string>(2000).fill('data: 1,\n')], 'auto', 4 * KiB);
      expectTooLarge(result, 4 * KiB);
    });

    it('fails an NDJSON first line past the limit', async () => {
      const result = await run(['{"model":"m","message":{"content":"', ...endless(200)], 'auto', 64 * KiB);
      expectTooLarge(result, 64 * KiB);
      expect(result.pulled).to.be.at.most(64 + 2);
    });

    it('accepts a first event exactly at the limit', async () => {
      const event = chatDelta('hi');
      const size = event.length - 2;
      const result = await run([event, 'data: [DONE]\n\n'], 'auto', size);
      expect(result.outcome.status).to.equal('completed');
      expectTooLarge(await run([event, 'data: [DONE]\n\n'], 'auto', size - 1), size - 1);
    });
  });

  describe('the default and Infinity', () => {
    it('is 64 MiB by default', async function () {
      this.timeout(20_000);
      expect(DEFAULT_MAX_FRAME_BYTES).to.equal(64 * MiB);
      // The same 1 MiB string again and again: the test itself holds no more than that.
      const result = await run(['data: ', ...endless(70, MiB)], 'openai-chat');
      expectTooLarge(result, 64 * MiB);
      expect(result.pulled).to.be.at.most(64 + 2);
    });

    it('applies to startStream as to consumeStream', async () => {
      const handler = recordingHandler();
      const outcome = await startStream(async () => openChunkReader(trackedSource([chatDelta('ok'), chatDelta('z'.repeat(5000))])), handler, { format: 'openai-chat', maxFrameBytes: 1000 });
      expectTooLarge({ calls: handler.calls, outcome }, 1000);
      expect(text(outcome)).to.equal('ok');
    });

    it('lets a frame larger than the default through with Infinity', async function () {
      this.timeout(60_000);
      const length = 64 * MiB + 1000;
      const child = await runIsolated(
        `
        const { consumeStream } = require(${JSON.stringify(`${ROOT}/lib/driver/consume-stream`)});
        const piece = 'x'.repeat(${MiB});
        async function* source() {
          yield 'data: {"choices":[{"index":0,"delta":{"content":"';
          for (let left = ${length}; left > 0; left -= piece.length) yield left >= piece.length ? piece : piece.slice(0, left);
          yield '"}}]}\\n\\ndata: [DONE]\\n\\n';
        }
        consumeStream(source(), { onCompleteResponse() {}, onError() {} }, { format: 'openai-chat', maxFrameBytes: Infinity }).then((outcome) => {
          const text = outcome.status === 'completed' ? outcome.response.aiMessage.text : null;
          console.log(JSON.stringify({ status: outcome.status, length: text && text.length, onlyX: text !== null && /^x+$/.test(text) }));
        });`,
        { maxOldSpaceMb: 1024, timeoutMs: 50_000 },
      );
      expect(child.stdout.trim(), child.stderr.slice(0, 600)).to.equal(JSON.stringify({ status: 'completed', length, onlyX: true }));
    });
  });

  describe('memory', () => {
    it('stays bounded while a never-ending line of 300 MiB is offered (heap and resident memory watched): SSE, NDJSON and sniffing', async function () {
      this.timeout(60_000);
      const child = await runIsolated(
        `
        const { consumeStream } = require(${JSON.stringify(`${ROOT}/lib/driver/consume-stream`)});
        (async () => {
          for (const [format, head, limit] of [
            ['openai-chat', 'data: {"choices":[{"index":0,"delta":{"content":"', ${4 * MiB}],
            ['ollama', '{"model":"m","message":{"content":"', ${4 * MiB}],
            ['auto', 'data: {"choices":[{"index":0,"delta":{"content":"', ${512 * KiB}],
          ]) {
            let pulled = 0;
            let peakHeap = 0;
            let peakRss = 0;
            if (global.gc) global.gc();
            const baseRss = process.memoryUsage().rss;
            async function* source() {
              yield head;
              // Fresh bytes each time, decoded to a fresh string: nothing is shared.
              for (; pulled < 300; pulled++) {
                const memory = process.memoryUsage();
                peakHeap = Math.max(peakHeap, memory.heapUsed);
                peakRss = Math.max(peakRss, memory.rss - baseRss);
                yield new Uint8Array(${MiB}).fill(0x78);
              }
            }
            const outcome = await consumeStream(source(), { onCompleteResponse() {}, onError() {} }, { format, maxFrameBytes: limit });
            peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
            peakRss = Math.max(peakRss, process.memoryUsage().rss - baseRss);
            const error = outcome.status === 'failed' ? outcome.error : null;
            console.log(JSON.stringify({ format, kind: error && error.kind, names: error !== null && error.message.includes(limit + ' characters') && error.message.includes('maxFrameBytes'), pulled, peakHeapMiB: Math.round(peakHeap / ${MiB}), rssGrowthMiB: Math.round(peakRss / ${MiB}) }));
          }
        })();`,
        { maxOldSpaceMb: 128, timeoutMs: 50_000 },
      );
      expect(child.code, `exit ${child.code} ${child.signal ?? ''}: ${child.stderr.slice(0, 600)}`).to.equal(0);
      const runs = child.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { format: string; kind: string; names: boolean; pulled: number; peakHeapMiB: number; rssGrowthMiB: number });
      expect(runs.map(({ format, kind, names }) => ({ format, kind, names }))).to.deep.equal([
        { format: 'openai-chat', kind: 'malformed', names: true },
        { format: 'ollama', kind: 'malformed', names: true },
        { format: 'auto', kind: 'malformed', names: true },
      ]);
      // Decoded text may live outside the V8 heap: the process's resident memory is watched too.
      for (const { format, pulled, peakHeapMiB, rssGrowthMiB } of runs) {
        expect(pulled, format).to.be.at.most(6);
        expect(peakHeapMiB, format).to.be.below(100);
        expect(rssGrowthMiB, format).to.be.below(100);
      }
    });
  });
});
