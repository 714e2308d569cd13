import type { ChatResponseMetadata, FinishReason } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import type { OpaquePayload } from '../../parts/types';
import { isJsonObject, nonBlankString, nonEmptyString, type JsonObject } from '../../wire/read-json';
import { MapperOutput } from '../kit/mapper-output';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { BEDROCK_PROVIDER, BedrockConverseBlocks } from './bedrock-converse-blocks';
import { BedrockConverseMetadata } from './bedrock-converse-metadata';
import { bedrockTokenUsage } from './bedrock-converse-usage';
import type { BedrockBlockDelta, BedrockBlockEvent, BedrockMessageStop, BedrockMetadataEvent, BedrockReasoningDelta, BedrockToolUseStart } from './bedrock-converse-wire';
import { bedrockStreamError, checkEventStreamFrame } from './bedrock-stream-error';
import type { EventStreamFrame } from '../../wire/aws-eventstream/eventstream-decoder';
import { mapBedrockStopReason } from './map-bedrock-stop-reason';

function payload(kind: 'signature' | 'redacted_content', data: string): OpaquePayload {
  return Object.freeze({ provider: BEDROCK_PROVIDER, kind, data });
}

/** A `contentBlockIndex`: a safe integer ≥ 0 (only a key: nothing is sized by it), else null. */
function blockIndex(value: unknown): number | null {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null;
}

/**
 * Maps an Amazon Bedrock ConverseStream (`application/vnd.amazon.eventstream` messages, decoded
 * into `EventStreamFrame`s, or the AWS SDK's decoded events through `bedrockFrameFromSdkEvent`)
 * to handler callbacks. Every payload's padding field `p` is ignored.
 *
 * - Content blocks by `contentBlockIndex`, one part each (`MapperTarget.completeBlock` at
 *   `contentBlockStop`). Text and reasoning blocks get no `contentBlockStart`: a block is what its
 *   first delta says. `delta.text` → partial response; `delta.reasoningContent.text` → partial
 *   thinking, `.signature` → a signature-only partial thinking (`''` with payload
 *   `bedrock`/`signature`), `.redactedContent` (base64) → a payload-only partial thinking
 *   (`bedrock`/`redacted_content`, the base64 text as sent). `delta.citation` rides on its text
 *   block's part (payload `bedrock`/`citations`) and maps nothing.
 * - Tool calls: `contentBlockStart.start.toolUse {toolUseId, name}` opens a client tool call
 *   (numbered 0, 1, 2 among themselves), `delta.toolUse.input` (JSON text, in pieces) → partial
 *   tool call, `contentBlockStop` → complete tool call (`"{}"` when no input came). One still open
 *   at `messageStop` completes there, unless the message stopped for length (`max_tokens`,
 *   `model_context_window_exceeded`): it is kept incomplete. A `toolUse` of `type`
 *   `server_tool_use` (run by the server), a `toolResult`, an `image` and any block or delta
 *   member not known today are kept as `unknown` parts (`BedrockConverseBlocks`).
 * - What maps to no callback surfaces raw (the frame): `messageStart`, `contentBlockStart`,
 *   `contentBlockStop`, `messageStop`, `metadata`, citation deltas, empty text, other blocks'
 *   deltas, unknown events and message types, payloads that are not JSON objects; a delta that
 *   also holds a member no callback took surfaces raw too.
 * - `exception` and `error` messages → `onError` with a `provider` `StreamError`
 *   (`bedrockStreamError`: code = the exception type, message = the payload's `message`).
 * - The end: Bedrock sends `metadata` (usage, metrics) after `messageStop`. The response is
 *   complete once both came (`map` returns true at the second); a source that ends after
 *   `messageStop` without `metadata` still completes, without usage (the message itself was
 *   whole). A source that ends before `messageStop`, or in the middle of a frame, is truncated.
 * - Usage from `metadata.usage` (`bedrockTokenUsage`; the object kept as sent in
 *   `providerUsage`); finish reason: `stopReason` mapped by `mapBedrockStopReason` and resolved
 *   against the completed tool calls (`resolveFinishReason`), `providerFinishReason` =
 *   `stopReason` as sent; `providerMetadata` as `BedrockConverseMetadata` describes. Bedrock's
 *   stream names no response id or model: both stay null.
 */
