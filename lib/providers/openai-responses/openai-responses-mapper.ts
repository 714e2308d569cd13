import type { ChatResponseMetadata } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import { reasoningPart } from '../../parts/factories';
import type { MessagePart, PartAttributes } from '../../parts/types';
import { isJsonObject, stringOrNull, type JsonObject } from '../../wire/read-json';
import type { SseFrame } from '../../wire/types';
import { MapperOutput } from '../kit/mapper-output';
import { checkSseFrame, sseEventType } from '../kit/sse-event';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason';
import { openAIResponsesMetadata } from './openai-responses-metadata';
import { openAIResponsesUsage } from './openai-responses-usage';
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent } from './openai-responses-wire';
import { DoneItemKey } from './done-item-key';
import { outputItemPart } from './output-item-part';
import { OpenAIResponsesEventReader } from './parse-openai-responses-event';
import { StreamedTextLedger } from './streamed-text-ledger';
import { customCallAttributes, isClientToolCall, itemAttributes } from './item-attributes';

/** The part of a reasoning item that brought no text and no encrypted content: its id (as `itemId`) is all it holds. */
const EMPTY_REASONING: MessagePart = reasoningPart(null);

/** True for a list the item holds nothing in (absent or empty). */
function isEmptyList(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

type Fragment = 'text' | 'thinking';

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
 *   A reasoning item with an empty summary, no content and no encrypted content (the default
 *   `store: true` without `include`) is a part too — reasoning with null text and summary, its
 *   `itemId` all it holds — so that replay sends it back (by id) before the calls that need it.
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
 *   model, usage, finish reason); `error` and `response.failed` (or an `event: error` frame that
 *   is not JSON) end it with one `onError` (`providerStreamError`), whichever comes first. Finish
 *   reason: the `status` (and `incomplete_details.reason`) mapped by
 *   `mapOpenAIResponsesFinishReason`, resolved by `resolveFinishReason` (completed tool calls
 *   make `completed` TOOL_EXECUTION); `providerFinishReason` = `incomplete_details.reason` when
 *   present, else `status`. Usage: `openAIResponsesUsage` of the response's `usage`, kept as sent
 *   in `providerUsage`; `providerMetadata` as `openAIResponsesMetadata` describes. `map` returns
 *   true at the first terminal event (a body holding several responses yields the first one
 *   only), whose callback is delivered while mapping it; `end` comes only for a stream without
 *   one: it was truncated.
 * - Everything else (`response.created`, `output_item.added`, `content_part.*`, annotations,
 *   server tools such as `web_search_call.*` …) maps nothing and surfaces raw.
 */
