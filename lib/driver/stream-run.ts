import { PartsBridge, type IncompleteToolCall } from '../bridge/parts-bridge';
import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import type { StreamingChatResponseHandler } from '../handler/types';
import type { MessagePart } from '../parts/types';
import { observeStream, type HttpAttempts, type StreamObserver } from '../telemetry/stream-observer';
import type { MapperTarget } from '../providers/stream-mapper';
import { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import type { ChunkReader } from '../transport/byte-source';
import { Utf8Decoder } from '../transport/utf8-chunk-decoder';
import type { FrameDecoder, FrameDecoderEnd } from '../wire/frame-decoder';
import type { WireFrame } from '../wire/wire-decoder';
import { FrameDelivery } from './frame-delivery';
import { FramePump } from './frame-pump';
import { endResultError } from './mapper-result';
import { interruptionError, streamOutcome } from './run-outcome';
import { RunState } from './run-state';
import { SafeHandler } from './safe-handler';
import { StreamController } from './stream-controller';
import { failedWait, StreamGuard, type Interrupted } from './stream-guard';
import type { ObservationOptions } from '../telemetry/chat-model-listener';
import type { SecretRedaction, StreamLimits, StreamOutcome } from './stream-options';
import type { AttemptObserver } from '../telemetry/http-attempts';
import type { StreamRecorder } from './stream-relay';
import type { AnyFrame, AnyStreamMapper, ChunkDecoder, FramedDecoder } from './wire-plan';

const NO_FRAMES: readonly AnyFrame[] = Object.freeze([]);

/** How a failed read and a failed request are introduced in the network error. */
const READ_FAILED = 'The connection failed while reading the stream';
const OPEN_FAILED = 'The request failed';

/** A transport to open; told how to report the HTTP requests it sends (null when nothing listens). */
type OpenTransport = (signal: AbortSignal, attempts: AttemptObserver | null) => Promise<ChunkReader>;

/** What one read tells the read loop: read on, finish (the mapper's end, then the truncation check), or quit (already reported). */
type Step = 0 | 1 | 2;
const READ_ON: Step = 0;
const FINISH: Step = 1;
const QUIT: Step = 2;

const ignore = (): void => undefined;

/**
 * The read loop's way to its run. `run` empties it when it ends while a read (or the request) is
 * still pending at a cancel or a limit, so that one which never settles keeps nothing of the
 * stream alive.
 */
interface RunLink {
  run: StreamRun | null;
}

/**
 * One run of the driver: the handler chain (user ← SafeHandler ← PartsBridge ←
 * MappingTrackingHandler), the transport and the decoding state of one stream. Its `RunState` is
 * the one record of where the stream stands: the controller marks a cancel in it, the safe
 * handler the terminal callback, the run the source's end.
 */
export class StreamRun {
  private readonly state = new RunState();
  private readonly controller: StreamController;
  private readonly safe: SafeHandler;
  private readonly bridge: PartsBridge;
  private readonly tracker: MappingTrackingHandler;
  private readonly target: MapperTarget;
  /** The per-event step; it also takes the mapper's `surfaceRaw` requests. */
  private readonly delivery: FrameDelivery;
  /** Aborts the request `open` made; created by `open` only (an open source has no request). */
  private transport: AbortController | null = null;
  private guard: StreamGuard | null = null;
  private reader: ChunkReader | null = null;
  private mapper: AnyStreamMapper | null = null;
  private readonly text = new Utf8Decoder();
  /** Where raw chunks go before any text decoding (a binary format, or `auto` judging the first bytes); null: the text path. */
  private chunks: ChunkDecoder | null;
  /** The plan until the format is known; then the format's own decoder. */
  private frameDecoder: FrameDecoder<WireFrame>;
  private framePump: FramePump | null = null;
  /** The source ended inside a frame. */
  private truncatedFrame = false;
  /** The relay's recorder of this stream (the `relay` option), else null. */
  private readonly recorder: StreamRecorder | null = null;
  /** The stream's listeners (SPEC §14); null when none is registered. */
  private readonly observer: StreamObserver | null;

  constructor(
    handler: StreamingChatResponseHandler,
    private readonly limits: StreamLimits & ObservationOptions,
    private readonly decoder: FramedDecoder,
    redaction: SecretRedaction | null = null,
    attempts?: () => HttpAttempts,
  ) {
    this.frameDecoder = decoder;
    this.chunks = decoder.chunkDecoder;
    this.controller = new StreamController(limits.signal, this.state);
    const observer = observeStream(limits, { format: () => decoder.adapterName, provider: () => decoder.descriptor?.telemetry ?? null, partial: () => this.bridge.partialResponse(), attempts });
    this.observer = observer;
    this.safe = new SafeHandler(observer === null ? handler : observer.observe(handler, () => this.outcome()), this.controller, redaction);
    this.bridge = new PartsBridge(this.safe);
    this.tracker = new MappingTrackingHandler(this.bridge);
    // The bridge stops aggregating once the stream is cancelled.
    this.bridge.bindStreamingHandle(this.controller);
    const bridge = this.bridge;
    const delivery = new FrameDelivery(this.tracker);
    this.delivery = delivery;
    this.target = Object.freeze({
      handler: this.tracker,
      handle: this.controller,
      // Straight to the bridge, in the same order as the callbacks: the part gets the next index.
      completeBlock: (part?: MessagePart | null, attributes?: Readonly<Record<string, string>> | null): void => bridge.completeBlock(part, attributes),
      keepIncompleteToolCall: (call: IncompleteToolCall) => bridge.keepIncompleteToolCall(call),
      surfaceRaw: () => delivery.requestRaw(),
      surfaceRawInstead: (rawEvent: unknown) => delivery.replaceRaw(rawEvent),
      consumed: () => delivery.consume(),
    });
    const relay = limits.relay;
    if (relay !== undefined) {
      const recorder = relay.recordStream({
        metadataSoFar: () => this.mapper?.metadataSoFar?.(),
        cancel: (reason?: unknown) => this.controller.cancel(reason),
        fail: (error: Error) => this.failFromOutside(error),
      });
      this.recorder = recorder;
      // The one hook: every input the core takes is recorded there, in the order it took them.
      bridge.record(recorder);
    }
  }

  /** Runs the stream from a transport to open, or from a source already open. */
  async run(source: OpenTransport | ChunkReader): Promise<StreamOutcome> {
    if (typeof source !== 'function') this.reader = source;
    this.observer?.request();
    try {
      if (!this.state.cancelled) {
        // Created at the call (run() reaches here synchronously), so the deadline counts from it.
        const guard = new StreamGuard(this.limits);
        this.guard = guard;
        this.controller.listen(guard);
        // A wait interrupted by a cancel or a limit ends the run at once; the pump, still awaiting
        // the transport, stops without a word whenever that settles (see StreamGuard.end).
        const link: RunLink = { run: this };
        const woken = await Promise.race([StreamRun.pump(link, guard, source), guard.interrupted]);
        if (woken !== undefined) {
          // A read that never settles must not keep the stream alive: the pump waiting on it lets go.
          link.run = null;
          this.interrupted(woken, READ_FAILED);
        }
      }
    } catch (error) {
      // Only a defect gets here (the mapper and the handler chain are guarded); still one onError,
      // and the promise still resolves.
      try {
        this.fail(new StreamError('malformed', `The stream could not be read: ${describeError(error)}`, { cause: error }));
      } catch {
        // The chain itself is broken; the outcome below still says how the stream ended.
      }
    } finally {
      this.release();
    }
    // The promise settles after the terminal callback's promise (and any queued before it) settled.
    if (this.safe.busy) await this.safe.drained();
    const observer = this.observer;
    // Listeners heard of a completion or failure before its terminal callback (with this very
    // outcome); a cancel they hear of here, before the promise settles.
    return observer === null ? this.outcome() : observer.finish(() => this.outcome());
  }

  /** How the stream stands now, as its promise resolves. */
  private outcome(): StreamOutcome {
    const mapper = this.mapper;
    const outcome = streamOutcome(this.state, this.bridge.partialResponse(), () => mapper?.metadataSoFar?.());
    return this.recorder === null ? outcome : this.recorder.end(outcome);
  }

  /** A relay fails the stream from outside the read loop (it was fenced out): one `onError`, and the transport is let go. */
  private failFromOutside(error: Error): void {
    if (!this.state.open) return;
    this.fail(error);
    this.guard?.stop();
  }

  /**
   * Reads the source to its end. The loop holds nothing of a read's work across the next read (a
   * chunk's frames held there would outlive a minor collection, and V8 would start allocating
   * every frame list in the old generation); that work is `take`, a plain call. While it waits on
   * the transport it holds its run only through `link` (see `run`), never in a local.
   */
  private static async pump(link: RunLink, guard: StreamGuard, source: OpenTransport | ChunkReader): Promise<void> {
    const reader = typeof source === 'function' ? await StreamRun.open(link, guard, source) : source;
    if (reader === null) return;
    let step: Step = READ_ON;
    while (step === READ_ON) {
      // The read is asked for first, then the limits checked: a source that makes its data as it is
      // asked (and never yields to the event loop) is held to the deadline at that data.
      let reading: Promise<IteratorResult<Uint8Array | string, unknown>>;
      try {
        reading = reader.read();
      } catch (error) {
        reading = Promise.reject(error);
      }
      const early = guard.begin();
      if (early !== null) {
        // Nobody waits for this read any more; a late failure of it must not go unhandled.
        reading.catch(ignore);
        (link.run as StreamRun).interrupted(early, READ_FAILED);
        return;
      }
      let read: IteratorResult<Uint8Array | string, unknown>;
      try {
        read = await reading;
      } catch (error) {
        if (!guard.end()) (link.run as StreamRun).interrupted(failedWait(error), READ_FAILED);
        return;
      }
      // Interrupted meanwhile: the run went on without this read (and let go of `link`).
      if (guard.end()) return;
      const next = (link.run as StreamRun).take(read);
      step = typeof next === 'number' ? next : await next;
    }
    if (step === QUIT) return;
    const run = link.run as StreamRun;
    // The callbacks of the last frames finish before the mapper's pending completions follow them.
    if (run.safe.busy) await run.safe.drained();
    run.end(run.truncatedFrame);
  }

  /** Decodes one read and delivers its frames; a promise only when a callback's promise is pending. */
  private take(read: IteratorResult<Uint8Array | string, unknown>): Step | Promise<Step> {
    let frames: readonly AnyFrame[];
    let last: readonly AnyFrame[] | null = null;
    try {
      const chunks = this.chunks;
      if (read.done) {
        this.state.markSourceEnded();
        let end: FrameDecoderEnd<AnyFrame>;
        if (chunks !== null) {
          frames = NO_FRAMES;
          end = chunks.endChunks(this.text);
        } else {
          frames = this.frameDecoder.feed(this.text.end());
          end = this.frameDecoder.flush();
        }
        last = end.frames;
        this.truncatedFrame = end.truncatedFrame;
      } else {
        frames = chunks !== null ? chunks.feedChunk(read.value, this.text) : this.frameDecoder.feed(this.text.decode(read.value));
      }
    } catch (error) {
      this.fail(new StreamError('format', describeError(error), { cause: error }));
      return QUIT;
    }
    let pump = this.framePump;
    const plan = this.decoder;
    if (pump === null && plan.framing !== null) {
      const mapper = plan.createMapper();
      this.mapper = mapper;
      this.delivery.start(plan.framing, mapper, this.target);
      pump = new FramePump(this.delivery, this.state, this.safe, (error) => this.fail(error));
      this.framePump = pump;
      // The plan until the format is known; then the format's own decoder, called directly.
      this.frameDecoder = plan.frameDecoder ?? plan;
      this.chunks = plan.chunkDecoder;
      // Listeners hear of a recognised format before the first chunk.
      this.observer?.recognised();
    }
    if (pump === null) return this.afterDelivery(false, last);
    const stop = pump.deliverAll(frames);
    if (typeof stop !== 'boolean') return this.deliverLater(pump, stop, last);
    if (stop || last === null) return this.afterDelivery(stop, last);
    const stopAtEnd = pump.deliverAll(last);
    return typeof stopAtEnd === 'boolean' ? this.afterDelivery(stopAtEnd, last) : this.deliverLater(pump, stopAtEnd, null, last);
  }

  /** `take` once a callback's promise is pending: the rest waits for it. */
  private async deliverLater(pump: FramePump, pending: Promise<boolean>, rest: readonly AnyFrame[] | null, last = rest): Promise<Step> {
    let stop = await pending;
    if (!stop && rest !== null) {
      const more = pump.deliverAll(rest);
      stop = typeof more === 'boolean' ? more : await more;
    }
    return this.afterDelivery(stop, last);
  }

  /** Where reading goes after a read's frames were delivered (`stop`: the delivery ended the stream). */
  private afterDelivery(stop: boolean, last: readonly AnyFrame[] | null): Step {
    if (stop) {
      this.truncatedFrame = false;
      return FINISH;
    }
    // After the delivery: the frames completed before a failure (a frame over the limit) count.
    const decoder = this.frameDecoder;
    if (decoder.failure !== null) {
      this.fail(decoder.failure);
      return QUIT;
    }
    return last !== null || decoder.ended ? FINISH : READ_ON;
  }

  /**
   * The reading is over: the mapper ends its part (only while no terminal callback was delivered,
   * and never after a cancel), and a stream still open after that was truncated.
   */
  private end(truncatedFrame: boolean): void {
    const mapper = this.mapper;
    if (mapper !== null && this.state.open) {
      try {
        const result: unknown = mapper.end(this.target, truncatedFrame);
        // An `async end` has not delivered its terminal callback yet: the stream is not waited for.
        const misuse = endResultError(result);
        if (misuse !== null && this.state.open) throw misuse;
      } catch (error) {
        this.fail(new StreamError('malformed', `The ${this.decoder.adapterName} adapter failed at the end of the stream: ${describeError(error)}`, { cause: error }));
      }
    }
    if (this.state.open) this.fail(new StreamError('truncated', 'The stream ended without a complete response'));
  }

  /** Opens the transport; null (after reporting why, unless cancelled) when that did not work out. Holds its run as `pump` does. */
  private static async open(link: RunLink, guard: StreamGuard, open: OpenTransport): Promise<ChunkReader | null> {
    const transport = new AbortController();
    (link.run as StreamRun).transport = transport;
    const early = guard.begin();
    if (early !== null) {
      (link.run as StreamRun).interrupted(early, OPEN_FAILED);
      return null;
    }
    const attempts = (link.run as StreamRun).observer;
    let reader: ChunkReader;
    try {
      reader = await Promise.resolve().then(() => open(transport.signal, attempts));
    } catch (error) {
      if (!guard.end()) (link.run as StreamRun).interrupted(failedWait(error), OPEN_FAILED);
      return null;
    }
    if (guard.end()) {
      // A response that arrives after a cancel or a timeout is let go at once.
      reader.cancel();
      return null;
    }
    const run = link.run as StreamRun;
    run.reader = reader;
    run.observer?.headers();
    return reader;
  }

  private interrupted(outcome: Interrupted, failedWhat: string): void {
    const error = interruptionError(outcome, this.limits, this.state, failedWhat);
    if (error !== null) this.fail(error);
  }

  private fail(error: Error): void {
    this.tracker.onError(error);
  }

  /** Lets go of the transport (unless the body was read to its end) and of every listener. */
  private release(): void {
    this.guard?.dispose();
    this.controller.listen(null);
    this.controller.dispose();
    if (!this.state.sourceEnded) {
      this.reader?.cancel(this.state.cancelled ? this.controller.signal.reason : undefined);
      this.transport?.abort();
    }
  }
}
