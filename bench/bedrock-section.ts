// The Amazon Bedrock section of `npm run bench` (issue 25's target: Bedrock ≤ 1.0× its floor),
// also run alone by `npm run bench:bedrock`. A 10⁵-delta ConverseStream body, encoded by the AWS
// event-stream codec, is read in 16 KiB chunks by partstream's event-stream decoder (with a plain
// join of the text deltas) and by the floor: the straightforward chain of splitting messages by
// their prelude's length, CRC32 of prelude and message (zlib's), `TextDecoder`, `JSON.parse` and
// the same join. Both sides check every CRC and read every payload.

import { crc32 } from 'node:zlib';
import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { consumeStream } from '../lib/driver/consume-stream';
import { createEventStreamDecoder } from '../lib/wire/aws-eventstream/eventstream-decoder';
import { FinalResponseSink } from './callback-replay';
import { chunkedSource } from './chunked-source';
import { interleave } from './measure';
import type { Target } from './report';
import { mulberry32 } from './transcript-content';

const N = 100_000;
const CHUNK = 16 * 1024;
const SEED = 0x5eed;
const ROUNDS = process.env.BENCH_QUICK === '1' ? { warmup: 1, reps: 3 } : { warmup: 2, reps: 11 };
const LIMIT = 1;

const PARTSTREAM = 'partstream event-stream decoder + join';
const E2E = "partstream consumeStream (format 'bedrock-converse': decoder, mapper, bridge, final message)";
const FLOOR = 'floor: split by prelude + CRC32 + TextDecoder + JSON.parse + join';

// Bedrock pads every payload with `p`: a prefix of this alphabet, of varying length.
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const WORDS = ['the', ' capital', ' of', ' France', ' is', ' Paris', '.', ' It', ' lies', ' on', ' the Seine', ',', ' ünïcödé', ' 東京', ' and', ' more'];

function event(codec: EventStreamCodec, eventType: string, payload: Record<string, unknown>, random: () => number): Uint8Array {
  const message: Message = {
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify({ ...payload, p: PADDING.slice(0, 1 + Math.floor(random() * PADDING.length)) })),
  };
  return codec.encode(message);
}

/** A ConverseStream body of `n` text deltas in one block, as Bedrock frames it, and its text. */
export function bedrockBody(n: number, seed: number): { bytes: Uint8Array; text: string } {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const random = mulberry32(seed);
  const frames: Uint8Array[] = [event(codec, 'messageStart', { role: 'assistant' }, random)];
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    let text = '';
    for (let words = 1 + Math.floor(random() * 4); words > 0; words--) text += WORDS[Math.floor(random() * WORDS.length)];
    texts.push(text);
    frames.push(event(codec, 'contentBlockDelta', { contentBlockIndex: 0, delta: { text } }, random));
  }
  frames.push(event(codec, 'contentBlockStop', { contentBlockIndex: 0 }, random));
  frames.push(event(codec, 'messageStop', { stopReason: 'end_turn' }, random));
  frames.push(event(codec, 'metadata', { usage: { inputTokens: 12, outputTokens: n, totalTokens: n + 12 }, metrics: { latencyMs: 1234 } }, random));
  const bytes = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let at = 0;
  for (const frame of frames) {
    bytes.set(frame, at);
    at += frame.length;
  }
  return { bytes, text: texts.join('') };
}

interface DeltaPayload {
  readonly delta?: { readonly text?: unknown };
}

/** partstream's decoder, and the text of every `contentBlockDelta` joined. */
export function viaDecoder(chunks: readonly Uint8Array[]): string {
  const decoder = createEventStreamDecoder(64 * 2 ** 20);
  const texts: string[] = [];
  for (const chunk of chunks) {
    for (const frame of decoder.feed(chunk)) {
      if (frame.eventType !== 'contentBlockDelta' || !frame.payload.ok) continue;
      const text = (frame.payload.value as DeltaPayload).delta?.text;
      if (typeof text === 'string') texts.push(text);
    }
  }
  if (decoder.failure !== null) throw decoder.failure;
  if (decoder.flush().truncatedFrame) throw new Error('The decoder reported a truncated frame');
  return texts.join('');
}

function uint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/**
 * The floor: the leftover of each chunk is joined with the next, every message is cut by the
 * length in its prelude, both CRCs are checked with zlib's crc32, the payload is decoded and
 * parsed, and the text deltas are joined. The headers are not read (the payload says enough).
 */
