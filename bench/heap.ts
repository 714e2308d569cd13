import type { ChatResponse } from '../lib/handler/types';
import { consumeStream } from '../lib/driver/consume-stream';
import { FinalResponseSink } from './callback-replay';
import { chunkedSource } from './chunked-source';
import { BenchCorrectnessError, checkResponse } from './check';
import { collectGarbage, flatStringBytes, HeapPeak, heapUsed } from './measure';
import type { Subject } from './subject';

/** Heap measurements of one stream, in bytes above the heap before it started. */
export interface HeapRow {
  readonly format: Subject['format'];
  readonly n: number;
  /** Largest V8 used heap seen (every chunk and every 256 callbacks), garbage not yet collected included. */
  readonly peakBytes: number;
  /** Largest heap still live: sampled after a full GC at 64 points through the stream and at its end. */
  readonly peakLiveBytes: number;
  /** The final message's text, reasoning and tool-call arguments as flat strings. */
  readonly finalMessageBytes: number;
  /** Live heap after the stream while the final response is still referenced. */
  readonly heldWithMessageBytes: number;
  /** Live heap once the final response is dropped: what the finished stream left behind. */
  readonly retainedAfterBytes: number;
  /** The peak allowed: 2 × the final message + 32 MiB. */
  readonly limitBytes: number;
}

/** A do-nothing sink that also samples the heap every 256 partial callbacks. */
class HeapSamplingSink extends FinalResponseSink {
  private calls = 0;

  constructor(private readonly peak: HeapPeak) {
    super();
  }

  override onPartialResponse(): void {
    if ((++this.calls & 255) === 0) this.peak.sample();
  }

  override onPartialThinking(): void {
    if ((++this.calls & 255) === 0) this.peak.sample();
  }

  override onPartialToolCall(): void {
    if ((++this.calls & 255) === 0) this.peak.sample();
  }

  override onCompleteResponse(response: ChatResponse): void {
    this.peak.sample();
    super.onCompleteResponse(response);
  }
}

function messageBytes(response: ChatResponse): number {
  const message = response.aiMessage;
  let bytes = flatStringBytes(message.text) + flatStringBytes(message.thinking);
  for (const request of message.toolExecutionRequests) bytes += flatStringBytes(request.arguments);
  return bytes;
}

/** The heap above `baseline` after a full GC. */
function liveHeap(baseline: number): number {
  collectGarbage();
  return heapUsed() - baseline;
}

/**
 * Streams while collecting garbage at 64 points of the stream (and after its end) to see what it
 * keeps alive as it goes; returns the largest live heap above the baseline.
 */
async function measureLiveHeap({ format, chunks }: Subject): Promise<number> {
  collectGarbage();
  const baseline = heapUsed();
  const every = Math.max(1, Math.floor(chunks.length / 64));
  let served = 0;
  let peak = 0;
  const sample = (): void => {
    if (served++ % every === 0) peak = Math.max(peak, liveHeap(baseline));
  };
  const outcome = await consumeStream(chunkedSource(chunks, sample), new FinalResponseSink(), { format });
  if (outcome.status !== 'completed') throw new BenchCorrectnessError(`consumeStream ${format} (live heap run): ${outcome.status}`);
  return Math.max(peak, liveHeap(baseline));
}

/**
 * Streams the subject through `consumeStream` twice, untimed: once sampling the used heap (its
 * peak; then the live heap with the final response held, and after it is dropped), once
 * collecting garbage along the way (the peak live heap). Checks the final response too.
 */
export async function measureHeap(subject: Subject): Promise<HeapRow> {
  const { format, n, chunks, expectation } = subject;
  collectGarbage();
  const baseline = heapUsed();
  const peak = new HeapPeak(baseline);
  // Inside a function of its own, so that nothing of the stream outlives it but the numbers.
  const held = async (): Promise<{ finalMessageBytes: number; heldWithMessageBytes: number }> => {
    const sink = new HeapSamplingSink(peak);
    const outcome = await consumeStream(
      chunkedSource(chunks, () => peak.sample()),
      sink,
      { format },
    );
    peak.sample();
    if (outcome.status !== 'completed') throw new BenchCorrectnessError(`consumeStream ${format} (heap run): ${outcome.status}`);
    const response = sink.take();
    const heldWithMessageBytes = liveHeap(baseline);
    checkResponse(`consumeStream ${format} N=${n} (heap run)`, response, expectation);
    return { finalMessageBytes: messageBytes(response), heldWithMessageBytes };
  };
  const { finalMessageBytes, heldWithMessageBytes } = await held();
  const retainedAfterBytes = liveHeap(baseline);
  const peakLiveBytes = await measureLiveHeap(subject);
  return {
    format,
    n,
    peakBytes: peak.bytes,
    peakLiveBytes,
    finalMessageBytes,
    heldWithMessageBytes,
    retainedAfterBytes,
    limitBytes: 2 * finalMessageBytes + 32 * 2 ** 20,
  };
}
