import type { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import type { MapperTarget, StreamMapper } from '../providers/stream-mapper';
import type { SseFrame } from '../wire/types';
import type { NdjsonLine } from '../wire/frame-decoder';
import { isSseSentinel } from '../wire/sse-decoder';
import type { WireFrame } from '../wire/wire-decoder';
import type { Framing } from './wire-plan';

/** The per-event step of a framing (see `frameDelivery`). */
export interface FrameDelivery {
  /** Delivers one frame; true when reading should stop (the format's terminal event). */
  deliver(frame: WireFrame): boolean;
}

/** Set by `MapperTarget.surfaceRaw` while an event is mapped: surface it raw even though it was mapped. */
export interface RawRequest {
  requested: boolean;
}

/**
 * The per-event step of a framing: reset the tracker, let the mapper map the event, and surface
 * the untouched event through `onUnmappedRawEvent` when no typed callback fired (or the mapper
 * called `surfaceRaw`: the event was only partly mapped) — `{event, data}`
 * for SSE, the parsed value for an NDJSON line (the text `null` for a `null` line: raw events are
 * never null), the line's text for a line that is not JSON (the mapper never sees it). The SSE
 * `[DONE]` sentinel reaches the mapper, ends the reading and is never raw.
 */
export function frameDelivery(
  framing: Framing,
  mapper: StreamMapper<SseFrame> | StreamMapper<unknown>,
  tracker: MappingTrackingHandler,
  target: MapperTarget,
  raw: RawRequest,
): FrameDelivery {
  return framing === 'ndjson' ? new NdjsonDelivery(mapper as StreamMapper<unknown>, tracker, target, raw) : new SseDelivery(mapper as StreamMapper<SseFrame>, tracker, target, raw);
}

// Classes rather than closures: a frame reaches the mapper through one object of the stream.

class SseDelivery implements FrameDelivery {
  constructor(
    private readonly mapper: StreamMapper<SseFrame>,
    private readonly tracker: MappingTrackingHandler,
    private readonly target: MapperTarget,
    private readonly raw: RawRequest,
  ) {}

  deliver(frame: WireFrame): boolean {
    const sse = frame as SseFrame;
    const tracker = this.tracker;
    const raw = this.raw;
    tracker.resetMappingTracking();
    raw.requested = false;
    const stop = this.mapper.map(sse, this.target);
    if (isSseSentinel(sse)) return true;
    if (raw.requested || !tracker.wasMapped()) tracker.onUnmappedRawEvent(sse);
    return stop;
  }
}

class NdjsonDelivery implements FrameDelivery {
  constructor(
    private readonly mapper: StreamMapper<unknown>,
    private readonly tracker: MappingTrackingHandler,
    private readonly target: MapperTarget,
    private readonly raw: RawRequest,
  ) {}

  deliver(frame: WireFrame): boolean {
    const line = frame as NdjsonLine;
    const tracker = this.tracker;
    const raw = this.raw;
    tracker.resetMappingTracking();
    raw.requested = false;
    if (!line.ok) {
      tracker.onUnmappedRawEvent(line.text);
      return false;
    }
    const stop = this.mapper.map(line.value, this.target);
    if (raw.requested || !tracker.wasMapped()) tracker.onUnmappedRawEvent(line.value ?? 'null');
    return stop;
  }
}
