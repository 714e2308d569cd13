import { MessageAggregator } from '../core/message-aggregator';
import { checkPart } from '../core/validate-input';
import { HandlerCallbackError } from '../handler/handler-callback-error';
import type {
  ChatResponse,
  ChatResponseMetadata,
  CompleteToolCall,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
  StreamingChatResponseHandler,
  StreamingHandle,
} from '../handler/types';
import { aiMessage, chatResponse, responseMetadata } from '../handler/values';
import { toolCallPart } from '../parts/factories';
import { INCOMPLETE_ATTRIBUTES } from '../parts/incomplete-tool-call';
import { StreamingPartIndexer } from '../parts/streaming-part-indexer';
import { validateAttributes } from '../parts/validate';
import type { MessagePart, OpaquePayload, PartAttributes, ReasoningPart, TextPart, ToolCallPart } from '../parts/types';

/** The one response id every aggregated part is tagged with, so no-id heuristics never split the response. */
const RESPONSE_KEY = 'partstream:bridge-response';
/** The `type` of the tool calls a handler reports (the handler API models function calls). */
const TOOL_CALL_TYPE = 'function';
const NO_ATTRIBUTES: PartAttributes = Object.freeze({});

/**
 * A tool call that will never complete, handed over whole by the provider adapter so that the
 * final message keeps it (marked `incomplete: "true"`): its arguments were still streaming when
 * the stream stopped for length, or it never got a name. `index` is the call's handler index
 * (the one its partial tool calls carried, if any); `name` is null when the call never got one.
 */
export interface IncompleteToolCall {
  readonly index: number;
  readonly id: string | null;
  readonly name: string | null;
  readonly arguments: string;
  /** Provider data to replay with the call (e.g. Gemini's thought signature), if any. */
  readonly payload?: OpaquePayload | undefined;
}

/**
 * Sits between the provider adapter and the user's handler: forwards every callback at once and
 * turns it into an indexed message part (partial response → text delta, partial thinking →
 * reasoning delta with its payload, partial tool call → argument delta, complete tool call →
 * complete part), merged by a `MessageAggregator`. An adapter tells it where a provider block
 * ends, hands over the blocks no callback models and sets attributes on a block's part (e.g. the
 * provider's item id) through `completeBlock`. Tool calls are told
 * apart by their handler index, never by the provider's id (which may repeat): every complete call
 * has a part of its own. A call whose deltas never led to a complete call (the stream stopped, or
 * the adapter gave it up through `keepIncompleteToolCall`) stays a tool-call part marked
 * `incomplete: "true"`. The provider's `onCompleteResponse` reaches the
 * wrapped handler as the final response: the aggregated parts in the order the model produced
 * them (plus `text`, `thinking` and `toolExecutionRequests` derived from them), the provider
 * message's attributes (e.g. `refusal`) and the provider's metadata.
 *
 * A part is aggregated before its callback is forwarded, so a callback that cancels still finds
 * its own fragment in `partialResponse()`; once the stream is cancelled (the handle from the
 * contexts or `bindStreamingHandle`), ended or failed, nothing more is aggregated. Raw events
 * are forwarded and not aggregated.
 */
export class PartsBridge implements StreamingChatResponseHandler {
  private readonly indexer = new StreamingPartIndexer();
  private readonly aggregator = new MessageAggregator();
  /**
   * The part index of each tool call whose argument deltas arrived and that has not completed
   * yet, by its handler index — unique per call, where provider ids may repeat or collide.
   */
  private readonly openToolCalls = new Map<number, number>();
  /**
   * The part index of the current provider block's part: the last text or reasoning run, or tool
   * call completed or kept, aggregated since the last `completeBlock` (tool-call argument deltas do
   * not count: their call counts when it ends); -1 when none. `completeBlock`'s attributes go there.
   */
  private blockIndex = -1;
  private handle: StreamingHandle | null = null;
  private ended = false;
  private finalResponse: ChatResponse | null = null;

  constructor(private readonly handler: StreamingChatResponseHandler) {
    if (handler === null || typeof handler !== 'object' || typeof handler.onCompleteResponse !== 'function' || typeof handler.onError !== 'function') {
      throw new TypeError(`Expected a handler with onCompleteResponse and onError methods, got ${handler === null ? 'null' : typeof handler}`);
    }
  }