export class OpenAIResponsesMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse';
  private readonly out = new MapperOutput();
  private readonly events = new OpenAIResponsesEventReader();
  private readonly calls = new ToolCallAccumulator<string>();
  /** Item ids of calls whose name is known (a call completes only with a name). */
  private readonly named = new Set<string>();
  /** Item ids of the calls that are `custom_tool_call` items (free-text input, not JSON arguments). */
  private readonly custom = new Set<string>();
  /** An `output_item.done` whose item id differs from the one its deltas used still finds its call (completing it once, not twice). */
  private readonly doneItemKey = new DoneItemKey();
  private readonly ledger = new StreamedTextLedger();
  /** Whether text or reasoning went out since the last block ended (the bridge's current run), and its item's id. */
  private runOpen = false;
  private runItem: string | null = null;
  /** The last response object seen (`response.created` … the terminal one), as sent. */
  private snapshot: ResponsesResponse | null = null;

  /** Maps one SSE frame; returns true once a terminal event was seen. */
  map(frame: SseFrame, target: MapperTarget): boolean {
    checkSseFrame(frame);
    const event = this.events.read(frame.data) as (ResponsesStreamEvent & JsonObject) | undefined;
    if (event === undefined) return this.out.unreadable(target, frame);
    const type = sseEventType(event, frame);
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.remember(event.response);
        return false;
      case 'response.output_text.delta':
        this.delta(target, 'text', 't', event.item_id, event.content_index, event.delta);
        return false;
      case 'response.output_text.done':
        this.settle(target, 'text', 't', event.item_id, event.content_index, event.text);
        return false;
      case 'response.reasoning_summary_text.delta':
        this.delta(target, 'thinking', 's', event.item_id, event.summary_index, event.delta);
        return false;
      case 'response.reasoning_summary_text.done':
        this.settle(target, 'thinking', 's', event.item_id, event.summary_index, event.text);
        return false;
      case 'response.reasoning_text.delta':
        this.delta(target, 'thinking', 'r', event.item_id, event.content_index, event.delta);
        return false;
      case 'response.reasoning_text.done':
        this.settle(target, 'thinking', 'r', event.item_id, event.content_index, event.text);
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
        this.fail(target, event.response, frame, 'The response failed');
        return true;
      case 'error':
        this.fail(target, event, frame);
        return true;
      default:
        return false;
    }
  }

  /** The id, model, usage and fields seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ providerMetadata: openAIResponsesMetadata(this.snapshot) });
  }

  /** Ends a stream without its terminal event: it was truncated. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    // The partial keeps the item id of the text or reasoning that was streaming.
    this.closeRun(target);
    this.out.truncated(target, 'response.completed', truncatedFrame);
  }

  private remember(response: unknown): void {
    if (!isJsonObject(response)) return;
    this.snapshot = response;
    this.out.noteId(response.id);
    this.out.noteModel(response.model);
    if (isJsonObject(response.usage)) this.out.noteUsage(openAIResponsesUsage(response.usage), response.usage);
  }

  private delta(target: MapperTarget, kind: Fragment, part: string, itemId: unknown, index: unknown, delta: unknown): void {
    if (typeof delta !== 'string' || delta.length === 0) return;
    this.ledger.record(part, itemId, index, delta);
    this.emit(target, kind, itemId, delta);
  }

  private settle(target: MapperTarget, kind: Fragment, part: string, itemId: unknown, index: unknown, fullText: unknown): void {
    const missing = typeof fullText === 'string' ? this.ledger.settle(part, itemId, index, fullText) : null;
    if (missing !== null && missing.length > 0) this.emit(target, kind, itemId, missing);
  }

  private emit(target: MapperTarget, kind: Fragment, itemId: unknown, text: string): void {
    this.enterRun(target, stringOrNull(itemId));
    if (kind === 'text') target.handler.onPartialResponse?.(partialResponse(text), this.out.contextOf(target));
    else target.handler.onPartialThinking?.(partialThinking(text), this.out.contextOf(target));
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

  private itemAdded(item: unknown, outputIndex: unknown): void {
    if (!isJsonObject(item) || !isClientToolCall(item.type)) return;
    const key = stringOrNull(item.id);
    if (key === null || this.calls.has(key)) return;
    const name = stringOrNull(item.name) ?? '';
    this.startCall(key, stringOrNull(item.call_id), name, outputIndex);
    if (item.type === 'custom_tool_call') this.custom.add(key);
    if (name.trim().length > 0) this.named.add(key);
  }

  private startCall(key: string, callId: string | null, name: string, outputIndex: unknown): void {
    this.calls.start(key, callId, name);
    this.doneItemKey.note(key, callId, outputIndex);
  }

  private argumentsDelta(target: MapperTarget, itemId: unknown, delta: unknown, outputIndex: unknown): void {
    const key = stringOrNull(itemId);
    if (key === null || typeof delta !== 'string') return;
    // A delta for an item never announced still counts: its fragments wait for the item's name.
    if (!this.calls.has(key)) this.startCall(key, null, '', outputIndex);
    this.out.toolCall(target, this.calls.append(key, delta));
  }

  private argumentsDone(target: MapperTarget, itemId: unknown, fullArguments: unknown): void {
    const key = stringOrNull(itemId);
    // Without a known name the call waits for its output_item.done, which carries one.
    if (key === null || !this.calls.isOpen(key) || !this.named.has(key)) return;
    this.closeRun(target);
    const full = stringOrNull(fullArguments);
    const attributes = this.callAttributes(key, key);
    this.calls.complete(key, target, full === null ? { attributes } : { arguments: full, attributes });
  }

  private itemDone(target: MapperTarget, value: unknown, outputIndex: unknown): void {
    if (!isJsonObject(value)) return;
    const item: ResponsesOutputItem & JsonObject = value;
    const id = stringOrNull(item.id);
    if (item.type === 'reasoning' || item.type === 'message') {
      const streamed = this.runOpen && this.runItem === id;
      // The deltas delivered since the last block are this item's part, unless another item's.
      if (this.runItem !== id) this.closeRun(target);
      this.runOpen = false;
      if (item.type === 'reasoning') {
        const encrypted = stringOrNull(item.encrypted_content);
        const sealed = encrypted !== null && encrypted.length > 0;
        if (sealed) target.handler.onPartialThinking?.(partialThinking('', { provider: 'openai', kind: 'encrypted_content', data: encrypted }), this.out.contextOf(target));
        // Every output item is a part: one that brought nothing still holds its id for replay.
        const empty = !streamed && !sealed && isEmptyList(item.summary) && isEmptyList(item.content);
        target.completeBlock?.(empty ? EMPTY_REASONING : null, itemAttributes(id));
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
    const key = this.doneItemKey.of(item, outputIndex, this.calls);
    if (key === null) return;
    const name = stringOrNull(item.name);
    if (!this.calls.has(key)) this.startCall(key, stringOrNull(item.call_id), name ?? '', outputIndex);
    else if (this.calls.isOpen(key)) this.calls.identify(key, stringOrNull(item.call_id), name);
    else return;
    if (item.type === 'custom_tool_call') this.custom.add(key);
    const full = item.type === 'function_call' ? stringOrNull(item.arguments) : stringOrNull(item.input);
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

  private complete(target: MapperTarget, response: unknown, fallbackStatus: string): void {
    this.remember(response);
    const snapshot: ResponsesResponse = isJsonObject(response) ? response : {};
    const status = stringOrNull(snapshot.status) ?? fallbackStatus;
    const incompleteReason = isJsonObject(snapshot.incomplete_details) ? stringOrNull(snapshot.incomplete_details.reason) : null;
    const providerFinishReason = incompleteReason ?? status;
    const mapped = mapOpenAIResponsesFinishReason(providerFinishReason) ?? 'OTHER';
    // Text or reasoning whose item was never done ends with its item id; calls still open (their
    // done events never came) end before the response does: complete, or cut off when the
    // response stopped at max_output_tokens.
    this.closeRun(target);
    this.calls.endAll(target, mapped, (key) => ({ attributes: this.callAttributes(key, key) }));
    this.out.complete(target, {
      finishReason: this.calls.finishReason(mapped),
      providerFinishReason,
      providerMetadata: openAIResponsesMetadata(response),
    });
  }

  /** Ends the stream with the error `event` is or holds (`response.failed`: its response's `error`). */
  private fail(target: MapperTarget, event: unknown, frame: SseFrame, fallbackMessage?: string): void {
    this.closeRun(target);
    this.out.fail(target, event, frame.data, fallbackMessage);
  }
}
