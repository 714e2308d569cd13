import type { DeltaType } from '../parts/part-index-counter';

/**
 * Where a response's events go, each numbered by the sink with the next sequence (1, 2, 3 …):
 * the producer's batch writer, or a plain `PartstreamEncoder`. Nothing is taken after the
 * terminal event.
 */
export interface RelayEventSink {
  /** The sequence of the last event taken (0 before any). */
  readonly last: number;
  /** True once the terminal event was taken. */
  readonly terminated: boolean;
  /** A `delta` event without payload (the per-token event): data `{index, type, text}`. */
  delta(index: number, type: DeltaType, text: string): void;
  /** A `tool-delta` event: data `{index, call, id, name, arguments}`. */
  toolDelta(index: number, call: number, id: string | null, name: string | null, args: string): void;
  /** An event of `type` whose data is the one-line JSON text `data`; false (nothing taken) after the terminal. */
  emit(type: string, data: string, terminal?: boolean): boolean;
}

/** Where a `PartstreamEncoder` hands each encoded event, in sequence order (a test's list). */
export interface EncodedEventSink {
  /** One event: its sequence, its whole SSE text, and whether it is the terminal event. */
  event(sequence: number, text: string, terminal: boolean): void;
}

/**
 * The `partstream` v1 SSE text of one event (`JSON.stringify` never writes a raw line break, so
 * `data` is one line): `id: <sequence>\nevent: <type>\ndata: <data>\n\n`.
 */
export function encodeEvent(sequence: number, type: string, data: string): string {
  return `id: ${sequence}\nevent: ${type}\ndata: ${data}\n\n`;
}

/**
 * The plain encoder: numbers a response's events 1, 2, 3 … and encodes each on its own with
 * `encodeEvent` (a delta's data with `JSON.stringify`), handing it to the sink. The producer's
 * batch writer writes the same text a batch at a time.
 */
export class PartstreamEncoder implements RelayEventSink {
  private sequence = 0;
  private ended = false;

  constructor(private readonly sink: EncodedEventSink) {}

  get last(): number {
    return this.sequence;
  }

  get terminated(): boolean {
    return this.ended;
  }

  delta(index: number, type: DeltaType, text: string): void {
    this.emit('delta', JSON.stringify({ index, type, text }));
  }

  toolDelta(index: number, call: number, id: string | null, name: string | null, args: string): void {
    this.emit('tool-delta', JSON.stringify({ index, call, id, name, arguments: args }));
  }

  emit(type: string, data: string, terminal = false): boolean {
    if (this.ended) return false;
    if (terminal) this.ended = true;
    const sequence = ++this.sequence;
    this.sink.event(sequence, encodeEvent(sequence, type, data), terminal);
    return true;
  }
}
