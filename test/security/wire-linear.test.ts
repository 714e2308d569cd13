import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { createSseDecoder } from '../../lib/wire/sse-decoder';
import type { SseFrame } from '../../lib/wire/types';
import { WIRE_FORMATS } from '../support/transcripts';
import { ROOT, runIsolated, type IsolatedRun } from './support/run-isolated';

// Decoding, format sniffing included, must take time linear in the bytes under any chunking and any
// line ends (SPEC §11). Each case times (CPU time) a body of size n and one of size 8n in a child process:
// linear work gives a ratio near 8, quadratic near 64, cubic near 512. The bound leaves room for a
// noisy machine yet stays well below quadratic; the child's kill timer turns a regression that
// would run for minutes into a failure.
const MAX_RATIO = 30;

/** Shared by the child scripts: times `run(size)` for n and 8n, best of a few runs after a warm-up. */
const MEASURE = `
const { consumeStream } = require(${JSON.stringify(`${ROOT}/lib/driver/consume-stream`)});
const { TRANSCRIPTS, TRANSCRIPT_RESULTS } = require(${JSON.stringify(`${ROOT}/test/support/transcripts`)});
async function best(run, size, runs) {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    // CPU time rather than wall-clock time: a busy machine stretches a long run's wall-clock time
    // more than a short one's.
    const started = process.cpuUsage();
    await run(size);
    const used = process.cpuUsage(started);
    fastest = Math.min(fastest, (used.user + used.system) / 1000);
  }
  return fastest;
}
async function measure(name, run, n) {
  await run(n);
  const small = await best(run, n, 3);
  const large = await best(run, 8 * n, 2);
  console.log(JSON.stringify({ name, small, large }));
}
async function text(chunks, format) {
  async function* source() { yield* chunks; }
  let failure = null;
  const outcome = await consumeStream(source(), { onCompleteResponse() {}, onError(error) { failure = failure || error; } }, { format });
  if (outcome.status !== 'completed') throw new Error(format + ': ' + outcome.status + ' ' + (failure && failure.message));
  return outcome.response.aiMessage.text;
}
function expectText(actual, expected) {
  if (actual !== expected) throw new Error('wrong text: ' + JSON.stringify(String(actual).slice(0, 80)) + ' …');
}
`;

interface Timing {
  readonly name: string;
  readonly small: number;
  readonly large: number;
}

/** Runs a measuring script; the timings it printed, by name. */
async function timings(script: string, timeoutMs: number): Promise<{ run: IsolatedRun; byName: Map<string, Timing> }> {
  const run = await runIsolated(`${MEASURE}\n(async () => {\n${script}\n})().catch((error) => { console.error(error); process.exit(1); });`, { timeoutMs });
  const byName = new Map<string, Timing>();
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('{')) {
      const timing = JSON.parse(line) as Timing;
      byName.set(timing.name, timing);
    }
  }
  return { run, byName };
}

function expectLinear(result: { run: IsolatedRun; byName: Map<string, Timing> }, name: string): void {
  const timing = result.byName.get(name);
  const { run } = result;
  expect(timing, `${name} not measured (${run.timedOut ? `killed after ${run.elapsedMs} ms` : `exit ${run.code}`}): ${run.stderr.slice(0, 600)}`).to.not.equal(undefined);
  const ratio = (timing as Timing).large / Math.max((timing as Timing).small, 0.5);
  expect(ratio, `${name}: ${JSON.stringify(timing)}`).to.be.below(MAX_RATIO);
}

