import { getEventListeners } from 'node:events';
import type { StreamingChatResponseHandler } from '../lib/handler/types';
import { consumeStream, type StreamOutcome } from '../lib/driver/consume-stream';
import type { WireFormat } from '../lib/providers/registry';
import { ChatStream } from '../lib/stream/chat-stream';
import { TRANSCRIPTS, WIRE_FORMATS } from '../test/support/transcripts';

// Resource safety over many sequential streams: run with
//   node --expose-gc -r ts-node/register/transpile-only bench/listener-leak.ts [streams]
// Prints heap, listener and timer counts at the start, middle and end; exits 1 on growth.

const STREAMS = Number(process.argv[2] ?? 10_000);
const WARMUP = 500;
/** Heap growth from start to end that counts as a leak (≈ 400 bytes per stream at 10,000). */
const HEAP_SLACK_BYTES = 4 * 1024 * 1024;
/** Streams whose handler may still be reachable at the end (the last ones, in flight in V8's queues). */
const UNCOLLECTED_SLACK = 50;

type Mode = 'plain-complete' | 'chat-stream-listeners' | 'chat-stream-break' | 'plain-cancel' | 'plain-truncated';
const MODES: readonly Mode[] = ['plain-complete', 'chat-stream-listeners', 'chat-stream-break', 'plain-cancel', 'plain-truncated'];

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('listener-leak: run node with --expose-gc');
  process.exit(2);
}

const encoder = new TextEncoder();
const BODIES = new Map<WireFormat, Uint8Array>(WIRE_FORMATS.map((format) => [format, encoder.encode(TRANSCRIPTS[format])]));

/** The body in a few chunks, as an async iterable that yields a macrotask between chunks. */
async function* chunks(bytes: Uint8Array, cutAt = bytes.length): AsyncGenerator<Uint8Array> {
  const end = Math.min(cutAt, bytes.length);
  const step = Math.max(1, Math.ceil(end / 4));
  for (let at = 0; at < end; at += step) {
    yield bytes.subarray(at, Math.min(end, at + step));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const shared = new AbortController();
let finalised = 0;
const registry = new FinalizationRegistry<null>(() => {
  finalised++;
});
let leftoverListeners = 0;
let unexpected = 0;

function plainHandler(cancelOnFirstPartial: boolean): StreamingChatResponseHandler {
  let texts = 0;
  return {
    onPartialResponse(_partial, context) {
      texts++;
      if (cancelOnFirstPartial) context.streamingHandle.cancel();
    },
    onCompleteResponse() {
      texts = -texts;
    },
    onError() {
      texts = 0;
    },
  };
}

function ownListeners(stream: ChatStream): number {
  return stream.eventNames().reduce((sum, name) => sum + stream.listenerCount(name), 0);
}

async function runOne(i: number): Promise<void> {
  const format = WIRE_FORMATS[i % WIRE_FORMATS.length] as WireFormat;
  const mode = MODES[Math.floor(i / WIRE_FORMATS.length) % MODES.length] as Mode;
  const body = BODIES.get(format) as Uint8Array;
  const options = { format, signal: shared.signal, idleTimeoutMs: 30_000 } as const;
  let outcome: StreamOutcome;
  let expected: StreamOutcome['status'];
  switch (mode) {
    case 'plain-complete':
    case 'plain-cancel':
    case 'plain-truncated': {
      const handler = plainHandler(mode === 'plain-cancel');
      registry.register(handler, null);
      outcome = await consumeStream(chunks(body, mode === 'plain-truncated' ? body.length - 7 : body.length), handler, options);
      expected = mode === 'plain-complete' ? 'completed' : mode === 'plain-cancel' ? 'cancelled' : 'failed';
      break;
    }
    case 'chat-stream-listeners': {
      const stream = new ChatStream();
      registry.register(stream, null);
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the listener does a consumer's work; what it builds is not needed
      let text = '';
      stream.on('partialResponse', (partial) => {
        text += partial.text;
      });
      stream.on('error', () => undefined);
      const running = consumeStream(chunks(body), stream, options);
      await stream.finalResponse();
      outcome = await running;
      expected = 'completed';
      leftoverListeners += ownListeners(stream) - 2;
      break;
    }
    case 'chat-stream-break': {
      const stream = new ChatStream();
      registry.register(stream, null);
      const running = consumeStream(chunks(body), stream, options);
      for await (const event of stream) {
        if (event.type === 'partialResponse') break;
      }
      outcome = await running;
      expected = 'cancelled';
      leftoverListeners += ownListeners(stream);
      break;
    }
  }
  if (outcome.status !== expected) unexpected++;
}

interface Sample {
  readonly at: string;
  readonly streams: number;
  readonly heapUsed: number;
  readonly abortListeners: number;
  readonly timers: number;
  readonly finalised: number;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function sample(at: string, streams: number): Promise<Sample> {
  await settle();
  return {
    at,
    streams,
    heapUsed: process.memoryUsage().heapUsed,
    abortListeners: getEventListeners(shared.signal, 'abort').length,
    timers: process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length,
    finalised,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < WARMUP; i++) await runOne(i);
  const samples: Sample[] = [await sample('start', 0)];
  const counted = finalised;
  for (let i = 0; i < STREAMS; i++) {
    await runOne(WARMUP + i);
    if (i + 1 === Math.floor(STREAMS / 2)) samples.push(await sample('middle', i + 1));
  }
  samples.push(await sample('end', STREAMS));
  const seconds = (performance.now() - started) / 1000;

  const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log(
    `listener-leak: ${STREAMS} sequential streams after ${WARMUP} warm-up (${WIRE_FORMATS.length} formats × ${MODES.join(', ')}), shared AbortSignal, idleTimeoutMs 30000, ${seconds.toFixed(1)} s`,
  );
  console.table(
    samples.map((s) => ({
      at: s.at,
      streams: s.streams,
      heapUsed: mb(s.heapUsed),
      'abort listeners': s.abortListeners,
      'active timers': s.timers,
      'handlers collected': s.finalised - counted,
    })),
  );
  const start = samples[0] as Sample;
  const end = samples[samples.length - 1] as Sample;
  const collected = end.finalised - counted;
  const problems: string[] = [];
  if (end.abortListeners > start.abortListeners) problems.push(`abort listeners on the shared signal grew from ${start.abortListeners} to ${end.abortListeners}`);
  if (end.timers > start.timers) problems.push(`active timers grew from ${start.timers} to ${end.timers}`);
  if (end.heapUsed - start.heapUsed > HEAP_SLACK_BYTES) problems.push(`heap grew by ${mb(end.heapUsed - start.heapUsed)} (limit ${mb(HEAP_SLACK_BYTES)})`);
  if (collected < STREAMS - UNCOLLECTED_SLACK) problems.push(`only ${collected} of ${STREAMS} finished streams' handlers were collected`);
  if (leftoverListeners !== 0) problems.push(`${leftoverListeners} listener(s) left on ChatStreams after their streams ended`);
  if (unexpected !== 0) problems.push(`${unexpected} stream(s) ended with an unexpected outcome`);
  console.log(
    `heap growth start → end: ${mb(end.heapUsed - start.heapUsed)}; handlers collected: ${collected}/${STREAMS}; ChatStream listeners left: ${leftoverListeners}; unexpected outcomes: ${unexpected}`,
  );
  if (problems.length > 0) {
    console.error(`listener-leak: FAILED\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log('listener-leak: OK (no growth)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
