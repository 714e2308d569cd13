import type { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import type { MapperTarget, StreamMapper } from '../providers/stream-mapper';
import type { SseFrame } from '../wire/types';
import type { NdjsonLine } from '../wire/frame-decoder';
import { isSseSentinel } from '../wire/sse-decoder';
import { mapResultError } from './mapper-result';
import type { AnyFrame, AnyStreamMapper, Framing } from './wire-plan';

/** `rawValue` of an event that surfaces nothing (`MapperTarget.consumed`). */
const CONSUMED: unique symbol = Symbol('consumed');

/**
 * The per-event step of one stream: reset the tracker, let the mapper map the event, and surface
 * the untouched event through `onUnmappedRawEvent` when no typed callback fired (or the mapper
 * called `MapperTarget.surfaceRaw`, which is `requestRaw` here: the event was only partly mapped)
 * — a plain `{event, data}` object for SSE, the parsed value for an NDJSON line (the text `null` for a `null`
 * line: raw events are never null), the line's text for a line that is not JSON (the mapper never
 * sees it). The SSE `[DONE]` sentinel reaches the mapper, ends the reading and is never raw.
 * `map` answers true (the format's terminal event), false or nothing (`undefined`: read on); any
 * other answer — a Promise from an async `map` above all — is a defect of the adapter, thrown as a
 * `TypeError` for the frame pump to report, never taken for "terminal event seen".
 *
 * Made with the stream's tracker before the format is known; `start` gives it the format's mapper
 * once it is. One object per stream, which a frame reaches the mapper through.
 */
export class FrameDelivery {
  private ndjson = false;
  /** A binary or object format's events: mapped as they are, and surfaced raw as they are. */
  private events = false;
  private mapper: AnyStreamMapper | null = null;
  private target: MapperTarget | null = null;
  /** Set by `requestRaw` while an event is mapped. */
  private rawRequested = false;
  /** Set by `replaceRaw` while an event is mapped: what surfaces instead of the event. */
  private rawValue: unknown = undefined;

  constructor(private readonly tracker: MappingTrackingHandler) {}

  /** The format is known: its framing, its mapper, and the target the mapper calls. */
  start(framing: Framing, mapper: AnyStreamMapper, target: MapperTarget): void {
    this.ndjson = framing === 'ndjson';
    this.events = framing === 'aws-eventstream';
    this.mapper = mapper;
    this.target = target;
  }

  /** `MapperTarget.surfaceRaw`: surface the event being mapped raw too, once `map` returns. */
  requestRaw(): void {
    this.rawRequested = true;
  }

  /** `MapperTarget.consumed`: nothing surfaces raw for the event being mapped. */
  consume(): void {
    this.rawRequested = true;
    this.rawValue = CONSUMED;
  }

  /** `MapperTarget.surfaceRawInstead`: surface `value` (not null) instead of the event being mapped, once `map` returns. */
  replaceRaw(value: unknown): void {
    this.rawRequested = true;
    this.rawValue = value;
  }

  /** Delivers one frame; true when reading should stop (the format's terminal event). Only after `start`. */
  deliver(frame: AnyFrame): boolean {
    const tracker = this.tracker;
    tracker.resetMappingTracking();
    this.rawRequested = false;
    if (this.ndjson) return this.deliverLine(frame as NdjsonLine);
    if (this.events) return this.deliverEvent(frame);
    const sse = frame as SseFrame;
    const stop: unknown = (this.mapper as StreamMapper<SseFrame>).map(sse, this.target as MapperTarget);
    if (stop !== true && stop !== false && stop !== undefined) throw mapResultError(stop);
    if (isSseSentinel(sse)) return true;
    if (this.rawRequested || !tracker.wasMapped()) {
      // A raw event is a plain `{event, data}` object (SPEC §2), not the decoder's frame class:
      // what a user logs or inspects is the event, not partstream's internals. Made only here, rarely.
      const raw = this.rawValue === undefined ? { event: sse.event, data: sse.data } : this.takeRawValue();
      if (raw !== CONSUMED) tracker.onUnmappedRawEvent(raw);
    }
    return stop === true;
  }

  private takeRawValue(): unknown {
    const value = this.rawValue;
    this.rawValue = undefined;
    return value;
  }

  /** A binary format's decoded event (or an SDK's event object): mapped as it is, surfaced raw as it is. */
  private deliverEvent(event: AnyFrame): boolean {
    const tracker = this.tracker;
    const stop: unknown = (this.mapper as AnyStreamMapper).map(event, this.target as MapperTarget);
    if (stop !== true && stop !== false && stop !== undefined) throw mapResultError(stop);
    if (this.rawRequested || !tracker.wasMapped()) {
      const raw = this.rawValue === undefined ? event : this.takeRawValue();
      if (raw !== CONSUMED) tracker.onUnmappedRawEvent(raw);
    }
    return stop === true;
  }

  private deliverLine(line: NdjsonLine): boolean {
    const tracker = this.tracker;
    if (!line.ok) {
      tracker.onUnmappedRawEvent(line.text);
      return false;
    }
    const stop: unknown = (this.mapper as StreamMapper<unknown>).map(line.value, this.target as MapperTarget);
    if (stop !== true && stop !== false && stop !== undefined) throw mapResultError(stop);
    if (this.rawRequested || !tracker.wasMapped()) tracker.onUnmappedRawEvent(line.value ?? 'null');
    return stop === true;
  }
}