/** Every measurement, in one child process (starting one costs more than most of them). */
const SCRIPT = `
// Keep-alives before the first event, one per chunk. SSE keep-alives are comments; NDJSON has
// none, its keep-alives are blank lines.
for (const format of ${JSON.stringify(WIRE_FORMATS)}) {
  const ping = format === 'ollama' ? '\\n' : ': ping\\n';
  for (const mode of [format, 'auto']) {
    await measure('flood ' + format + ' ' + mode, async (n) => {
      const chunks = new Array(n).fill(ping);
      chunks.push(TRANSCRIPTS[format]);
      expectText(await text(chunks, mode), TRANSCRIPT_RESULTS[format].text);
    }, 6000);
  }
}

// Lone-CR line ends, the whole body in one chunk.
const delta = (i) => 'data: ' + JSON.stringify({ choices: [{ index: 0, delta: { content: 'w' + i + ' ' } }] }) + '\\r\\r';
const words = (n) => Array.from({ length: n }, (_, i) => 'w' + i + ' ').join('');
for (const format of ['openai-chat', 'auto']) {
  await measure('lone CR ' + format, async (n) => {
    const body = Array.from({ length: n }, (_, i) => delta(i)).join('') + 'data: [DONE]\\r\\r';
    expectText(await text([body], format), words(n));
  }, 10000);
}
await measure('lone-CR keep-alives', async (n) => {
  const body = ':\\r'.repeat(n) + TRANSCRIPTS['openai-chat'].replace(/\\n/g, '\\r');
  expectText(await text([body], 'auto'), TRANSCRIPT_RESULTS['openai-chat'].text);
}, 20000);

// Keep-alives, a long first frame, then the transcript, one byte per chunk.
const bytewise = (body) => Array.from(new TextEncoder().encode(body), (byte) => Uint8Array.of(byte));
await measure('bytewise sse', async (n) => {
  const first = 'data: ' + JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(4 * n) } }] }) + '\\n\\n';
  const body = ': ping\\n'.repeat(n) + first + TRANSCRIPTS['openai-chat'];
  expectText(await text(bytewise(body), 'auto'), 'x'.repeat(4 * n) + TRANSCRIPT_RESULTS['openai-chat'].text);
}, 1200);
await measure('bytewise ndjson', async (n) => {
  const first = JSON.stringify({ model: 'm', created_at: 't', message: { role: 'assistant', content: 'y'.repeat(4 * n) }, done: false }) + '\\n';
  const body = '\\r\\n'.repeat(n) + first + TRANSCRIPTS.ollama;
  expectText(await text(bytewise(body), 'auto'), 'y'.repeat(4 * n) + TRANSCRIPT_RESULTS.ollama.text);
}, 1200);
`;

describe('Wire decoding stays linear (SPEC §11)', function () {
  this.timeout(150_000);
  let result: Awaited<ReturnType<typeof timings>>;
  before(async () => {
    result = await timings(SCRIPT, 120_000);
  });

  describe('keep-alives before the first event, one per chunk', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}, with the format given`, () => expectLinear(result, `flood ${format} ${format}`));
      it(`${format}, with format auto`, () => expectLinear(result, `flood ${format} auto`));
    }
  });

  describe('lone-CR line ends', () => {
    it('decodes a body of lone-CR lines sent in one chunk in linear time', () => expectLinear(result, 'lone CR openai-chat'));
    it('decodes it in linear time with format auto', () => expectLinear(result, 'lone CR auto'));
    it('sniffs past lone-CR keep-alives in one chunk in linear time', () => expectLinear(result, 'lone-CR keep-alives'));
  });

  describe('one byte per chunk', () => {
    it('sniffs and decodes SSE fed one byte per chunk in linear time', () => expectLinear(result, 'bytewise sse'));
    it('sniffs and decodes NDJSON fed one byte per chunk in linear time', () => expectLinear(result, 'bytewise ndjson'));
  });

  describe('createSseDecoder line ends', () => {
    function reference(text: string): SseFrame[] {
      const frames: SseFrame[] = [];
      const parser = createParser({ onEvent: (message) => frames.push({ event: message.event ?? null, data: message.data }) });
      parser.feed(text);
      parser.feed('\n\n');
      // partstream drops frames whose data is blank and stops after `[DONE]`.
      const kept = frames.filter((frame) => frame.data.trim() !== '');
      const done = kept.findIndex((frame) => frame.data.length < 10 && frame.data.trim() === '[DONE]');
      if (done !== -1) kept[done] = { event: (kept[done] as SseFrame).event, data: '[DONE]' };
      return done === -1 ? kept : kept.slice(0, done + 1);
    }

    function decode(chunks: readonly string[]): SseFrame[] {
      const decoder = createSseDecoder();
      const frames: SseFrame[] = [];
      for (const chunk of chunks) frames.push(...decoder.feed(chunk));
      frames.push(...decoder.flush().frames);
      return frames.map(({ event, data }) => ({ event, data }));
    }

    it('reads a CR at the end of a chunk and an LF opening the next as one line end', () => {
      expect(decode(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).to.deep.equal([{ event: null, data: 'a\nb' }]);
      expect(decode(['data: a\r', '\r'])).to.deep.equal([{ event: null, data: 'a' }]);
    });

    it('decodes LF, CRLF, lone-CR and mixed line ends, split anywhere, as eventsource-parser decodes the whole text (fast-check, seed 1207)', () => {
      const line = fc.constantFrom('data: x', 'data:y', 'data', 'event: e', 'event:', ': ping', 'id: 3', 'retry: 10', 'other: z', 'data: [DONE]', '');
      const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
      const body = fc.array(fc.tuple(line, lineEnd), { maxLength: 30 }).map((lines) => lines.map(([text, end]) => text + end).join(''));
      fc.assert(
        fc.property(body, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
          const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [...offsets, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
          expect(decode(chunks)).to.deep.equal(reference(text));
        }),
        { seed: 1207, numRuns: 2000 },
      );
    });
  });
});
