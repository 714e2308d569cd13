import type { ChatResponseMetadata } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import type { OpaquePayload } from '../../parts/types';
import { isJsonObject, nonBlankString, nonEmptyString, parseJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';
import type { SseFrame } from '../../wire/types';
import { MapperOutput } from '../kit/mapper-output';
import { checkSseFrame, sseEventType } from '../kit/sse-event';
import { ToolCallAccumulator, type ToolCallCompletion } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { AnthropicBlocks } from './anthropic-blocks';
import { AnthropicMetadata } from './anthropic-metadata';
import { AnthropicUsageTracker } from './anthropic-usage';
import type { AnthropicContentBlock, AnthropicDelta, AnthropicMessage, AnthropicStreamEvent } from './anthropic-wire';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

/** The payload provider of Anthropic's replayable reasoning data. */
const PROVIDER = 'anthropic';

function payload(kind: 'signature' | 'redacted_thinking', data: string): OpaquePayload {
  return Object.freeze({ provider: PROVIDER, kind, data });
}

/**
 * Maps an Anthropic Messages stream to handler callbacks.
 *
 * - Content blocks by `index`: `text_delta` → partial response, `thinking_delta` → partial
 *   thinking, `signature_delta` → a signature-only partial thinking (`''` with payload
 *   `anthropic`/`signature`) so the reasoning part carries it, a `redacted_thinking` block → a
 *   payload-only partial thinking (`anthropic`/`redacted_thinking`). A `content_block_start` that
 *   already holds text or thinking delivers it; an empty one maps nothing.
 * - `tool_use` blocks are the client tool calls, numbered 0, 1, 2 among themselves:
 *   `input_json_delta` → partial tool call, `content_block_stop` → complete tool call (the raw
 *   concatenation of the deltas, `"{}"` when empty; the block's start `input` when no delta came).
 *   A tool block still open at `message_stop` completes there — unless the message stopped for
 *   `max_tokens`: its input was cut off, so it never completes and is kept incomplete. One still
 *   open when the stream breaks off before `message_stop` never completes either (the failure's
 *   partial keeps its deltas, marked incomplete).
 * - Each content block is its own part: a block's stop completes it (`MapperTarget.completeBlock`),
 *   so two thinking or redacted_thinking blocks back to back keep their own payloads. A text
 *   block's citations (`citations_delta`) ride on its part as payload `anthropic`/`citations`.
 *   Blocks no callback models (`server_tool_use`, `web_search_tool_result`, `mcp_tool_use`, any
 *   type not known today) are rebuilt from their start and deltas (`AnthropicBlocks`) and handed
 *   over at their stop as `unknown` parts, in stream order; their deltas never reach a callback.
 * - Everything the handler API does not model maps nothing and surfaces raw (also when it
 *   completed a block's part): `message_start`, `ping`, `message_delta`, `message_stop` (unless
 *   it completes a tool call), `content_block_stop` of other blocks, server-side blocks and their
 *   deltas, `citations_delta`, unknown events, frames that are not JSON objects.
 * - `error` events (and an `event: error` frame that is not JSON) → `onError` with a `provider`
 *   `StreamError` (`providerStreamError`: code = the error's `type`).
 * - Usage: `message_start` and `message_delta` usage merged as `AnthropicUsageTracker` says
 *   (the merged object kept as sent in `providerUsage`); id and model from `message_start`
 *   (non-blank);
 *   finish reason: `stop_reason` mapped by `mapAnthropicStopReason` and resolved against the
 *   completed tool calls (`resolveFinishReason`: `max_tokens` stays LENGTH, `pause_turn` OTHER,
 *   completed tool calls make a stop TOOL_EXECUTION), `providerFinishReason` = `stop_reason` as
 *   sent; `providerMetadata` as `AnthropicMetadata` describes.
 */
export class AnthropicMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse';
  private readonly out = new MapperOutput();
  private readonly toolCalls = new ToolCallAccumulator<number>();
  /** The start `input` of tool blocks that sent a non-empty one, serialised once. */
  private readonly startInputs = new Map<number, string>();
  private readonly usage = new AnthropicUsageTracker();
  private readonly blocks = new AnthropicBlocks();
  private readonly metadata = new AnthropicMetadata();
  private stopReason: string | null = null;
  private stopSeen = false;

  /** Maps one SSE frame; returns true at `message_stop` and after an `error` event. */
  map(frame: SseFrame, target: MapperTarget): boolean {
    checkSseFrame(frame);
    const event = parseJsonObject(frame.data) as (AnthropicStreamEvent & JsonObject) | undefined;
    if (event === undefined) return this.out.unreadable(target, frame);
    switch (sseEventType(event, frame)) {
      case 'message_start':
        if (isJsonObject(event.message)) this.onMessageStart(event.message);
        return false;
      case 'content_block_start':
        if (isJsonObject(event.content_block)) this.onBlockStart(event.index, event.content_block, target);
        return false;
      case 'content_block_delta':
        if (isJsonObject(event.delta)) this.onBlockDelta(event.index, event.delta, target);
        return false;
      case 'content_block_stop':
        if (typeof event.index === 'number') this.onBlockStop(event.index, target);
        return false;
      case 'message_delta':
        if (isJsonObject(event.delta)) this.stopReason = nonEmptyString((event.delta as AnthropicDelta).stop_reason) ?? this.stopReason;
        this.usage.merge(event.usage);
        this.metadata.noteMessageDelta(event);
        return false;
      case 'message_stop':
        this.stopSeen = true;
        this.endToolCalls(target);
        for (const closing of this.blocks.stopAll()) target.completeBlock?.(closing);
        return true;
      case 'error':
        this.out.fail(target, event, frame.data);
        return true;
      default:
        return false;
    }
  }

  /** The id, model, usage and fields seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ tokenUsage: this.usage.tokenUsage(), providerUsage: this.usage.providerUsage(), providerMetadata: this.metadata.providerMetadata() });
  }

  /** Completes the response, or fails a stream that ended before `message_stop` or mid-frame. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (truncatedFrame || !this.stopSeen) {
      this.out.truncated(target, 'message_stop', truncatedFrame);
      return;
    }
    this.endToolCalls(target);
    this.out.complete(target, {
      tokenUsage: this.usage.tokenUsage(),
      finishReason: this.toolCalls.finishReason(mapAnthropicStopReason(this.stopReason)),
      providerFinishReason: this.stopReason,
      providerUsage: this.usage.providerUsage(),
      providerMetadata: this.metadata.providerMetadata(),
    });
  }

  private onMessageStart(message: AnthropicMessage & JsonObject): void {
    this.out.noteId(message.id);
    this.out.noteModel(message.model);
    this.usage.merge(message.usage);
    this.metadata.noteMessage(message);
  }

  private onBlockStart(index: unknown, block: AnthropicContentBlock & JsonObject, target: MapperTarget): void {
    const type = block.type;
    if (typeof index === 'number' && typeof type === 'string') {
      // A second start at an open index: the earlier block is complete.
      if (this.blocks.isOpen(index)) this.stopBlock(index, target);
      this.blocks.start(index, type, block);
    }
    switch (type) {
      case 'text': {
        const text = nonEmptyString(block.text);
        if (text !== null) target.handler.onPartialResponse?.(partialResponse(text), this.out.contextOf(target));
        return;
      }
      case 'thinking': {
        const thinking = nonEmptyString(block.thinking);
        if (thinking !== null) target.handler.onPartialThinking?.(partialThinking(thinking), this.out.contextOf(target));
        const signature = nonEmptyString(block.signature);
        if (signature !== null) target.handler.onPartialThinking?.(partialThinking('', payload('signature', signature)), this.out.contextOf(target));
        return;
      }
      case 'redacted_thinking':
        if (typeof block.data === 'string') target.handler.onPartialThinking?.(partialThinking('', payload('redacted_thinking', block.data)), this.out.contextOf(target));
        return;
      case 'tool_use': {
        const name = nonBlankString(block.name);
        // A block whose index was seen before, or that has no name, is no call the handler can take.
        if (typeof index !== 'number' || name === null || this.toolCalls.has(index)) return;
        this.toolCalls.start(index, nonEmptyString(block.id), name);
        if (isJsonObject(block.input) && Object.keys(block.input).length > 0) this.startInputs.set(index, stringifyJson(block.input) ?? '{}');
        return;
      }
      default:
        return;
    }
  }

  private onBlockDelta(index: unknown, delta: AnthropicDelta & JsonObject, target: MapperTarget): void {
    const type = delta.type;
    if (typeof index === 'number') {
      // A block no callback models keeps its deltas, whatever their type: none reaches a callback.
      if (this.blocks.isUnmodelled(index)) {
        this.blocks.delta(index, type, delta);
        return;
      }
      if (type === 'citations_delta') this.blocks.delta(index, type, delta);
    }
    switch (type) {
      case 'text_delta': {
        const text = nonEmptyString(delta.text);
        if (text !== null) target.handler.onPartialResponse?.(partialResponse(text), this.out.contextOf(target));
        return;
      }
      case 'thinking_delta': {
        const thinking = nonEmptyString(delta.thinking);
        if (thinking !== null) target.handler.onPartialThinking?.(partialThinking(thinking), this.out.contextOf(target));
        return;
      }
      case 'signature_delta': {
        const signature = nonEmptyString(delta.signature);
        if (signature !== null) target.handler.onPartialThinking?.(partialThinking('', payload('signature', signature)), this.out.contextOf(target));
        return;
      }
      case 'input_json_delta':
        // Server-side tool blocks stream input_json_delta too; only client tool_use blocks are calls.
        if (typeof index === 'number' && typeof delta.partial_json === 'string') this.out.toolCall(target, this.toolCalls.append(index, delta.partial_json));
        return;
      default:
        return;
    }
  }

  private onBlockStop(index: number, target: MapperTarget): void {
    if (this.toolCalls.isOpen(index)) this.toolCalls.complete(index, target, this.completionOf(index));
    this.stopBlock(index, target);
  }

  private stopBlock(index: number, target: MapperTarget): void {
    const closing = this.blocks.stop(index);
    if (closing !== undefined) target.completeBlock?.(closing);
  }

  /**
   * Ends the tool blocks still open at `message_stop`: they complete, unless the message stopped
   * for `max_tokens` — then their input was cut off and they are kept incomplete.
   */
  private endToolCalls(target: MapperTarget): void {
    this.toolCalls.endAll(target, mapAnthropicStopReason(this.stopReason), this.completionOf);
  }

  /** A tool block that got no input_json_delta completes with the `input` it started with, if any. */
  private readonly completionOf = (index: number): ToolCallCompletion | undefined => {
    const startInput = this.startInputs.get(index);
    if (startInput === undefined || this.toolCalls.argumentsOf(index) !== '') return undefined;
    return { arguments: startInput };
  };
}
