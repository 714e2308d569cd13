import { PartsBridge, type IncompleteToolCall } from '../bridge/parts-bridge';
import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import type { StreamingChatResponseHandler } from '../handler/types';
import type { MessagePart } from '../parts/types';
import type { MapperTarget } from '../providers/stream-mapper';
import { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import type { ChunkReader } from '../transport/byte-source';
import { Utf8Decoder } from '../transport/utf8-chunk-decoder';
import type { FrameDecoder } from '../wire/frame-decoder';
import type { WireFrame } from '../wire/wire-decoder';
import { frameDelivery, type RawRequest } from './frame-delivery';
import { FramePump } from './frame-pump';
import { interruptionError, streamOutcome } from './run-outcome';
import { RunState } from './run-state';
import { SafeHandler } from './safe-handler';
import { StreamController } from './stream-controller';
import { isInterrupted, StreamGuard, type Interrupted } from './stream-guard';
import type { OpenStream, StreamLimits, StreamOutcome } from './stream-options';
import type { AnyStreamMapper, FramedDecoder } from './wire-plan';

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
  /** Set through `target.surfaceRaw` while an event is mapped. */
  private readonly raw: RawRequest = { requested: false };
  /** Aborts the request `open` made; created by `open` only (an open source has no request). */
  private transport: AbortController | null = null;
  private guard: StreamGuard | null = null;
  private reader: ChunkReader | null = null;
  private mapper: AnyStreamMapper | null = null;

  constructor(
    handler: StreamingChatResponseHandler,
    private readonly limits: StreamLimits,
    private readonly decoder: FramedDecoder,
  ) {
    this.controller = new StreamController(limits.signal, this.state);
    this.safe = new SafeHandler(handler, this.controller);
    this.bridge = new PartsBridge(this.safe);
    this.tracker = new MappingTrackingHandler(this.bridge);
    // The bridge stops aggregating once the stream is cancelled.
    this.bridge.bindStreamingHandle(this.controller);
    const bridge = this.bridge;
    const raw = this.raw;
    this.target = Object.freeze({
      handler: this.tracker,
      handle: this.controller,
      // Straight to the bridge, in the same order as the callbacks: the part gets the next index.
      completeBlock: (part?: MessagePart | null, attributes?: Readonly<Record<string, string>> | null): void => bridge.completeBlock(part, attributes),
      keepIncompleteToolCall: (call: IncompleteToolCall) => bridge.keepIncompleteToolCall(call),
      surfaceRaw: () => {
        raw.requested = true;
      },
    });
  }

  /** Runs the stream from a transport to open, or from a source already open. */
  async run(source: OpenStream | ChunkReader): Promise<StreamOutcome> {
    if (typeof source !== 'function') this.reader = source;
    try {
      if (!this.state.cancelled) await this.pump(source);
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
    const mapper = this.mapper;
    return streamOutcome(this.state, this.bridge.partialResponse(), () => mapper?.metadataSoFar?.());
  }

  private async pump(source: OpenStream | ChunkReader): Promise<void> {
    // Created at the call (run() reaches here synchronously), so the deadline counts from it.
    const guard = new StreamGuard(this.limits);
    this.guard = guard;
    this.controller.listen(guard);
    const reader = typeof source === 'function' ? await this.open(guard, source) : source;
    if (reader === null) return;
    const text = new Utf8Decoder();
    const plan = this.decoder;
    // The plan until the format is known; then the format's own decoder, called directly.
    let decoder: FrameDecoder<WireFrame> = plan;
    let pump: FramePump | null = null;
    let truncatedFrame = false;
    for (;;) {
      const read = await guard.wait(reader.read());
      if (isInterrupted(read)) {
        this.interrupted(read, 'The connection failed while reading the stream');
        return;
      }
      let frames: readonly WireFrame[];
      let last: readonly WireFrame[] | null = null;
      try {
        if (read.done) {
          this.state.markSourceEnded();
          frames = decoder.feed(text.end());
          const end = decoder.flush();
          last = end.frames;
          truncatedFrame = end.truncatedFrame;
        } else {
          frames = decoder.feed(text.decode(read.value));
        }
      } catch (error) {
        this.fail(new StreamError('format', describeError(error), { cause: error }));
        return;
      }
      if (pump === null && plan.framing !== null) {
        const mapper = plan.createMapper();
        this.mapper = mapper;
        pump = new FramePump(frameDelivery(plan.framing, mapper, this.tracker, this.target, this.raw), this.state, this.safe, (error) => this.fail(error));
        decoder = plan.frameDecoder ?? plan;
      }
      if (pump !== null) {
        let stop = pump.deliverAll(frames);
        if (typeof stop !== 'boolean') stop = await stop;
        if (!stop && last !== null) {
          stop = pump.deliverAll(last);
          if (typeof stop !== 'boolean') stop = await stop;
        }
        if (stop) {
          truncatedFrame = false;
          break;
        }
      }
      // After the delivery: the frames completed before a failure (a frame over the limit) count.
      if (decoder.failure !== null) {
        this.fail(decoder.failure);
        return;
      }
      if (last !== null || decoder.ended) break;
    }
    // The callbacks of the last frames finish before the mapper's pending completions follow them.
    if (this.safe.busy) await this.safe.drained();
    this.end(truncatedFrame);
  }

  /**
   * The reading is over: the mapper ends its part (only while no terminal callback was delivered,
   * and never after a cancel), and a stream still open after that was truncated.
   */
  private end(truncatedFrame: boolean): void {
    const mapper = this.mapper;
    if (mapper !== null && this.state.open) {
      try {
        mapper.end(this.target, truncatedFrame);
      } catch (error) {
        this.fail(new StreamError('malformed', `The ${this.decoder.adapterName} adapter failed at the end of the stream: ${describeError(error)}`, { cause: error }));
      }
    }
    if (this.state.open) this.fail(new StreamError('truncated', 'The stream ended without a complete response'));
  }

  /** Opens the transport; null (after reporting why, unless cancelled) when that did not work out. */
  private async open(guard: StreamGuard, open: OpenStream): Promise<ChunkReader | null> {
    const transport = new AbortController();
    this.transport = transport;
    const opening = Promise.resolve().then(() => open(transport.signal));
    const opened = await guard.wait(opening);
    if (!isInterrupted(opened)) {
      this.reader = opened;
      return opened;
    }
    // A response that arrives after a cancel or a timeout is let go at once.
    opening.then(
      (reader) => reader.cancel(),
      () => undefined,
    );
    this.interrupted(opened, 'The request failed');
    return null;
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
