import type { IncompleteToolCall } from '../bridge/parts-bridge';
import type { ChatResponseMetadata, StreamingChatResponseHandler, StreamingHandle } from '../handler/types';
import type { MessagePart } from '../parts/types';

/**
 * What a mapper calls: the tracking handler of the chain (typed callbacks set the mapped flag),
 * the streaming handle that the contexts carry, and `completeBlock`, the adapter-side way to say
 * where a provider block ends.
 */
export interface MapperTarget {
  readonly handler: StreamingChatResponseHandler;
  readonly handle: StreamingHandle;
  /**
   * The provider block being streamed is complete; the final message gets one part per block.
   * Call it with no part where a block whose content went through the partial callbacks ends
   * (so that two thinking blocks, two text blocks back to back stay two parts); with a text or
   * reasoning part to add what the block brings at its end (a text block's citations as payload);
   * with any other part (`unknownPart`, `mediaPart`) to hand over a whole block that no callback
   * models, which then keeps its place in stream order. `attributes` (strings), when given, are
   * merged into the part the block produced since the previous `completeBlock` — the part given
   * (or the run it joined), else the block's run of text or reasoning deltas, or the tool call
   * that just completed or was kept incomplete — and stay on it in the final message (e.g. the
   * Responses item id, `itemId`); a block that produced no part takes none. Never seen by the
   * user's handler, and it does not count as mapping the event: an event that only completed a
   * block still surfaces raw. Synchronous and cheap (once per block, never per delta). Every
   * target the driver creates has it; it is optional only so that a target built by hand (an
   * adapter's unit test) stays valid.
   */
  readonly completeBlock?: ((part?: MessagePart | null, attributes?: Readonly<Record<string, string>> | null) => void) | undefined;
  /**
   * Keeps a tool call that will never complete (cut by a length stop, or never named) in the
   * final message as a tool-call part marked `incomplete: "true"`; no callback fires for it.
   * Optional: a target without it (a test harness) keeps nothing.
   */
  readonly keepIncompleteToolCall?: ((call: IncompleteToolCall) => void) | undefined;
  /**
   * The event being mapped was only partly mapped (a typed callback fired, yet some of its content
   * reached none): the driver surfaces the untouched event through `onUnmappedRawEvent` too, once
   * `map` returns, so nothing is lost. Calling it more than once per event changes nothing.
   * Optional: a target built by hand (an adapter's unit test) may leave it out.
   */
  readonly surfaceRaw?: (() => void) | undefined;
  /**
   * The event being mapped surfaces through `onUnmappedRawEvent` as `rawEvent` (never null)
   * instead of as itself, once `map` returns: for a format that carries another stream's raw
   * events (the `partstream` relay's `raw` events). Optional, as `surfaceRaw`.
   */
  readonly surfaceRawInstead?: ((rawEvent: unknown) => void) | undefined;
  /**
   * The event being mapped was taken whole although no typed callback fired (a format's own
   * bookkeeping, such as the relay's `start`, `meta` and `block` events): it does not surface
   * raw. Optional, as `surfaceRaw`.
   */
  readonly consumed?: (() => void) | undefined;
}

/**
 * Turns one provider's decoded wire events into typed handler callbacks. One instance per
 * stream; stateful. `consumeStream` calls `map` once per event (after resetting the tracker, and
 * surfaces the event raw when nothing typed fired), then `end` once when the bytes run out.
 *
 * `E` is `SseFrame` for SSE formats, the parsed JSON value of a line for NDJSON, and the decoded
 * frame for a binary format.
 */
export interface StreamMapper<E> {
  /** How this mapper's events are framed: `sse` (E is `SseFrame`), `ndjson` (E is a line's parsed JSON) or `aws-eventstream` (E is a decoded binary frame). */
  readonly framing: 'sse' | 'ndjson' | 'aws-eventstream';
  /**
   * Map one event, synchronously. Returns true once the format's terminal event was seen (the
   * driver stops reading), else false; a mapper written in JavaScript that returns nothing
   * (`undefined`) means false. Any other answer (a Promise from an `async map` above all) fails
   * the stream with a `malformed` `StreamError`. The values handed to `target.handler` must keep
   * the handler API's contract (text a string, a tool-call index an integer ≥ 0, a
   * `ChatResponse` to `onCompleteResponse`): a value that breaks it fails the stream the same way,
   * and reaches neither the user's handler nor the final message. The driver never calls `map`
   * again after it returned true or after a terminal callback (`onCompleteResponse`, `onError`)
   * was delivered.
   */
  map(event: E, target: MapperTarget): boolean;
  /**
   * The source ended (or the terminal event was seen). Emit the pending completions and exactly
   * one terminal callback: `onCompleteResponse` with the provider's metadata, or `onError` when
   * the stream ended without its terminal event, mid-frame, or after an error event.
   * `truncatedFrame` is true when bytes of an unfinished frame were left over. The driver calls it
   * at most once, and only while no terminal callback has been delivered yet, and does not wait
   * for it: an `async end` that has not delivered the terminal callback when it returns fails the
   * stream `malformed`.
   */
  end(target: MapperTarget, truncatedFrame: boolean): void;
  /**
   * Optional: the response metadata seen so far (id and model arrive with the first events), so
   * that the `partial` of a failed or cancelled stream still says which response it was.
   */
  metadataSoFar?(): ChatResponseMetadata;
}
