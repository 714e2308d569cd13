import type { StreamingHandle, ChatResponseMetadata } from '../../handler/types';
import { aiMessage, chatResponse, partialResponse, partialThinking, responseMetadata } from '../../handler/values';
import type { PartAttributes } from '../../parts/types';
import { isJsonObject, parseJsonObject } from '../../wire/read-json';
import { outputItemPart } from './output-item-part';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import { truncatedStreamError } from '../kit/truncated-stream-error';
import { StreamError } from '../../handler/stream-error';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import type { SseFrame } from '../../wire/types';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason';
import { openAIResponsesMetadata } from './openai-responses-metadata';
import { openAIResponsesUsage } from './openai-responses-usage';
import type { ResponsesError, ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent } from './openai-responses-wire';
import { StreamedTextLedger } from './streamed-text-ledger';

type Fragment = 'text' | 'thinking';

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isClientToolCall(type: unknown): boolean {
  return type === 'function_call' || type === 'custom_tool_call';
}

/** The attributes of the part of output item `id`: `itemId`, which replay needs; none without an id. */
function itemAttributes(id: string | null): PartAttributes | undefined {
  return id === null ? undefined : Object.freeze({ itemId: id });
}

/** The attributes of a custom tool call's part: `itemType` tells replay to send a `custom_tool_call` back. */
function customCallAttributes(id: string): PartAttributes {
  return Object.freeze({ itemId: id, itemType: 'custom_tool_call' });
}

/** The key of one content part's text run: kind, item id and the index within the item. */
function partKey(kind: string, itemId: unknown, index: unknown): string {
  return `${kind}${String(itemId)}:${String(index)}`;
}

/**
 * Maps OpenAI Responses stream events (`event: response.*` SSE) to handler callbacks.
 *
 * - `response.output_text.delta` → partial response; `response.reasoning_text.delta` and
 *   `response.reasoning_summary_text.delta` → partial thinking. A `*.done` event whose text goes
 *   beyond the streamed deltas delivers the missing tail; otherwise it surfaces raw.
 * - Function and custom tool calls are keyed by `item_id`, take the item's `call_id` as id and
 *   a 0-based index of their own; argument (or custom input) deltas → partial tool calls; the
 *   call completes once, at `function_call_arguments.done` / `custom_tool_call_input.done` or at
 *   the item's `response.output_item.done`, whichever comes first. A call whose item is done
 *   with `status: "incomplete"`, or still open at a `response.incomplete` for
 *   `max_output_tokens`, was cut off: it never completes and is kept incomplete; so is a call
 *   that never got a name.
 * - A reasoning item's `encrypted_content`, taken at its `response.output_item.done`, becomes a
 *   signature-only partial thinking with payload `openai`/`encrypted_content`. (The server may
 *   re-encrypt it for `response.completed`; the item's value is the one kept, and both replay.)
 * - Each output item is its own part: a reasoning or message item's `output_item.done` completes
 *   its part (`MapperTarget.completeBlock`), a message's annotations riding on it as payload
 *   `openai`/`annotations`; text or reasoning deltas of another item end the part first, and so
 *   does a tool call completing or the response ending. Every other item (`web_search_call`,
 *   `mcp_call`, …) is handed over whole at its `output_item.done` (`outputItemPart`: an `unknown`
 *   part, or a `media` part for a generated image), in stream order; its events still surface raw.
 * - Every part keeps its output item's `id` (`rs_…`, `msg_…`, `fc_…`, `ws_…`) as the attribute
 *   `itemId`, set through `completeBlock`'s attributes once per item (never per delta) — on tool
 *   calls too, completed or kept incomplete (the accumulator passes it on). Replay needs it: a
 *   reasoning item goes back with its `id`. An item without an id gives its part none. A custom
 *   tool call's part also carries `itemType: "custom_tool_call"` (replay sends it back as one).
 * - `response.completed` / `response.incomplete` end the stream with a complete response (id,
 *   model, usage, finish reason); `error` and `response.failed` end it with one `onError`
 *   (a `StreamError` of kind `provider`), whichever comes first. Finish reason: the `status`
 *   (and `incomplete_details.reason`) mapped by `mapOpenAIResponsesFinishReason`, resolved by
 *   `resolveFinishReason` (completed tool calls make `completed` TOOL_EXECUTION);
 *   `providerFinishReason` = `incomplete_details.reason` when present, else `status`. Usage:
 *   `openAIResponsesUsage` of the response's `usage`, kept as sent in `providerUsage`;
 *   `providerMetadata` as `openAIResponsesMetadata` describes. `map` returns true at the first
 *   terminal event, so a body holding several responses yields the first one only. The
 *   terminal callback is delivered while mapping that event (so it counts as mapped); `end`
 *   then delivers nothing, and otherwise reports the stream as truncated.
 * - Everything else (`response.created`, `output_item.added`, `content_part.*`, annotations,
 *   server tools such as `web_search_call.*` …) maps nothing and surfaces raw.
 */
