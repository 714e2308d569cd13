import type { ChatResponse, ChatResponseMetadata, StreamingHandle } from '../handler/types';
import type { CoreRecorder } from './core-recorder';
import { aiMessage, chatResponse, responseMetadata } from '../handler/values';
import { toolCallPart } from '../parts/factories';
import { INCOMPLETE_ATTRIBUTES } from '../parts/incomplete-tool-call';
import { PartIndexCounter, type DeltaType } from '../parts/part-index-counter';
import type { MessagePart, OpaquePayload, PartAttributes, ReasoningPart, TextPart, ToolCallPart } from '../parts/types';
import { ResponseGate, type RunGate } from './response-gate';
import { Slot } from './slot';
import type { StringPieces } from './string-pieces';

/** The `type` of the tool calls a handler reports (the handler API models function calls). */
const TOOL_CALL_TYPE = 'function';
const NO_ATTRIBUTES: PartAttributes = Object.freeze({});
const EMPTY_METADATA: ChatResponseMetadata = responseMetadata();

/** A tool call as it ends (complete, or given up): what its part is built from. */
export interface ToolCallFields {
  readonly id: string | null;
  readonly name: string | null;
  readonly arguments: string;
  readonly payload?: OpaquePayload | null | undefined;
}

/**
 * One response being assembled from what a provider adapter reports, in the adapter's terms:
 * text and reasoning deltas (with an optional payload), tool-call argument deltas keyed by the
 * call's handler index, complete and given-up tool calls, whole provider blocks, and the final
 * response. It owns the run state, the index counter (SPEC §5, shared with
 * `StreamingPartIndexer`), one slot per part (merged as `MessageAggregator` merges them, SPEC §6)
 * and the final response.
 *
 * Every input first asks the run whether it is still open (one cancel check) and is dropped when
 * not; the methods that take one return whether it was taken, so the caller forwards exactly what
 * the core took. A part is merged before the caller forwards its callback, so a callback that
 * cancels still finds its own fragment in `response()`.
 */
export class ResponseCore {
  private readonly counter = new PartIndexCounter();
  /** One slot per index; the counter hands out every index once and each gets its slot at once. */
  private readonly slots: Slot[] = [];
  /**
   * The slot of the open run of deltas (meaningful while `counter.runType` is not null), and its
   * text pieces once it has text: a payload-free delta that continues the run is appended to them
   * and touches nothing else. Such appends bypass the slot's cached part, so the slot is
   * invalidated when another slot takes the run and before the parts are read.
   */
  private runSlot: Slot | null = null;
  private runText: StringPieces | null = null;
  /**
   * The index of the current provider block's part: the last text or reasoning run, or tool call
   * completed or kept, since the last `completeBlock` (argument deltas do not count: their call
   * counts when it ends); -1 when none. `completeBlock`'s attributes go there.
   */
  private blockIndex = -1;
  private finalResponse: ChatResponse | null = null;
  /** Hears every input taken (a relay writing its event log); null, and never consulted beyond one check, without one. */
  private recorder: CoreRecorder | null = null;

  /** `run`: the gate of the run to consult and pass the terminal through (a fresh `ResponseGate` by default). */
  constructor(readonly run: RunGate = new ResponseGate()) {}

  /** From now on, tells `recorder` every input taken (at most one recorder per core). */
  record(recorder: CoreRecorder): void {
    this.recorder = recorder;
  }

  /**
   * The per-token entry: a text or reasoning delta, with its payload or null. A signature-only
   * delta (`text` empty, a payload) carries only its payload; an empty delta without payload adds
   * nothing. A payload-free delta that continues the open run of its type is appended to the run's
   * slot, nothing else; any other delta goes to the run's index or opens the next one (a delta
   * with a payload never joins a run that already carries one). `handle`: the callback context's,
   * unless the run has one bound. False when the run is no longer open (nothing is taken).
   */
  delta(type: DeltaType, text: string, payload: OpaquePayload | null, handle?: StreamingHandle): boolean {
    if (!this.run.admits(handle)) return false;
    if (payload === null) {
      if (text.length === 0) return true;
      // While the run is open, its slot holds a part of its type and is the block's part.
      const pieces = this.runText;
      if (pieces !== null && this.counter.runType === type) {
        pieces.append(text);
        // The open run's index is the block's (set when the run took it).
        if (this.recorder !== null) this.recorder.delta(this.blockIndex, type, text, null);
        return true;
      }
    }
    const index = this.counter.delta(type, payload !== null);
    const slot = this.slotAt(index);
    slot.put(deltaPart(type, text, payload), true);
    if (slot !== this.runSlot) {
      this.runSlot?.invalidate();
      // The run that ends keeps its text as one string, not as the pieces of an unfinished block.
      this.runText?.read();
      this.runSlot = slot;
    }
    this.runText = slot.textPieces(type);
    this.blockIndex = index;
    if (this.recorder !== null) this.recorder.delta(index, type, text, payload);
    return true;
  }

