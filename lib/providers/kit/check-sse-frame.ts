import { describeValue } from '../../parts/describe-value';
import type { SseFrame } from '../../wire/types';

/** Throws a `TypeError` unless `frame` is an `SseFrame` (`{event, data}` with string data). */
export function checkSseFrame(frame: SseFrame): void {
  if (typeof frame !== 'object' || frame === null || typeof frame.data !== 'string') {
    throw new TypeError(`Expected an SSE frame {event, data} with string data, got ${describeValue(frame)}`);
  }
}