export class BedrockConverseMapper implements StreamMapper<EventStreamFrame> {
  readonly framing = 'aws-eventstream';
  private readonly out = new MapperOutput();
  private readonly toolCalls = new ToolCallAccumulator<number>();
  private readonly blocks = new BedrockConverseBlocks();
  private readonly metadata = new BedrockConverseMetadata();
  private stopReason: string | null = null;
  private stopSeen = false;
  private metadataSeen = false;

  /** Maps one frame; returns true once `messageStop` and `metadata` both came, and after an exception. */
  map(frame: EventStreamFrame, target: MapperTarget): boolean {
    checkEventStreamFrame(frame);
    if (frame.messageType === 'exception' || frame.messageType === 'error') {
      target.handler.onError(bedrockStreamError(frame));
      return true;
    }
    if (frame.messageType !== 'event' || !frame.payload.ok || !isJsonObject(frame.payload.value)) return false;
    const event = frame.payload.value;
    switch (frame.eventType) {
      case 'messageStart':
        this.metadata.noteStart(event);
        return false;
      case 'contentBlockStart':
        if (!this.stopSeen) this.onBlockStart(event as BedrockBlockEvent & JsonObject, target);
        return false;
      case 'contentBlockDelta':
        if (!this.stopSeen) this.onBlockDelta(event as BedrockBlockEvent & JsonObject, target);
        return false;
      case 'contentBlockStop': {
        const index = blockIndex((event as BedrockBlockEvent).contentBlockIndex);
        if (index !== null && !this.stopSeen) this.onBlockStop(index, target);
        return false;
      }
      case 'messageStop':
        this.onMessageStop(event as BedrockMessageStop & JsonObject, target);
        return this.metadataSeen;
      case 'metadata':
        this.onMetadata(event as BedrockMetadataEvent & JsonObject);
        return this.stopSeen;
      default:
        return false;
    }
  }

  /** The usage and fields seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ providerMetadata: this.metadata.providerMetadata() });
  }

  /** Completes the response once `messageStop` came (with `metadata` or without), else fails it as truncated. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (truncatedFrame || !this.stopSeen) {
      this.out.truncated(target, 'messageStop', truncatedFrame);
      return;
    }
    this.out.complete(target, {
      finishReason: this.finishReason(),
      providerFinishReason: this.stopReason,
      providerMetadata: this.metadata.providerMetadata(),
    });
  }

  private finishReason(): FinishReason | null {
    return this.toolCalls.finishReason(mapBedrockStopReason(this.stopReason));
  }

  private onBlockStart(event: BedrockBlockEvent & JsonObject, target: MapperTarget): void {
    const index = blockIndex(event.contentBlockIndex);
    if (index === null || !isJsonObject(event.start)) return;
    // A second start at an open index: the earlier block is complete.
    if (this.blocks.kindAt(index) !== undefined) this.onBlockStop(index, target);
    const start = event.start;
    for (const member of Object.keys(start)) {
      const value = start[member];
      if (member === 'toolUse' && isJsonObject(value) && this.startToolCall(index, value as BedrockToolUseStart & JsonObject)) return;
      this.blocks.start(index, 'other', member, isJsonObject(value) ? value : null);
      return;
    }
  }

  /** Opens a client tool call at `index`; false when the start is no client call (a server tool, a reused index). */
  private startToolCall(index: number, toolUse: BedrockToolUseStart & JsonObject): boolean {
    if ((toolUse.type !== undefined && toolUse.type !== 'tool_use') || this.toolCalls.has(index)) return false;
    this.toolCalls.start(index, nonEmptyString(toolUse.toolUseId), nonBlankString(toolUse.name) ?? '');
    this.blocks.start(index, 'tool', 'toolUse');
    return true;
  }