export function floor(chunks: readonly Uint8Array[]): string {
  const utf8 = new TextDecoder();
  const texts: string[] = [];
  let rest: Uint8Array = new Uint8Array(0);
  for (const chunk of chunks) {
    let bytes = chunk;
    if (rest.length > 0) {
      bytes = new Uint8Array(rest.length + chunk.length);
      bytes.set(rest);
      bytes.set(chunk, rest.length);
    }
    let at = 0;
    while (bytes.length - at >= 12) {
      const total = uint32(bytes, at);
      if (crc32(bytes.subarray(at, at + 8)) !== uint32(bytes, at + 8)) throw new Error('prelude CRC mismatch');
      if (bytes.length - at < total) break;
      if (crc32(bytes.subarray(at, at + total - 4)) !== uint32(bytes, at + total - 4)) throw new Error('message CRC mismatch');
      const payload = JSON.parse(utf8.decode(bytes.subarray(at + 12 + uint32(bytes, at + 4), at + total - 4))) as DeltaPayload;
      const text = payload.delta?.text;
      if (typeof text === 'string') texts.push(text);
      at += total;
    }
    rest = bytes.slice(at);
  }
  if (rest.length > 0) throw new Error('The floor ended inside a message');
  return texts.join('');
}

/** Runs the Bedrock section; `log` prints a line. Returns its target. */
export async function measureBedrock(log: (line: string) => void): Promise<Target[]> {
  const { bytes, text } = bedrockBody(N, SEED);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.slice(at, at + CHUNK));
  log(`  bedrock: ${N} text deltas, ${(bytes.length / 2 ** 20).toFixed(1)} MiB in ${chunks.length} chunks of ${CHUNK / 1024} KiB`);
  const check = (name: string) => (result: unknown) => {
    if (result !== text) throw new Error(`${name}: the joined text differs from the generated one`);
  };
  const endToEnd = async (): Promise<string | null> => {
    const sink = new FinalResponseSink();
    const outcome = await consumeStream(chunkedSource(chunks), sink, { format: 'bedrock-converse' });
    if (outcome.status !== 'completed') throw new Error(`${E2E}: ${outcome.status}`);
    return sink.take().aiMessage.text;
  };
  const timings = await interleave(
    [
      { name: PARTSTREAM, run: () => viaDecoder(chunks), check: check(PARTSTREAM) },
      { name: E2E, run: endToEnd, check: check(E2E) },
      { name: FLOOR, run: () => floor(chunks), check: check(FLOOR) },
    ],
    { ...ROUNDS, gc: 'minor', onRound: (round) => log(`  bedrock: round ${round + 1}/${ROUNDS.warmup + ROUNDS.reps}`) },
  );
  const ours = timings.get(PARTSTREAM);
  const theirs = timings.get(FLOOR);
  if (ours === undefined || theirs === undefined) throw new Error('The Bedrock section lost its timings');
  const ratio = ours.wall.median / theirs.wall.median;
  log(
    `  bedrock: ${PARTSTREAM} ${ours.wall.median.toFixed(1)} ms, ${FLOOR} ${theirs.wall.median.toFixed(1)} ms (medians): ` +
      `${ratio.toFixed(2)}× (from the fastest runs ${(ours.wall.min / theirs.wall.min).toFixed(2)}×; CPU ${(ours.cpu.median / theirs.cpu.median).toFixed(2)}×)`,
  );
  const whole = timings.get(E2E);
  if (whole === undefined) throw new Error('The Bedrock section lost its end-to-end timings');
  const wholeRatio = whole.wall.median / theirs.wall.median;
  log(`  bedrock: ${E2E} ${whole.wall.median.toFixed(1)} ms: ${wholeRatio.toFixed(2)}× the floor (CPU ${(whole.cpu.median / theirs.cpu.median).toFixed(2)}×)`);
  return [
    { name: `bedrock: event-stream decoder ÷ floor, N=${N}`, value: ratio, valueFromMins: ours.wall.min / theirs.wall.min, limit: LIMIT, pass: ratio <= LIMIT },
    { name: `bedrock: consumeStream end to end ÷ floor, N=${N}`, value: wholeRatio, valueFromMins: whole.wall.min / theirs.wall.min, limit: LIMIT, pass: wholeRatio <= LIMIT },
  ];
}