  /** Keeps the stream's handle (to stop aggregating once cancelled) and forwards it. */
  bindStreamingHandle(handle: StreamingHandle): void {
    this.handle = handle;
    this.handler.bindStreamingHandle?.(handle);
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    this.handle = context.streamingHandle;
    if (this.accepting()) this.addDelta('text', partial.text, partial.payload ?? null);
    this.handler.onPartialResponse?.(partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    this.handle = context.streamingHandle;
    if (this.accepting()) this.addDelta('reasoning', partial.text, partial.payload ?? null);
    this.handler.onPartialThinking?.(partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    this.handle = context.streamingHandle;
    if (this.accepting() && partial.partialArguments.length > 0) {
      let index = this.openToolCalls.get(partial.index);
      if (index === undefined) {
        index = this.indexer.reserveToolCallIndex();
        this.openToolCalls.set(partial.index, index);
      }
      // Marked incomplete until its complete call replaces it: a call cut off keeps the mark.
      const part: ToolCallPart = {
        type: 'tool_call',
        toolCall: { id: partial.id, type: TOOL_CALL_TYPE, name: partial.name, arguments: partial.partialArguments },
        payload: null,
        attributes: INCOMPLETE_ATTRIBUTES,
      };
      this.aggregator.addTrusted(RESPONSE_KEY, part, index, true);
    }
    this.handler.onPartialToolCall?.(partial, context);
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    if (this.accepting()) {
      const request = complete.toolExecutionRequest;
      const part = toolCallPart(
        { id: request.id, type: TOOL_CALL_TYPE, name: request.name, arguments: request.arguments },
        { payload: complete.payload ?? null },
      );
      const index = this.toolCallIndex(complete.index);
      this.aggregator.addTrusted(RESPONSE_KEY, part, index, false);
      this.blockIndex = index;
    }
    this.handler.onCompleteToolCall?.(complete);
  }

  /**
   * Adapter-side, never forwarded to the wrapped handler (the driver exposes it as
   * `MapperTarget.completeBlock`): the provider block being streamed is complete.
   *
   * - No part: the current run of text or reasoning deltas ends, so the next block's deltas make
   *   a part of their own even when they are of the same type.
   * - A text or reasoning part: what the block adds at its end (e.g. a text block's citations as
   *   its payload). It joins the block's part when that part is of its type and carries no
   *   payload yet, else it is a part of its own; then the run ends.
   * - Any other part (an `unknown` or `media` part): a whole block that no callback models; it
   *   takes the next index, so it keeps its place in stream order.
   *
   * `attributes` (strings) are merged into the block's part, over the attributes it has — e.g.
   * the provider's id of the block (`itemId` on OpenAI Responses parts), which replay needs. The
   * block's part is the one the block produced since the previous `completeBlock`: the part given
   * (or the run it joined), else the last run of text or reasoning deltas, or the last tool call
   * completed or kept incomplete; when the block produced none, the attributes go nowhere. They
   * survive into the final message (only `partIndex` and `partial` are stripped there). Once per
   * block: the deltas pay nothing for them.
   *
   * A value that is not a part, or attributes that are not an object of strings, throw a
   * `TypeError` naming the bad field. Once the stream ended or was cancelled, nothing is
   * aggregated.
   */
  completeBlock(part?: MessagePart | null, attributes?: Readonly<Record<string, string>> | null): void {
    if (part !== undefined && part !== null) checkPart(part, 'part');
    const extra = attributes === undefined || attributes === null ? null : validateAttributes(attributes);
    if (!this.accepting()) return;
    if (part !== undefined && part !== null) {
      const index = this.indexer.indexFor(part);
      // An empty text part without payload adds nothing (the indexer leaves it unstamped).
      if (index >= 0) {
        this.aggregator.addTrusted(RESPONSE_KEY, part, index, part.type === 'text' || part.type === 'reasoning');
        this.blockIndex = index;
      }
    }
    if (extra !== null && this.blockIndex >= 0) this.aggregator.mergeAttributesTrusted(RESPONSE_KEY, this.blockIndex, extra);
    this.blockIndex = -1;
    this.indexer.endRun();
  }

  /**
   * Keeps a tool call that will never complete in the final message, marked `incomplete: "true"`,
   * in the place of its argument deltas (or, without any, at the next index). No callback is
   * forwarded: the handler API reports complete calls only.
   */
  keepIncompleteToolCall(call: IncompleteToolCall): void {
    if (!this.accepting()) return;
    const part = toolCallPart({ id: call.id, type: TOOL_CALL_TYPE, name: call.name, arguments: call.arguments }, {
      payload: call.payload ?? null,
      attributes: INCOMPLETE_ATTRIBUTES,
    });
    const index = this.toolCallIndex(call.index);
    this.aggregator.addTrusted(RESPONSE_KEY, part, index, false);
    this.blockIndex = index;
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    this.handler.onUnmappedRawEvent?.(rawEvent);
  }

  /** Replaces the provider's response by the aggregated one, keeping the provider's metadata. */
  onCompleteResponse(response: ChatResponse): void {
    if (this.ended || this.isCancelled()) {
      this.handler.onCompleteResponse(response);
      return;
    }
    this.ended = true;
    const aggregated = this.aggregator.result().parts;
    // A provider that streamed nothing but put its content in the response (no partial
    // callbacks) keeps it.
    const parts = aggregated.length === 0 && response.aiMessage.parts.length > 0 ? response.aiMessage.parts : aggregated;
    const final = chatResponse(aiMessage(parts, response.aiMessage.attributes), response.metadata);
    this.finalResponse = final;
    this.handler.onCompleteResponse(final);
  }

  onError(error: Error): void {
    if (!HandlerCallbackError.isInstance(error)) this.ended = true;
    this.handler.onError(error);
  }

  /**
   * What has been aggregated so far, at any time — also after an error or a cancel. Once the
   * response completed, the final response; before, its metadata is all null (the provider's id
   * is only known at completion).
   */
  partialResponse(): ChatResponse {
    if (this.finalResponse !== null) return this.finalResponse;
    return chatResponse(aiMessage(this.aggregator.result().parts), EMPTY_METADATA);
  }

  /**
   * Aggregates a text or reasoning delta. This runs once per token: a payload-free delta that
   * continues its run is appended to the run's slot without building a part; any other delta is
   * a short-lived literal (not a factory call) whose fields the aggregator copies.
   */
  private addDelta(type: 'text' | 'reasoning', text: string, payload: OpaquePayload | null): void {
    if (payload === null) {
      if (text.length === 0) return;
      const index = this.indexer.indexForDelta(type);
      if (!this.aggregator.appendTrustedDelta(RESPONSE_KEY, type, index, text)) {
        this.aggregator.addTrusted(RESPONSE_KEY, deltaPart(type, text, null), index, true);
      }
      this.blockIndex = index;
      return;
    }
    const part = deltaPart(type, text, payload);
    const index = this.indexer.indexFor(part);
    this.aggregator.addTrusted(RESPONSE_KEY, part, index, true);
    this.blockIndex = index;
  }

  private accepting(): boolean {
    return !this.ended && !this.isCancelled();
  }

  private isCancelled(): boolean {
    return this.handle !== null && this.handle.isCancelled();
  }

  /**
   * The part index of tool call `index` as it ends (completes or is given up): where its deltas
   * went, else the next index. The call is then closed, so a later call reusing the handler index
   * gets a part of its own.
   */
  private toolCallIndex(index: number): number {
    const reserved = this.openToolCalls.get(index);
    if (reserved !== undefined) this.openToolCalls.delete(index);
    return this.indexer.indexForKeyedToolCall(reserved);
  }
}

const EMPTY_METADATA: ChatResponseMetadata = responseMetadata();

/** A text or reasoning delta part, unstamped; a signature-only reasoning delta has `text: null`. */
function deltaPart(type: 'text' | 'reasoning', text: string, payload: OpaquePayload | null): TextPart | ReasoningPart {
  return type === 'text'
    ? { type: 'text', text, payload, attributes: NO_ATTRIBUTES }
    : { type: 'reasoning', text: text.length > 0 ? text : null, summary: null, payload, attributes: NO_ATTRIBUTES };
}
