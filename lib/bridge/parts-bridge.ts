import { MessageAggregator } from '../aggregate/message-aggregator';
import { checkPart } from '../aggregate/validate-input';
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
import { StreamingPartIndexer } from '../parts/streaming-part-indexer';
import type { MessagePart, OpaquePayload, PartAttributes, ReasoningPart, TextPart, ToolCallPart } from '../parts/types';

/** The one response id every aggregated part is tagged with, so no-id heuristics never split the response. */
const RESPONSE_KEY = 'partstream:bridge-response';
/** The `type` of the tool calls a handler reports (the handler API models function calls). */
const TOOL_CALL_TYPE = 'function';
const NO_ATTRIBUTES: PartAttributes = Object.freeze({});

/**
 * Sits between the provider adapter and the user's handler: forwards every callback at once and
 * turns it into an indexed message part (partial response → text delta, partial thinking →
 * reasoning delta with its payload, partial tool call → argument delta, complete tool call →
 * complete part), merged by a `MessageAggregator`. An adapter tells it where a provider block
 * ends, and hands over the blocks no callback models, through `completeBlock`. The provider's `onCompleteResponse` reaches the
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
  /** Indexer key of each tool call, by `PartialToolCall.index` (the provider id, else derived from the index). */
  private readonly toolCallKeys: string[] = [];
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
      const index = this.indexer.indexForToolCallDelta(this.toolCallKey(partial.index, partial.id));
      const part: ToolCallPart = {
        type: 'tool_call',
        toolCall: { id: partial.id, type: TOOL_CALL_TYPE, name: partial.name, arguments: partial.partialArguments },
        payload: null,
        attributes: NO_ATTRIBUTES,
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
      // The indexer matches a call to its argument deltas by key; the part keeps the provider's id.
      const key = this.toolCallKey(complete.index, request.id);
      const index = key === request.id ? this.indexer.indexFor(part) : this.indexer.indexFor({ ...part, toolCall: { ...part.toolCall, id: key } });
      this.aggregator.addTrusted(RESPONSE_KEY, part, index, false);
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
   * A value that is not a part throws a `TypeError` naming the bad field. Once the stream ended
   * or was cancelled, nothing is aggregated.
   */
  completeBlock(part?: MessagePart | null): void {
    if (part !== undefined && part !== null) checkPart(part, 'part');
    if (!this.accepting()) return;
    if (part !== undefined && part !== null) {
      const index = this.indexer.indexFor(part);
      // An empty text part without payload adds nothing (the indexer leaves it unstamped).
      if (index >= 0) this.aggregator.addTrusted(RESPONSE_KEY, part, index, part.type === 'text' || part.type === 'reasoning');
    }
    this.indexer.endRun();
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
      return;
    }
    const part = deltaPart(type, text, payload);
    this.aggregator.addTrusted(RESPONSE_KEY, part, this.indexer.indexFor(part), true);
  }

  private accepting(): boolean {
    return !this.ended && !this.isCancelled();
  }

  private isCancelled(): boolean {
    return this.handle !== null && this.handle.isCancelled();
  }

  /**
   * The indexer key of tool call `index`: fixed at its first delta or completion, the provider's
   * id when it sent one, else a key derived from the index (Gemini and Ollama send no id, and
   * some providers put the id on the first delta only).
   */
  private toolCallKey(index: number, id: string | null): string {
    let key = this.toolCallKeys[index];
    if (key === undefined) {
      key = id !== null && id.length > 0 ? id : `partstream:tool-call#${index}`;
      this.toolCallKeys[index] = key;
    }
    return key;
  }
}

const EMPTY_METADATA: ChatResponseMetadata = responseMetadata();

/** A text or reasoning delta part, unstamped; a signature-only reasoning delta has `text: null`. */
function deltaPart(type: 'text' | 'reasoning', text: string, payload: OpaquePayload | null): TextPart | ReasoningPart {
  return type === 'text'
    ? { type: 'text', text, payload, attributes: NO_ATTRIBUTES }
    : { type: 'reasoning', text: text.length > 0 ? text : null, summary: null, payload, attributes: NO_ATTRIBUTES };
}
