import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import { consumeStream } from '../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { createSseDecoder } from '../lib/wire/sse-decoder';
import { parseJsonObject } from '../lib/wire/read-json';
import { generateTranscript, splitBytes, type BenchFormat } from './generate-transcript';
import { interleave, type Contender } from './measure';

// `npm run bench:scanners`: node --expose-gc -r ts-node/register/transpile-only bench/scanner-fixtures.ts
//
// What each format's hand-written scanner (lib/providers/<format>/parse-*.ts) buys over plain
// `JSON.parse` on the recorded streams in ../shared/fixtures (manifest.json) and ../shared/corpus/peer
// (manifest.json), and on the bench's synthetic stream. Two measures, each a ratio scanner / JSON.parse
// (below 1: the scanner wins), the median CPU time of interleaved rounds:
// - parse: the events' data alone, read by a fresh scanner per stream (as a mapper holds one) vs.
//   `JSON.parse` of the same data (`parseJsonObject`, what the mappers fall back to);
// - consumeStream: the production path, each stream through `consumeStream` with the scanner vs.
//   with it switched off (the scanner's entry replaced by `JSON.parse` for the run).
// A scanner stays only where it wins on the recordings. SCANNER_FORMATS=ollama,openai-chat measures
// only those formats.

const SHARED = resolve(__dirname, '..', '..', 'shared');
/** The formats with a scanner. Anthropic's and Gemini's were measured here and removed (bench/README.md). */
const FORMATS: readonly BenchFormat[] = ['openai-chat', 'openai-responses', 'ollama'];
const SELECTED = (process.env.SCANNER_FORMATS ?? '')
  .split(',')
  .map((f) => f.trim())
  .filter((f) => f !== '');
const SYNTHETIC_N = 20_000;
const ROUNDS = { warmup: 2, reps: 9, gc: 'minor' as const };

interface Recording {
  readonly file: string;
  readonly bytes: Buffer;
}

interface ManifestEntry {
  readonly file: string;
  readonly format: string;
}

/** The recorded streams of `format` (bodies of SSE or NDJSON; the recorded HTTP errors left out). */
function recordings(format: BenchFormat): Recording[] {
  const found: Recording[] = [];
  const sources: ReadonlyArray<readonly [string, string]> = [
    [join(SHARED, 'fixtures', 'manifest.json'), join(SHARED, 'fixtures')],
    [join(SHARED, 'corpus', 'peer', 'manifest.json'), join(SHARED, 'corpus', 'peer', 'streams')],
  ];
  for (const [manifest, dir] of sources) {
    const entries = JSON.parse(readFileSync(manifest, 'utf8')) as ManifestEntry[];
    for (const entry of entries) {
      if (entry.format !== format || !/\.(sse|ndjson)$/.test(entry.file)) continue;
      found.push({ file: entry.file, bytes: readFileSync(join(dir, entry.file)) });
    }
  }
  return found;
}

/** The data of each event of one stream, in order: SSE frames' data (the `[DONE]` sentinel left out), or NDJSON's lines. */
function eventData(format: BenchFormat, bytes: Buffer): string[] {
  const text = bytes.toString('utf8');
  if (format === 'ollama') return text.split('\n').filter((line) => line.trim() !== '');
  const decoder = createSseDecoder();
  const frames = [...decoder.feed(text), ...decoder.flush().frames];
  return frames.map((frame) => frame.data).filter((data) => data !== '[DONE]');
}

/** Reads one stream's events: a fresh scanner per stream, as a mapper holds one. */
type StreamParser = (events: readonly string[]) => number;

interface Switch {
  /** The scanner's reading of one stream. */
  readonly scanner: StreamParser;
  /** JSON.parse's reading of the same stream, as the scanner's fallback does it. */
  readonly plain: StreamParser;
  /** Switches the scanner off in production code (its entry then reads with JSON.parse); returns the way back. */
  off(): () => void;
}

/** Loads the scanner of `format` and its switch (required lazily, so each module is the production one). */
function scannerOf(format: BenchFormat): Switch {
  const count =
    (read: (data: string) => unknown): StreamParser =>
    (events) => {
      let objects = 0;
      for (const data of events) {
        try {
          if (read(data) !== undefined) objects++;
        } catch {
          // Not JSON: both readers throw (NDJSON) or answer undefined (SSE) alike.
        }
      }
      return objects;
    };
  const plainObject = count(parseJsonObject);
  const swapMethod = (proto: { read(data: string): unknown }): (() => void) => {
    const original = proto.read;
    proto.read = (data: string) => parseJsonObject(data);
    return () => {
      proto.read = original;
    };
  };
  switch (format) {
    case 'ollama': {
      const module = require('../lib/providers/ollama/parse-ollama-line') as { parseOllamaLine: (text: string) => unknown };
      const scan = module.parseOllamaLine;
      return {
        scanner: count(scan),
        plain: count(JSON.parse),
        off: () => {
          module.parseOllamaLine = JSON.parse;
          return () => {
            module.parseOllamaLine = scan;
          };
        },
      };
    }
    default:
      return readerSwitch(format, plainObject, swapMethod);
  }
}

/** The formats whose scanner is a reader class held per stream. */
function readerSwitch(format: BenchFormat, plainObject: StreamParser, swapMethod: (proto: { read(data: string): unknown }) => () => void): Switch {
  type Reader = { read(data: string): unknown };
  let Make: new () => Reader;
  if (format === 'openai-chat') Make = (require('../lib/providers/openai-chat/parse-openai-chat-chunk') as { OpenAIChatChunkReader: new () => Reader }).OpenAIChatChunkReader;
  else if (format === 'openai-responses')
    Make = (require('../lib/providers/openai-responses/parse-openai-responses-event') as { OpenAIResponsesEventReader: new () => Reader }).OpenAIResponsesEventReader;
  else throw new Error(`No scanner for ${format}`);
  const scanner: StreamParser = (events) => {
    const reader = new Make();
    let objects = 0;
    for (const data of events) if (reader.read(data) !== undefined) objects++;
    return objects;
  };
  return { scanner, plain: plainObject, off: () => swapMethod(Make.prototype as Reader) };
}