export class OpenAIResponsesMapper implements StreamMapper<SseFrame> {
  /** SSE frames. */
  readonly framing = 'sse' as const;
  private readonly calls = new ToolCallAccumulator<string>();
  /** Item ids of calls whose name is known (a call completes only with a name). */
  private readonly named = new Set<string>();
  /** Item ids of the calls that are `custom_tool_call` items (free-text input, not JSON arguments). */
  private readonly custom = new Set<string>();
  /**
   * Item ids of the calls by `call_id` and by output index: an `output_item.done` whose item id
   * differs from the one its deltas used still finds its call (completing it once, not twice).
   */
  private readonly keyByCallId = new Map<string, string>();
  private readonly keyByOutputIndex = new Map<number, string>();
  private readonly ledger = new StreamedTextLedger();
  /**
   * Whether text or reasoning deltas have been delivered since the last block ended, and the id
   * of the item they belong to: the item whose part the bridge's current run is.
   */
  private runOpen = false;
  private runItem: string | null = null;
  private context: { readonly streamingHandle: StreamingHandle } | null = null;
  private id: string | null = null;
  private model: string | null = null;
  /** The last response object seen (`response.created` … the terminal one), as sent. */
  private snapshot: ResponsesResponse | null = null;
  private ended = false;

  /** Maps one SSE frame; returns true once a terminal event was seen. */
  map(frame: SseFrame, target: MapperTarget): boolean {
    if (this.ended) return true;
    const event = parseJsonObject(frame.data) as ResponsesStreamEvent | undefined;
    if (event === undefined) return false;
    const type = str(event.type) ?? frame.event;
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.remember(event.response);
        return false;
      case 'response.output_text.delta':
        this.delta(target, 'text', partKey('t', event.item_id, event.content_index), event.item_id, event.delta);
        return false;
      case 'response.output_text.done':
        this.settle(target, 'text', partKey('t', event.item_id, event.content_index), event.item_id, event.text);
        return false;
      case 'response.reasoning_summary_text.delta':
        this.delta(target, 'thinking', partKey('s', event.item_id, event.summary_index), event.item_id, event.delta);
        return false;
      case 'response.reasoning_summary_text.done':
        this.settle(target, 'thinking', partKey('s', event.item_id, event.summary_index), event.item_id, event.text);
        return false;
      case 'response.reasoning_text.delta':
        this.delta(target, 'thinking', partKey('r', event.item_id, event.content_index), event.item_id, event.delta);
        return false;
      case 'response.reasoning_text.done':
        this.settle(target, 'thinking', partKey('r', event.item_id, event.content_index), event.item_id, event.text);
        return false;
      case 'response.output_item.added':
        this.itemAdded(event.item, event.output_index);
        return false;
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(target, event.item_id, event.delta, event.output_index);
        return false;
      case 'response.custom_tool_call_input.delta':
        if (typeof event.item_id === 'string') this.custom.add(event.item_id);
        this.argumentsDelta(target, event.item_id, event.delta, event.output_index);
        return false;
      case 'response.function_call_arguments.done':
        this.argumentsDone(target, event.item_id, event.arguments);
        return false;
      case 'response.custom_tool_call_input.done':
        if (typeof event.item_id === 'string') this.custom.add(event.item_id);
        this.argumentsDone(target, event.item_id, event.input);
        return false;
      case 'response.output_item.done':
        this.itemDone(target, event.item, event.output_index);
        return false;
      case 'response.completed':
      case 'response.incomplete':
        this.complete(target, event.response, type === 'response.completed' ? 'completed' : 'incomplete');
        return true;
      case 'response.failed':
        this.fail(target, event.response?.error ?? null, 'The response failed', frame);
        return true;
      case 'error':
        this.fail(target, isJsonObject(event.error) ? event.error : event, 'The provider reported an error', frame);
        return true;
      default:
        return false;
    }
  }

  /** The id and model seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    const usage = this.snapshot?.usage;
    return responseMetadata({
      id: this.id,
      modelName: this.model,
      tokenUsage: openAIResponsesUsage(usage),
      providerUsage: isJsonObject(usage) ? usage : null,
      providerMetadata: openAIResponsesMetadata(this.snapshot),
    });
  }

  /** Ends the stream: a truncation error unless a terminal event was already mapped. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (this.ended) return;
    this.ended = true;
    // The partial keeps the item id of the text or reasoning that was streaming.
    this.closeRun(target);
    target.handler.onError(truncatedStreamError('response.completed', truncatedFrame));
  }

  private contextFor(target: MapperTarget): { readonly streamingHandle: StreamingHandle } {
    if (this.context === null || this.context.streamingHandle !== target.handle) {
      this.context = Object.freeze({ streamingHandle: target.handle });
    }
    return this.context;
  }

  private remember(response: ResponsesResponse | undefined): void {
    if (!isJsonObject(response)) return;
    this.snapshot = response;
    this.id = str(response.id) ?? this.id;
    this.model = str(response.model) ?? this.model;
  }

  private emit(target: MapperTarget, kind: Fragment, text: string): void {
    if (kind === 'text') target.handler.onPartialResponse?.(partialResponse(text), this.contextFor(target));
    else target.handler.onPartialThinking?.(partialThinking(text), this.contextFor(target));
  }

  private delta(target: MapperTarget, kind: Fragment, key: string, itemId: unknown, delta: unknown): void {
    if (typeof delta !== 'string' || delta.length === 0) return;
    this.ledger.record(key, delta);
    this.enterRun(target, str(itemId));
    this.emit(target, kind, delta);
  }

  private settle(target: MapperTarget, kind: Fragment, key: string, itemId: unknown, fullText: unknown): void {
    if (typeof fullText !== 'string') return;
    const missing = this.ledger.settle(key, fullText);
    if (missing === null || missing.length === 0) return;
    this.enterRun(target, str(itemId));
    this.emit(target, kind, missing);
  }

  /**
   * Text or reasoning of `itemId` is about to be delivered. When the deltas so far belong to
   * another item (items interleaved), that item's part ends first: two items never share a part,
   * and each part keeps its own item's id. One comparison per delta, no allocation.
   */
  private enterRun(target: MapperTarget, itemId: string | null): void {
    if (this.runOpen) {
      if (this.runItem === itemId) return;
      this.closeRun(target);
    }
    this.runOpen = true;
    this.runItem = itemId;
  }

  /** Ends the part of the text or reasoning deltas delivered since the last block ended, with its item id. */
  private closeRun(target: MapperTarget): void {
    if (!this.runOpen) return;
    this.runOpen = false;
    target.completeBlock?.(null, itemAttributes(this.runItem));
  }

  private itemAdded(item: ResponsesOutputItem | undefined, outputIndex: unknown): void {
    if (!isJsonObject(item) || !isClientToolCall(item.type)) return;
    const key = str(item.id);
    if (key === null || this.calls.has(key)) return;
    const name = str(item.name) ?? '';
    this.startCall(key, str(item.call_id), name, outputIndex);
    if (item.type === 'custom_tool_call') this.custom.add(key);
    if (name.trim().length > 0) this.named.add(key);
  }

  private startCall(key: string, callId: string | null, name: string, outputIndex: unknown): void {
    this.calls.start(key, callId, name);
    if (callId !== null && !this.keyByCallId.has(callId)) this.keyByCallId.set(callId, key);
    if (typeof outputIndex === 'number' && !this.keyByOutputIndex.has(outputIndex)) this.keyByOutputIndex.set(outputIndex, key);
  }

  /** The key of the call an `output_item.done` item belongs to: its id, else its call_id's or output index's call. */
  private keyOfDoneItem(item: ResponsesOutputItem, outputIndex: unknown): string | null {
    const id = str(item.id);
    if (id !== null && this.calls.has(id)) return id;
    const callId = str(item.call_id);
    const byCallId = callId === null ? undefined : this.keyByCallId.get(callId);
    if (byCallId !== undefined) return byCallId;
    const byIndex = typeof outputIndex === 'number' ? this.keyByOutputIndex.get(outputIndex) : undefined;
    // Only a call that has no call_id of its own yet may be claimed through its output index.
    if (byIndex !== undefined && this.calls.idOf(byIndex) === null) return byIndex;
    return id;
  }

  private argumentsDelta(target: MapperTarget, itemId: unknown, delta: unknown, outputIndex: unknown): void {
    const key = str(itemId);
    if (key === null || typeof delta !== 'string') return;
    // A delta for an item never announced still counts: its fragments wait for the item's name.
    if (!this.calls.has(key)) this.startCall(key, null, '', outputIndex);
    const partial = this.calls.append(key, delta);
    if (partial !== null) target.handler.onPartialToolCall?.(partial, this.contextFor(target));
  }

  private argumentsDone(target: MapperTarget, itemId: unknown, fullArguments: unknown): void {
    const key = str(itemId);
    // Without a known name the call waits for its output_item.done, which carries one.
    if (key === null || !this.calls.isOpen(key) || !this.named.has(key)) return;
    this.closeRun(target);
    const full = str(fullArguments);
    const attributes = this.callAttributes(key, key);
    this.calls.complete(key, target, full === null ? { attributes } : { arguments: full, attributes });
  }

  private itemDone(target: MapperTarget, item: ResponsesOutputItem | undefined, outputIndex: unknown): void {
    if (!isJsonObject(item)) return;
    const id = str(item.id);
    if (item.type === 'reasoning' || item.type === 'message') {
      // The deltas delivered since the last block are this item's part, unless another item's.
      if (this.runItem !== id) this.closeRun(target);
      this.runOpen = false;
      if (item.type === 'reasoning') {
        const encrypted = str(item.encrypted_content);
        if (encrypted !== null && encrypted.length > 0) {
          const payload = { provider: 'openai', kind: 'encrypted_content', data: encrypted };
          target.handler.onPartialThinking?.(partialThinking('', payload), this.contextFor(target));
        }
        target.completeBlock?.(null, itemAttributes(id));
      } else {
        target.completeBlock?.(outputItemPart(item), itemAttributes(id));
      }
      return;
    }
    if (!isClientToolCall(item.type)) {
      this.closeRun(target);
      target.completeBlock?.(outputItemPart(item), itemAttributes(id));
      return;
    }
    const key = this.keyOfDoneItem(item, outputIndex);
    if (key === null) return;
    const name = str(item.name);
    if (!this.calls.has(key)) this.startCall(key, str(item.call_id), name ?? '', outputIndex);
    else if (this.calls.isOpen(key)) this.calls.identify(key, str(item.call_id), name);
    else return;
    if (item.type === 'custom_tool_call') this.custom.add(key);
    const full = item.type === 'function_call' ? str(item.arguments) : str(item.input);
    // The done item's own id: the item as completed, which a later request sends back.
    const attributes = this.callAttributes(key, id ?? key);
    const completion = full === null ? { attributes } : { arguments: full, attributes };
    this.closeRun(target);
    // An item done as `incomplete` was cut off (e.g. at max_output_tokens): it is no call to run.
    if (item.status === 'incomplete') this.calls.abandon(key, target, completion);
    else this.calls.complete(key, target, completion);
  }

  /** The attributes of call `key`'s part, its item id `id`: a custom call's say so. */
  private callAttributes(key: string, id: string): PartAttributes | undefined {
    return this.custom.has(key) ? customCallAttributes(id) : itemAttributes(id);
  }

  private complete(target: MapperTarget, response: ResponsesResponse | undefined, fallbackStatus: string): void {
    this.remember(response);
    const snapshot: ResponsesResponse = isJsonObject(response) ? response : {};
    const status = str(snapshot.status) ?? fallbackStatus;
    const incomplete = snapshot.incomplete_details;
    const incompleteReason = isJsonObject(incomplete) ? str(incomplete.reason) : null;
    const mapped = mapOpenAIResponsesFinishReason(status, incompleteReason);
    // Text or reasoning whose item was never done ends with its item id; calls still open (their
    // done events never came) end before the response does: complete, or cut off when the
    // response stopped at max_output_tokens.
    this.closeRun(target);
    this.calls.endAll(target, mapped, (key) => ({ attributes: this.callAttributes(key, key) }));
    const usage = snapshot.usage;
    const metadata = responseMetadata({
      id: this.id,
      modelName: this.model,
      tokenUsage: openAIResponsesUsage(usage),
      finishReason: this.calls.finishReason(mapped),
      providerFinishReason: incompleteReason ?? status,
      providerUsage: isJsonObject(usage) ? usage : null,
      providerMetadata: openAIResponsesMetadata(isJsonObject(response) ? response : null),
    });
    this.ended = true;
    target.handler.onCompleteResponse(chatResponse(aiMessage([]), metadata));
  }

  private fail(target: MapperTarget, error: ResponsesError | null, fallbackMessage: string, frame: SseFrame): void {
    const source: ResponsesError = isJsonObject(error) ? error : {};
    const given = str(source.message);
    const message = given !== null && given.trim().length > 0 ? given : fallbackMessage;
    const code = str(source.code) ?? str(source.type) ?? undefined;
    this.ended = true;
    this.closeRun(target);
    target.handler.onError(new StreamError('provider', message, { code, body: source, frame: frame.data }));
  }
}
