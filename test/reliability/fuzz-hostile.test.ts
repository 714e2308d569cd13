import { expect } from 'chai';
import fc from 'fast-check';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import type { ChatResponse, StreamingChatResponseHandler } from '../../lib/handler/types';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import { StreamError } from '../../lib/handler/stream-error';
import type { WireFormat } from '../../lib/providers/registry';
import { FUZZ_RUNS, replayNote, seedFor } from './support/fuzz-config';
import { chunksOf, FORMATS, hostileBody, hostileShape, HOSTILE_MAX_FRAME, type HostileShape } from './support/hostile-streams';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

/** The own property names of the built-in prototypes a polluting write would change. */
function prototypeSnapshot(): string {
  const names = (value: object): string[] => Object.getOwnPropertyNames(value).sort();
  return JSON.stringify([names(Object.prototype), names(Array.prototype), names(Function.prototype), names(String.prototype)]);
}

/** Every error in a cause chain (bounded, a chain can be circular). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 16 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

interface Run {
  readonly terminals: string[];
  readonly callbackErrors: number;
  readonly outcome: StreamOutcome;
}

async function run(format: WireFormat | 'auto', chunks: readonly Uint8Array[]): Promise<Run> {
  const terminals: string[] = [];
  let callbackErrors = 0;
  const handler: StreamingChatResponseHandler = {
    onPartialResponse: () => undefined,
    onPartialThinking: () => undefined,
    onPartialToolCall: () => undefined,
    onCompleteToolCall: () => undefined,
    onUnmappedRawEvent: () => undefined,
    onCompleteResponse: (response: ChatResponse) => {
      terminals.push(`completed with ${response.aiMessage.parts.length} part(s)`);
    },
    onError: (error) => {
      if (HandlerCallbackError.isInstance(error)) callbackErrors++;
      else terminals.push(`failed: ${error.message.slice(0, 200)}`);
    },
  };
  async function* source(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  const outcome = await consumeStream(source(), handler, { format, maxFrameBytes: HOSTILE_MAX_FRAME });
  return { terminals, callbackErrors, outcome };
}

/** Cases per format: a tenth of FUZZ_RUNS, at least 20 (50 each under `npm test`). */
const RUNS = Math.max(20, Math.ceil(FUZZ_RUNS / 10));
const SLACK_MS = 2_000;
/** A generous per-byte budget: a linear decoder needs well under a microsecond a byte. */
const MS_PER_BYTE = 0.02;

describe(`fuzz: hostile streams (${replayNote()})`, () => {
  let watch: UnhandledWatch;
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  for (const format of FORMATS) {
    it(`${format}: any hostile shape settles once, in time linear in its bytes, with bounded memory and no prototype touched (${RUNS} cases)`, async function () {
      this.timeout(0);
      const prototypes = prototypeSnapshot();
      await fc.assert(
        fc.asyncProperty(hostileShape(format), fc.array(fc.nat({ max: 1 << 20 }), { maxLength: 8 }), fc.boolean(), async (shape: HostileShape, offsets, auto) => {
          const mark = watch.escaped.length;
          const body = hostileBody(format, shape);
          const chunks = chunksOf(body, shape, offsets);
          const heapBefore = process.memoryUsage().heapUsed;
          const started = performance.now();
          const result = await run(auto ? 'auto' : format, chunks);
          const elapsed = performance.now() - started;
          const grown = process.memoryUsage().heapUsed - heapBefore;

          expect(result.terminals, 'exactly one terminal callback').to.have.lengthOf(1);
          expect(result.callbackErrors, 'callback errors from a handler that never throws').to.equal(0);
          expect(result.outcome.status, 'completed or failed, never left open').to.be.oneOf(['completed', 'failed']);
          if (result.outcome.status === 'failed') {
            const error = result.outcome.error;
            expect(StreamError.isInstance(error), `a StreamError, got ${error.name}: ${error.message}`).to.equal(true);
            for (const link of causeChain(error)) {
              expect(link instanceof RangeError, `a RangeError in the cause chain: ${String(link)}`).to.equal(false);
            }
            expect(error.message).to.not.match(/Maximum call stack/);
          }
          if (shape.type === 'oversize-frame') {
            expect(result.outcome.status, 'an oversize frame fails the stream').to.equal('failed');
            if (result.outcome.status === 'failed') {
              expect((result.outcome.error as StreamError).kind).to.equal('malformed');
              expect(result.outcome.error.message).to.include('maxFrameBytes');
            }
          }
          expect(prototypeSnapshot(), 'built-in prototypes unchanged').to.equal(prototypes);
          expect(({} as Record<string, unknown>).polluted, 'Object.prototype.polluted').to.equal(undefined);
          expect(elapsed, `time for ${body.length} characters (${chunks.length} chunk(s))`).to.be.below(SLACK_MS + body.length * MS_PER_BYTE);
          // A padded array or a frame buffered many times over would show here; garbage not yet collected stays well below.
          expect(grown, 'heap growth in bytes').to.be.below(64 * 1024 * 1024 + body.length * 64);
          await watch.settle(mark);
        }),
        { seed: seedFor('hostile', format), numRuns: RUNS },
      );
    });
  }
});
