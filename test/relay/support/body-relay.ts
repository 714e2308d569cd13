import type { RecordedStream, StreamRecorder, StreamRelay } from '../../../lib/driver/consume-stream';
import { PartstreamEncoder } from '../../../lib/relay/partstream-encoder';
import { PartstreamRecorder } from '../../../lib/relay/partstream-recorder';

/** A relay with no store: the events of one stream collected as one `partstream` body (for the wire-format suites). */
export interface BodyRelay extends StreamRelay {
  /** The body so far. */
  body(): string;
  /** Each event's text, in sequence order (index 0 is sequence 1). */
  readonly events: string[];
  readonly recorder: PartstreamRecorder;
}

export function bodyRelay(responseId = 'resp-1', options: { relayRawEvents?: boolean } = {}): BodyRelay {
  const events: string[] = [];
  const encoder = new PartstreamEncoder({ event: (_sequence, text) => void events.push(text) });
  encoder.emit('start', JSON.stringify({ v: 1, responseId, producerId: 'proc-1', createdAt: '2026-01-01T00:00:00.000Z' }));
  const recorder = new PartstreamRecorder(encoder, responseId, 'proc-1', options.relayRawEvents ?? true);
  return {
    events,
    recorder,
    body: () => events.join(''),
    recordStream(stream: RecordedStream): StreamRecorder {
      recorder.attach(stream);
      return recorder;
    },
  };
}