  private onBlockDelta(event: BedrockBlockEvent & JsonObject, target: MapperTarget): void {
    const index = blockIndex(event.contentBlockIndex);
    const delta = event.delta;
    if (index === null || !isJsonObject(delta)) return;
    let unmapped = false;
    let mapped = false;
    for (const member in delta) {
      if (!Object.prototype.hasOwnProperty.call(delta, member)) continue;
      if (this.mapDelta(index, member, delta as BedrockBlockDelta & JsonObject, target)) mapped = true;
      else unmapped = true;
    }
    // Part of the event reached a callback, part none: the event surfaces raw as well.
    if (mapped && unmapped) target.surfaceRaw?.();
  }

  /** Maps one member of a delta; true when it reached a callback. */
  private mapDelta(index: number, member: string, delta: BedrockBlockDelta & JsonObject, target: MapperTarget): boolean {
    const kind = this.blocks.kindAt(index);
    if (kind === 'other') {
      this.blocks.keep(index, member, delta[member]);
      return false;
    }
    switch (member) {
      case 'text': {
        // Text (and reasoning) reach their callback whatever block they came in; the bridge keeps runs apart.
        if (kind === undefined) this.blocks.start(index, 'text', 'text');
        const text = nonEmptyString(delta.text);
        if (text === null) return false;
        target.handler.onPartialResponse?.(partialResponse(text), this.out.contextOf(target));
        return true;
      }
      case 'reasoningContent':
        if (kind === undefined) this.blocks.start(index, 'reasoning', 'reasoningContent');
        return isJsonObject(delta.reasoningContent) && this.mapReasoning(delta.reasoningContent, target);
      case 'toolUse': {
        if (kind === undefined && !this.toolCalls.has(index)) {
          // Input for a call that was never started: kept, nameless, so that it ends incomplete.
          this.toolCalls.start(index, null, '');
          this.blocks.start(index, 'tool', 'toolUse');
        } else if (kind !== 'tool') break;
        const input: unknown = isJsonObject(delta.toolUse) ? delta.toolUse.input : undefined;
        if (typeof input !== 'string') return false;
        const partial = this.toolCalls.append(index, input);
        this.out.toolCall(target, partial);
        return partial !== null;
      }
      case 'citation':
        if (kind === undefined) this.blocks.start(index, 'text', 'text');
        else if (kind !== 'text') break;
        this.blocks.cite(index, delta.citation);
        return false;
      default:
        break;
    }
    if (kind === undefined) this.blocks.start(index, 'other', member);
    this.blocks.keep(index, member, delta[member]);
    return false;
  }

  /** One `reasoningContent` delta; true when it reached a callback. */
  private mapReasoning(reasoning: BedrockReasoningDelta & JsonObject, target: MapperTarget): boolean {
    let mapped = false;
    const text = nonEmptyString(reasoning.text);
    if (text !== null) {
      target.handler.onPartialThinking?.(partialThinking(text), this.out.contextOf(target));
      mapped = true;
    }
    const signature = nonEmptyString(reasoning.signature);
    if (signature !== null) {
      target.handler.onPartialThinking?.(partialThinking('', payload('signature', signature)), this.out.contextOf(target));
      mapped = true;
    }
    const redacted = nonEmptyString(reasoning.redactedContent);
    if (redacted !== null) {
      target.handler.onPartialThinking?.(partialThinking('', payload('redacted_content', redacted)), this.out.contextOf(target));
      mapped = true;
    }
    return mapped;
  }

  private onBlockStop(index: number, target: MapperTarget): void {
    if (this.toolCalls.isOpen(index)) this.toolCalls.complete(index, target);
    for (const part of this.blocks.stop(index) ?? []) target.completeBlock?.(part);
  }

  private onMessageStop(event: BedrockMessageStop & JsonObject, target: MapperTarget): void {
    if (!this.stopSeen) {
      this.stopReason = nonEmptyString(event.stopReason);
      // Tool calls still open were cut off when the message stopped for length; else they complete.
      this.toolCalls.endAll(target, mapBedrockStopReason(this.stopReason));
      for (const part of this.blocks.stopAll()) target.completeBlock?.(part);
    }
    this.stopSeen = true;
    this.metadata.noteStop(event);
  }

  private onMetadata(event: BedrockMetadataEvent & JsonObject): void {
    this.metadataSeen = true;
    if (isJsonObject(event.usage)) this.out.noteUsage(bedrockTokenUsage(event.usage), event.usage);
    this.metadata.noteMetadata(event);
  }
}
