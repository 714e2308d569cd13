import { describeValue } from '../../parts/describe-value';
import type { JsonObject } from '../../wire/read-json';
import type { SseFrame } from '../../wire/types';

/**
 * Throws a `TypeError` unless `frame` is an `SseFrame` (`{event, data}` with string data): a
 * mapper driven by hand gets a clear error, whichever format it maps.
 */
export function checkSseFrame(frame: SseFrame): void {
  if (typeof frame !== 'object' || frame === null || typeof frame.data !== 'string') {
    throw new TypeError(`Expected an SSE frame {event, data} with string data, got ${describeValue(frame)}`);
  }
}

/** The name of an SSE event: its JSON `type` when it has one (Anthropic, Responses), else the frame's `event:` line. */
export function sseEventType(event: JsonObject, frame: SseFrame): string | null {
  return typeof event.type === 'string' ? event.type : frame.event;
}
