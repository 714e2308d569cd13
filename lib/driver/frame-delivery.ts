import type { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import type { MapperTarget, StreamMapper } from '../providers/stream-mapper';
import type { SseFrame } from '../wire/types';
import type { NdjsonLine } from '../wire/frame-decoder';
import { isSseSentinel } from '../wire/sse-decoder';
import type { WireFrame } from '../wire/wire-decoder';
import type { Framing } from './wire-plan';

/** Delivers one frame; true when reading should stop (the format's terminal event). */
export type FrameDelivery = (frame: WireFrame) => boolean;

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
  if (framing === 'ndjson') {
    const lines = mapper as StreamMapper<unknown>;
    return (frame) => {
      const line = frame as NdjsonLine;
      tracker.resetMappingTracking();
      raw.requested = false;
      if (!line.ok) {
        tracker.onUnmappedRawEvent(line.text);
        return false;
      }
      const stop = lines.map(line.value, target);
      if (raw.requested || !tracker.wasMapped()) tracker.onUnmappedRawEvent(line.value ?? 'null');
      return stop;
    };
  }
  const frames = mapper as StreamMapper<SseFrame>;
  return (frame) => {
    const sse = frame as SseFrame;
    tracker.resetMappingTracking();
    raw.requested = false;
    const stop = frames.map(sse, target);
    if (isSseSentinel(sse)) return true;
    if (raw.requested || !tracker.wasMapped()) tracker.onUnmappedRawEvent(sse);
    return stop;
  };
}