  /**
   * An argument delta of the tool call with handler index `key`: merged into the call's slot
   * (taken at its first delta), marked `incomplete: "true"` until the call ends; the open run of
   * deltas goes on. Empty arguments add nothing. False when the run is no longer open.
   */
  toolCallDelta(key: number, id: string | null, name: string | null, args: string, handle?: StreamingHandle): boolean {
    if (!this.run.admits(handle)) return false;
    if (args.length === 0) return true;
    const delta: ToolCallPart = {
      type: 'tool_call',
      toolCall: { id, type: TOOL_CALL_TYPE, name, arguments: args },
      payload: null,
      attributes: INCOMPLETE_ATTRIBUTES,
    };
    const index = this.counter.toolCallDelta(key);
    this.slotAt(index).addToolCallDelta(delta);
    this.recorder?.toolCallDelta(index, key, id, name, args);
    return true;
  }

  /**
   * The tool call with handler index `key` is complete: its part replaces its deltas, in their
   * place (or at the next index when it had none); the key is free for a later call. Ends the
   * open run. False when the run is no longer open.
   */
  completeToolCall(key: number, call: ToolCallFields): boolean {
    if (!this.run.admits()) return false;
    this.endToolCall(key, call, NO_ATTRIBUTES, false);
    return true;
  }

  /**
   * Keeps a tool call that will never complete, marked `incomplete: "true"`, in the place of its
   * deltas (or at the next index); as `completeToolCall` otherwise. Nothing when the run ended.
   */
  incompleteToolCall(key: number, call: ToolCallFields): void {
    if (this.run.admits()) this.endToolCall(key, call, INCOMPLETE_ATTRIBUTES, true);
  }

  /**
   * The provider block being streamed is complete (the rules of `PartsBridge.completeBlock`):
   * `part` (valid) is what the block adds at its end — a text or reasoning part joins the open run
   * of its type unless both carry a payload, an empty text part without payload adds nothing, any
   * other part takes the next index — and `attributes` (valid) are merged into the block's part.
   * Then the run ends. Nothing when the run ended.
   */
  completeBlock(part: MessagePart | null, attributes: PartAttributes | null): void {
    if (!this.run.admits()) return;
    let taken = -1;
    if (part !== null && !(part.type === 'text' && part.text === '' && part.payload === null)) {
      const delta = part.type === 'text' || part.type === 'reasoning';
      const index = delta ? this.counter.delta(part.type, part.payload !== null) : this.counter.whole();
      this.slotAt(index).put(part, delta);
      this.blockIndex = index;
      taken = index;
    }
    this.recorder?.block(taken, part, attributes);
    if (attributes !== null && this.blockIndex >= 0) (this.slots[this.blockIndex] as Slot).mergeAttributes(attributes);
    this.blockIndex = -1;
    this.counter.endRun();
  }

  /**
   * Completes the run with the provider's `response`: the final response is the assembled parts
   * (or, when nothing was streamed, the provider's own parts), the provider message's attributes
   * and the provider's metadata. Null (nothing changes) when the run had already ended or was
   * cancelled.
   */
  complete(response: ChatResponse): ChatResponse | null {
    // Read before the run ends: a response that cannot be read leaves the run open.
    const { aiMessage: provided, metadata } = response;
    const providedParts = provided.parts;
    const providedAttributes = provided.attributes;
    if (!this.run.passTerminal('completed')) return null;
    const assembled = this.parts();
    const providerParts = assembled.length === 0 && providedParts.length > 0;
    const parts = providerParts ? providedParts : assembled;
    this.recorder?.complete(response, providerParts);
    const final = chatResponse(aiMessage(parts, providedAttributes), metadata);
    this.finalResponse = final;
    return final;
  }

  /**
   * A raw event is about to be forwarded: true (and the recorder told) while the run is open;
   * raw events are not part of the response.
   */
  raw(rawEvent: unknown): boolean {
    if (!this.run.admits()) return false;
    this.recorder?.raw(rawEvent);
    return true;
  }

  /**
   * The response so far, at any time: once completed, the final response; before (also after a
   * failure or a cancel), the parts assembled so far with all-null metadata.
   */
  response(): ChatResponse {
    return this.finalResponse ?? chatResponse(aiMessage(this.parts()), EMPTY_METADATA);
  }

  /** The parts assembled so far, in index order, without streaming attributes. */
  private parts(): MessagePart[] {
    this.runSlot?.invalidate();
    const parts: MessagePart[] = [];
    for (const slot of this.slots) {
      if (slot === undefined) continue;
      const part = slot.toPart();
      if (part !== null) parts.push(part);
    }
    return parts;
  }

  private endToolCall(key: number, call: ToolCallFields, attributes: PartAttributes, incomplete: boolean): void {
    const part = toolCallPart({ id: call.id, type: TOOL_CALL_TYPE, name: call.name, arguments: call.arguments }, { payload: call.payload ?? null, attributes });
    const index = this.counter.endToolCall(key);
    this.slotAt(index).put(part, false);
    this.blockIndex = index;
    this.recorder?.toolCall(index, key, { id: call.id, name: call.name, arguments: call.arguments, payload: call.payload ?? null }, incomplete);
  }

  private slotAt(index: number): Slot {
    let slot = this.slots[index];
    if (slot === undefined) {
      slot = new Slot();
      this.slots[index] = slot;
    }
    return slot;
  }
}

/** A text or reasoning delta part, unstamped; a signature-only reasoning delta has `text: null`. */
function deltaPart(type: DeltaType, text: string, payload: OpaquePayload | null): TextPart | ReasoningPart {
  return type === 'text' ? { type: 'text', text, payload, attributes: NO_ATTRIBUTES } : { type: 'reasoning', text: text.length > 0 ? text : null, summary: null, payload, attributes: NO_ATTRIBUTES };
}
