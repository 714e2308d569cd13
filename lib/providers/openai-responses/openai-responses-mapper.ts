import type { StreamingHandle, ChatResponseMetadata } from '../../handler/types';
import { aiMessage, chatResponse, partialResponse, partialThinking, responseMetadata } from '../../handler/values';
import { isJsonObject, parseJsonObject } from '../shared/read-json';
import { outputItemPart } from './output-item-part';
import { resolveFinishReason } from '../shared/resolve-finish-reason';
import { ToolCallAccumulator } from '../shared/tool-call-accumulator';
import { truncatedStreamError } from '../shared/truncated-stream-error';
import { StreamError } from '../stream-error';
import type { MapperTarget, SseFrame, StreamMapper } from '../types';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason';
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
 *   the item's `response.output_item.done`, whichever comes first.
 * - A reasoning item's `encrypted_content`, taken at its `response.output_item.done`, becomes a
 *   signature-only partial thinking with payload `openai`/`encrypted_content`. (The server may
 *   re-encrypt it for `response.completed`; the item's value is the one kept, and both replay.)
 * - Each output item is its own part: a reasoning or message item's `output_item.done` completes
 *   its part (`MapperTarget.completeBlock`), a message's annotations riding on it as payload
 *   `openai`/`annotations`. Every other item (`web_search_call`, `mcp_call`, …) is handed over
 *   whole at its `output_item.done` (`outputItemPart`: an `unknown` part, or a `media` part for a
 *   generated image), in stream order; its events still surface raw.
 * - `response.completed` / `response.incomplete` end the stream with a complete response (id,
 *   model, usage, finish reason); `error` and `response.failed` end it with one `onError`
 *   (a `StreamError` of kind `provider`), whichever comes first. `map` returns true at the first
 *   terminal event, so a body holding several responses yields the first one only. The
 *   terminal callback is delivered while mapping that event (so it counts as mapped); `end`
 *   then delivers nothing, and otherwise reports the stream as truncated.
 * - Everything else (`response.created`, `output_item.added`, `content_part.*`, annotations,
 *   server tools such as `web_search_call.*` …) maps nothing and surfaces raw.
 */
export class OpenAIResponsesMapper implements StreamMapper<SseFrame> {
  private readonly calls = new ToolCallAccumulator<string>();
  /** Item ids of calls whose name is known (a call completes only with a name). */
  private readonly named = new Set<string>();
  /**
   * Item ids of the calls by `call_id` and by output index: an `output_item.done` whose item id
   * differs from the one its deltas used still finds its call (completing it once, not twice).
   */
  private readonly keyByCallId = new Map<string, string>();
  private readonly keyByOutputIndex = new Map<number, string>();
  private toolCallsMade = 0;
  private readonly ledger = new StreamedTextLedger();
  private context: { readonly streamingHandle: StreamingHandle } | null = null;
  private id: string | null = null;
  private model: string | null = null;
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
        this.delta(target, 'text', partKey('t', event.item_id, event.content_index), event.delta);
        return false;
      case 'response.output_text.done':
        this.settle(target, 'text', partKey('t', event.item_id, event.content_index), event.text);
        return false;
      case 'response.reasoning_summary_text.delta':
        this.delta(target, 'thinking', partKey('s', event.item_id, event.summary_index), event.delta);
        return false;
      case 'response.reasoning_summary_text.done':
        this.settle(target, 'thinking', partKey('s', event.item_id, event.summary_index), event.text);
        return false;
      case 'response.reasoning_text.delta':
        this.delta(target, 'thinking', partKey('r', event.item_id, event.content_index), event.delta);
        return false;
      case 'response.reasoning_text.done':
        this.settle(target, 'thinking', partKey('r', event.item_id, event.content_index), event.text);
        return false;
      case 'response.output_item.added':
        this.itemAdded(event.item, event.output_index);
        return false;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.argumentsDelta(target, event.item_id, event.delta, event.output_index);
        return false;
      case 'response.function_call_arguments.done':
        this.argumentsDone(target, event.item_id, event.arguments);
        return false;
      case 'response.custom_tool_call_input.done':
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
    return responseMetadata({ id: this.id, modelName: this.model });
  }

  /** Ends the stream: a truncation error unless a terminal event was already mapped. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (this.ended) return;
    this.ended = true;
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
    this.id = str(response.id) ?? this.id;
    this.model = str(response.model) ?? this.model;
  }

  private emit(target: MapperTarget, kind: Fragment, text: string): void {
    if (kind === 'text') target.handler.onPartialResponse?.(partialResponse(text), this.contextFor(target));
    else target.handler.onPartialThinking?.(partialThinking(text), this.contextFor(target));
  }

  private delta(target: MapperTarget, kind: Fragment, key: string, delta: unknown): void {
    if (typeof delta !== 'string' || delta.length === 0) return;
    this.ledger.record(key, delta);
    this.emit(target, kind, delta);
  }

  private settle(target: MapperTarget, kind: Fragment, key: string, fullText: unknown): void {
    if (typeof fullText !== 'string') return;
    const missing = this.ledger.settle(key, fullText);
    if (missing !== null && missing.length > 0) this.emit(target, kind, missing);
  }

  private itemAdded(item: ResponsesOutputItem | undefined, outputIndex: unknown): void {
    if (!isJsonObject(item) || !isClientToolCall(item.type)) return;
    const key = str(item.id);
    if (key === null || this.calls.has(key)) return;
    const name = str(item.name) ?? '';
    this.startCall(key, str(item.call_id), name, outputIndex);
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
    this.completeCall(target, key, str(fullArguments) ?? undefined);
  }

  private itemDone(target: MapperTarget, item: ResponsesOutputItem | undefined, outputIndex: unknown): void {
    if (!isJsonObject(item)) return;
    if (item.type === 'reasoning') {
      const encrypted = str(item.encrypted_content);
      if (encrypted !== null && encrypted.length > 0) {
        const payload = { provider: 'openai', kind: 'encrypted_content', data: encrypted };
        target.handler.onPartialThinking?.(partialThinking('', payload), this.contextFor(target));
      }
      target.completeBlock?.();
      return;
    }
    if (!isClientToolCall(item.type)) {
      target.completeBlock?.(outputItemPart(item));
      return;
    }
    const key = this.keyOfDoneItem(item, outputIndex);
    if (key === null) return;
    const name = str(item.name);
    if (!this.calls.has(key)) this.startCall(key, str(item.call_id), name ?? '', outputIndex);
    else if (this.calls.isOpen(key)) this.calls.identify(key, str(item.call_id), name);
    else return;
    const full = item.type === 'function_call' ? str(item.arguments) : str(item.input);
    this.completeCall(target, key, full ?? undefined);
  }

  private completeCall(target: MapperTarget, key: string, fullArguments: string | undefined): void {
    const complete = this.calls.complete(key, fullArguments === undefined ? {} : { arguments: fullArguments });
    if (complete === null) return;
    this.toolCallsMade++;
    target.handler.onCompleteToolCall?.(complete);
  }

  private complete(target: MapperTarget, response: ResponsesResponse | undefined, fallbackStatus: string): void {
    // Calls still open (their done events never came) complete before the response does.
    for (const complete of this.calls.completeAll()) {
      this.toolCallsMade++;
      target.handler.onCompleteToolCall?.(complete);
    }
    this.remember(response);
    const snapshot: ResponsesResponse = isJsonObject(response) ? response : {};
    const incomplete = snapshot.incomplete_details;
    const finishReason = resolveFinishReason(
      mapOpenAIResponsesFinishReason(str(snapshot.status) ?? fallbackStatus, isJsonObject(incomplete) ? str(incomplete.reason) : null),
      this.toolCallsMade,
    );
    const metadata = responseMetadata({ id: this.id, modelName: this.model, tokenUsage: openAIResponsesUsage(snapshot.usage), finishReason });
    this.ended = true;
    target.handler.onCompleteResponse(chatResponse(aiMessage([]), metadata));
  }

  private fail(target: MapperTarget, error: ResponsesError | null, fallbackMessage: string, frame: SseFrame): void {
    const source: ResponsesError = isJsonObject(error) ? error : {};
    const given = str(source.message);
    const message = given !== null && given.trim().length > 0 ? given : fallbackMessage;
    const code = str(source.code) ?? str(source.type) ?? undefined;
    this.ended = true;
    target.handler.onError(new StreamError('provider', message, { code, body: source, frame: frame.data }));
  }
}