const sink: StreamingChatResponseHandler = {
  onPartialResponse() {},
  onPartialThinking() {},
  onPartialToolCall() {},
  onCompleteToolCall() {},
  onUnmappedRawEvent() {},
  onCompleteResponse() {},
  onError() {},
};

/** Each stream once through consumeStream (16 KiB chunks); the statuses, to check both paths agree. */
async function consumeAll(format: BenchFormat, streams: readonly (readonly Uint8Array[])[]): Promise<string> {
  const statuses: string[] = [];
  for (const chunks of streams) {
    const outcome = await consumeStream(
      (async function* () {
        yield* chunks;
      })(),
      sink,
      { format },
    );
    statuses.push(outcome.status);
  }
  return statuses.join(',');
}

interface Row {
  readonly format: BenchFormat;
  readonly streams: number;
  readonly events: number;
  readonly parse: number;
  readonly consume: number;
  readonly syntheticParse: number;
  readonly syntheticConsume: number;
}

/** Median CPU time of `scanner` over median CPU time of `plain`, interleaved. */
async function ratio<R>(label: string, scanner: () => Promise<R> | R, plain: () => Promise<R> | R, before?: () => () => void): Promise<number> {
  let expected: R | undefined;
  const check = (result: R): void => {
    if (expected === undefined) expected = result;
    else if (JSON.stringify(result) !== JSON.stringify(expected)) throw new Error(`${label}: the scanner and JSON.parse disagree (${String(result)} vs ${String(expected)})`);
  };
  const contenders: Contender<R>[] = [
    { name: 'scanner', run: scanner, check },
    {
      name: 'JSON.parse',
      run: async () => {
        const back = before?.();
        try {
          return await plain();
        } finally {
          back?.();
        }
      },
      check,
    },
  ];
  const timings = await interleave(contenders as Contender<unknown>[], ROUNDS);
  const scanned = timings.get('scanner')?.cpu.median ?? NaN;
  const parsed = timings.get('JSON.parse')?.cpu.median ?? NaN;
  return scanned / parsed;
}

/** Repeats `work` until it took about `ms` once, so that one run is long enough to time. */
function repeatsFor(work: () => unknown, ms: number): number {
  const start = performance.now();
  work();
  const once = Math.max(performance.now() - start, 0.01);
  return Math.max(1, Math.ceil(ms / once));
}

async function measureFormat(format: BenchFormat): Promise<Row> {
  const recorded = recordings(format);
  const switches = scannerOf(format);
  const events = recorded.map((r) => eventData(format, r.bytes));
  const streams = recorded.map((r) => splitBytes(r.bytes, 16 * 1024));
  const synthetic = generateTranscript({ format, n: SYNTHETIC_N, seed: 0x5eed });
  const syntheticEvents = [eventData(format, synthetic.bytes)];
  const syntheticStreams = [splitBytes(synthetic.bytes, 16 * 1024)];

  const parseRatio = async (label: string, all: readonly string[][]): Promise<number> => {
    const times = repeatsFor(() => all.forEach((e) => switches.plain(e)), 40);
    const run = (parse: StreamParser) => () => {
      let objects = 0;
      for (let k = 0; k < times; k++) for (const e of all) objects += parse(e);
      return objects;
    };
    return ratio(label, run(switches.scanner), run(switches.plain));
  };
  const consumeRatio = async (label: string, all: readonly (readonly Uint8Array[])[], times: number): Promise<number> => {
    const run = async (): Promise<string> => {
      let statuses = '';
      for (let k = 0; k < times; k++) statuses = await consumeAll(format, all);
      return statuses;
    };
    return ratio(label, run, run, () => switches.off());
  };

  const row: Row = {
    format,
    streams: recorded.length,
    events: events.reduce((sum, e) => sum + e.length, 0),
    parse: await parseRatio(`${format} recordings, parse`, events),
    consume: await consumeRatio(`${format} recordings, consumeStream`, streams, 20),
    syntheticParse: await parseRatio(`${format} synthetic, parse`, syntheticEvents),
    syntheticConsume: await consumeRatio(`${format} synthetic, consumeStream`, syntheticStreams, 1),
  };
  return row;
}

async function main(): Promise<void> {
  for (const name of SELECTED) if (!FORMATS.includes(name as BenchFormat)) throw new Error(`SCANNER_FORMATS: unknown format ${JSON.stringify(name)}`);
  const formats = SELECTED.length === 0 ? FORMATS : FORMATS.filter((f) => SELECTED.includes(f));
  const rows: Row[] = [];
  for (const format of formats) {
    const row = await measureFormat(format);
    rows.push(row);
    console.error(`  ${format}: done`);
  }
  const fixed = (x: number): string => x.toFixed(2);
  console.log('scanner / JSON.parse, median CPU time (below 1.00: the scanner wins)');
  console.log('| format | recorded streams | events | parse, recordings | consumeStream, recordings | parse, synthetic | consumeStream, synthetic |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.format} | ${r.streams} | ${r.events} | ${fixed(r.parse)} | ${fixed(r.consume)} | ${fixed(r.syntheticParse)} | ${fixed(r.syntheticConsume)} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
