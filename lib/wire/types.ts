/** One decoded Server-Sent Event: the event name (or null) and its data lines joined by "\n", untouched. */
export interface SseFrame {
  readonly event: string | null;
  readonly data: string;
}

/** An SSE frame of the `partstream` relay format: also its `id:` field (the event's sequence), or null when it had none. */
export interface SequencedSseFrame extends SseFrame {
  readonly id: string | null;
}
