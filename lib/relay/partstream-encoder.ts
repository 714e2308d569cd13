/** Where encoded events go, in sequence order (the producer's batcher; a test's list). */
export interface EncodedEventSink {
  /** One event: its sequence, its whole SSE text, and whether it is the terminal event. */
  event(sequence: number, text: string, terminal: boolean): void;
}

/**
 * Numbers a response's events 1, 2, 3 … and encodes each once, as its `partstream` v1 SSE text
 * (`id: <sequence>\nevent: <type>\ndata: <one-line JSON>\n\n`; `JSON.stringify` never writes a raw
 * line break), handing it to the sink. Nothing is emitted after the terminal event.
 */
export class PartstreamEncoder {
  private sequence = 0;
  private ended = false;
  /** `\nevent: <type>\ndata: ` of the last event's type. */
  private type = '';
  private lines = '';

  constructor(private readonly sink: EncodedEventSink) {}

  /** The sequence of the last event emitted (0 before any). */
  get last(): number {
    return this.sequence;
  }

  /** True once the terminal event was emitted. */
  get terminated(): boolean {
    return this.ended;
  }

  /** Emits one event whose data is the JSON text `data`; false (nothing emitted) after the terminal. */
  emit(type: string, data: string, terminal = false): boolean {
    if (this.ended) return false;
    if (terminal) this.ended = true;
    const sequence = ++this.sequence;
    // The event and data line openings repeat: built once per type, not per event.
    if (type !== this.type) {
      this.type = type;
      this.lines = `\nevent: ${type}\ndata: `;
    }
    this.sink.event(sequence, `id: ${sequence}${this.lines}${data}\n\n`, terminal);
    return true;
  }
}
