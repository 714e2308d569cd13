import type { ChatResponse } from '../handler/types';
import type { DeltaType } from '../parts/part-index-counter';
import type { MessagePart, OpaquePayload, PartAttributes } from '../parts/types';

/** A tool call as it ends, as the core took it (complete, or kept incomplete). */
export interface RecordedToolCall {
  readonly id: string | null;
  readonly name: string | null;
  readonly arguments: string;
  readonly payload: OpaquePayload | null;
}

/**
 * Hears every input a `ResponseCore` took, in the order it took them, each with the index the
 * core gave it; inputs that add nothing (an empty delta without a payload, empty tool-call
 * arguments: no handler sees them either) are not told. The relay's event log is written from these calls; a
 * viewer that feeds the same inputs to a core of its own rebuilds the same response. Called
 * synchronously inside the core: an implementation does no I/O and never throws.
 */
export interface CoreRecorder {
  delta(index: number, type: DeltaType, text: string, payload: OpaquePayload | null): void;
  toolCallDelta(index: number, call: number, id: string | null, name: string | null, args: string): void;
  toolCall(index: number, call: number, fields: RecordedToolCall, incomplete: boolean): void;
  /** `index`: the index `part` took, -1 when no part (or one that adds nothing) was given. */
  block(index: number, part: MessagePart | null, attributes: PartAttributes | null): void;
  /** A raw event forwarded to the handler (not part of the response). */
  raw(rawEvent: unknown): void;
  /** The run completed with the provider's `response`; `providerParts`: its parts were taken as the final parts (nothing was streamed). */
  complete(response: ChatResponse, providerParts: boolean): void;
}
