import { PartsBridge, type IncompleteToolCall } from '../bridge/parts-bridge';
import { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import { SafeHandler } from './safe-handler';
import { StreamController } from './stream-controller';
import type { ChatResponse, StreamingChatResponseHandler } from '../handler/types';
import { chatResponse, responseMetadata } from '../handler/values';
import { describeValue } from '../parts/describe-value';
import type { MessagePart } from '../parts/types';
import type { ChunkReader } from '../transport/byte-source';
import { describeError } from '../handler/describe-error';
import { frameDelivery, type FrameDelivery, type RawRequest } from './frame-delivery';
import { StreamGuard, type Guarded } from './stream-guard';
import { createUtf8ChunkDecoder } from '../transport/utf8-chunk-decoder';
import { createWireDecoder, type WireFrame } from '../wire/wire-decoder';
import { StreamError } from '../handler/stream-error';
import type { MapperTarget, StreamMapper } from '../providers/stream-mapper';
import type { SseFrame } from '../wire/types';
import { defaultMapperFactory } from '../providers/default-mappers';
import type { MapperFactory } from '../providers/stream-mapper';
import { DEFAULT_MAX_FRAME_BYTES, type OpenStream, type StartStreamOptions, type StreamOutcome } from './stream-options';

/** `deliverFrom`'s answer when reading should stop. */
const STOP = -1;

function assertNever(value: never): never {
  throw new TypeError(`Expected a handled case, got ${describeValue(value)}`);
}

/** One run of the driver: the handler chain, the transport and the decoding state of one stream. */
export class StreamRun {
  private readonly controller: StreamController;
  private readonly safe: SafeHandler;
  private readonly bridge: PartsBridge;
  private readonly tracker: MappingTrackingHandler;
  private readonly target: MapperTarget;
  /** Set through `target.surfaceRaw` while an event is mapped. */
  private readonly raw: RawRequest = { requested: false };
  /** Aborts the request `open` made; created by `open` only (an open source has no request). */
  private transport: AbortController | null = null;
  private readonly createMapper: MapperFactory;
  private guard: StreamGuard | null = null;
  private reader: ChunkReader | null = null;
  private mapper: StreamMapper<SseFrame> | StreamMapper<unknown> | null = null;
  private sourceEnded = false;

  constructor(
    handler: StreamingChatResponseHandler,
    private readonly options: StartStreamOptions,
  ) {
    this.controller = new StreamController(options.signal);
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
    this.createMapper = options.createMapper ?? defaultMapperFactory;
  }

  /** Runs the stream from a transport to open, or from a source already open. */
  async run(source: OpenStream | ChunkReader): Promise<StreamOutcome> {
    if (typeof source !== 'function') this.reader = source;
    try {
      if (!this.controller.isCancelled()) await this.pump(source);
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
    return this.outcome();
  }

  private async pump(source: OpenStream | ChunkReader): Promise<void> {
    // Created at the call (run() reaches here synchronously), so the deadline counts from it.
    const guard = new StreamGuard(this.controller.signal, this.options);
    this.guard = guard;
    const reader = typeof source === 'function' ? await this.open(guard, source) : source;
    if (reader === null) return;
    const text = createUtf8ChunkDecoder();
    const decoder = createWireDecoder(this.options.format, this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    let deliver: FrameDelivery | null = null;
    let mapper: StreamMapper<SseFrame> | StreamMapper<unknown> | null = null;
    let truncatedFrame = false;
    for (;;) {
      const read = await guard.wait(reader.read());
      if (read.type !== 'value') {
        this.interrupted(read, 'The connection failed while reading the stream');
        return;
      }
      let frames: readonly WireFrame[];
      let last: readonly WireFrame[] | null = null;
      try {
        if (read.value.done) {
          this.sourceEnded = true;
          frames = decoder.feed(text.end());
          const end = decoder.flush();
          last = end.frames;
          truncatedFrame = end.truncatedFrame;
        } else {
          frames = decoder.feed(text.decode(read.value.value));
        }
      } catch (error) {
        this.fail(new StreamError('format', describeError(error), { cause: error }));
        return;
      }
      if (deliver === null && decoder.format !== null) {
        mapper = this.createMapper(decoder.format);
        this.mapper = mapper;
        deliver = frameDelivery(decoder.format, mapper, this.tracker, this.target, this.raw);
      }
      if (deliver !== null) {
        let stop = this.deliverAll(deliver, frames);
        if (typeof stop !== 'boolean') stop = await stop;
        if (!stop && last !== null) {
          stop = this.deliverAll(deliver, last);
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
    if (this.safe.busy) await this.awaitHandler();
    if (this.controller.isCancelled()) return;
    // A terminal callback already delivered (while mapping) ends the mapper's part.
    if (mapper !== null && this.safe.state === 'open') {
      try {
        mapper.end(this.target, truncatedFrame);
      } catch (error) {
        this.fail(new StreamError('malformed', `The ${decoder.format ?? ''} adapter failed at the end of the stream: ${describeError(error)}`, { cause: error }));
      }
    }
    if (this.safe.state === 'open') {
      this.fail(new StreamError('truncated', 'The stream ended without a complete response'));
    }
  }

  /** Opens the transport; null (after reporting why, unless cancelled) when that did not work out. */
  private async open(guard: StreamGuard, open: OpenStream): Promise<ChunkReader | null> {
    const transport = new AbortController();
    this.transport = transport;
    const opening = Promise.resolve().then(() => open(transport.signal));
    const opened = await guard.wait(opening);
    if (opened.type === 'value') {
      this.reader = opened.value;
      return opened.value;
    }
    // A response that arrives after a cancel or a timeout is let go at once.
    opening.then(
      (reader) => reader.cancel(),
      () => undefined,
    );
    this.interrupted(opened, 'The request failed');
    return null;
  }

  /**
   * Delivers frames one at a time; true when reading should stop (terminal event, terminal
   * callback, cancel). When a callback returned a promise, the frames after it wait for it and the
   * answer is a promise; the sync path stays a plain loop with one field check per frame.
   */
  private deliverAll(deliver: FrameDelivery, frames: readonly WireFrame[]): boolean | Promise<boolean> {
    const at = this.deliverFrom(deliver, frames, 0);
    if (at === STOP) return true;
    if (!this.safe.busy) return false;
    return this.deliverRest(deliver, frames, at);
  }

  /**
   * Delivers `frames` from `from` on, until a callback's promise is pending: `STOP` when reading
   * should stop, else the index to go on from (`frames.length` once all were delivered).
   */
  private deliverFrom(deliver: FrameDelivery, frames: readonly WireFrame[], from: number): number {
    for (let i = from; i < frames.length; i++) {
      const frame = frames[i] as WireFrame;
      let stop: boolean;
      try {
        stop = deliver(frame);
      } catch (error) {
        const text = 'data' in frame ? frame.data : 'text' in frame ? frame.text : undefined;
        this.fail(new StreamError('malformed', `A frame could not be mapped: ${describeError(error)}`, { cause: error, frame: text }));
        return STOP;
      }
      if (stop || this.safe.state !== 'open') return STOP;
      if (this.safe.busy) return i + 1;
    }
    return frames.length;
  }

  /** The rest of `deliverAll` once a callback's promise is pending: each frame waits for the callbacks before it. */
  private async deliverRest(deliver: FrameDelivery, frames: readonly WireFrame[], from: number): Promise<boolean> {
    let at = from;
    for (;;) {
      await this.awaitHandler();
      if (this.safe.state !== 'open') return true;
      if (at === frames.length) return false;
      at = this.deliverFrom(deliver, frames, at);
      if (at === STOP) return true;
      if (!this.safe.busy) return false;
    }
  }

  /**
   * Waits until the handler's pending callbacks settled, before the source is read further. The
   * idle timeout runs only while a read is pending, so this time never counts against it.
   */
  private awaitHandler(): Promise<void> {
    return this.safe.drained();
  }

  private interrupted(outcome: Exclude<Guarded<unknown>, { type: 'value' }>, failedWhat: string): void {
    switch (outcome.type) {
      case 'stopped':
        return;
      case 'idle':
        this.fail(new StreamError('timeout', `No data arrived for ${this.options.idleTimeoutMs ?? 0} ms (idleTimeoutMs)`));
        return;
      case 'deadline':
        this.fail(new StreamError('timeout', `The stream did not complete within its ${this.options.timeoutMs ?? 0} ms deadline (timeoutMs)`));
        return;
      case 'error': {
        if (this.controller.isCancelled()) return;
        const error = outcome.error;
        this.fail(StreamError.isInstance(error) ? error : new StreamError('network', `${failedWhat}: ${describeError(error)}`, { cause: error }));
        return;
      }
      default:
        assertNever(outcome);
    }
  }

  private fail(error: Error): void {
    this.tracker.onError(error);
  }

  /** Lets go of the transport (unless the body was read to its end) and of every listener. */
  private release(): void {
    this.guard?.dispose();
    this.controller.dispose();
    if (!this.sourceEnded) {
      this.reader?.cancel(this.controller.isCancelled() ? this.controller.signal.reason : undefined);
      this.transport?.abort();
    }
  }

  private outcome(): StreamOutcome {
    const state = this.safe.state;
    switch (state) {
      case 'completed':
        return Object.freeze({ status: 'completed', response: this.bridge.partialResponse() });
      case 'failed':
        return Object.freeze({
          status: 'failed',
          error: this.safe.failure ?? new StreamError('truncated', 'The stream failed'),
          partial: this.partial(),
        });
      case 'cancelled':
      case 'open':
        return Object.freeze({ status: 'cancelled', partial: this.partial() });
      default:
        return assertNever(state);
    }
  }

  /** What was aggregated, with the id, model and usage the mapper saw before the stream broke off. */
  private partial(): ChatResponse {
    const partial = this.bridge.partialResponse();
    const known = this.mapper?.metadataSoFar?.();
    if (known === undefined) return partial;
    const metadata = partial.metadata;
    return chatResponse(
      partial.aiMessage,
      responseMetadata({
        ...metadata,
        id: metadata.id ?? known.id,
        modelName: metadata.modelName ?? known.modelName,
        tokenUsage: metadata.tokenUsage ?? known.tokenUsage ?? null,
        providerUsage: metadata.providerUsage ?? known.providerUsage ?? null,
        providerMetadata: metadata.providerMetadata ?? known.providerMetadata ?? null,
      }),
    );
  }
}
