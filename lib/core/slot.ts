import { replaceAttributes } from '../parts/factories';
import { stripAttributes } from '../parts/streaming-parts';
import type { MessagePart, MessagePartType, OpaquePayload, PartAttributes, ReasoningPart, TextPart, ToolCallPart } from '../parts/types';
import { StringPieces } from './string-pieces';

/** Accumulated text deltas of a slot. */
interface TextContent {
  readonly type: 'text';
  complete: boolean;
  readonly text: StringPieces;
  payload: OpaquePayload | null;
  attributes: PartAttributes;
}

/** Accumulated reasoning deltas of a slot; text and summary stay null until a delta has one. */
interface ReasoningContent {
  readonly type: 'reasoning';
  complete: boolean;
  text: StringPieces | null;
  summary: StringPieces | null;
  payload: OpaquePayload | null;
  attributes: PartAttributes;
}

/** Any other part, kept whole: the last one received replaces the slot. */
interface WholeContent {
  readonly type: Exclude<MessagePartType, 'text' | 'reasoning'>;
  readonly complete: boolean;
  readonly part: MessagePart;
}

type SlotContent = TextContent | ReasoningContent | WholeContent;

/** Accumulated argument deltas of one tool call. */
interface ToolCallDeltas {
  id: string | null;
  type: string | null;
  name: string | null;
  arguments: StringPieces | null;
  payload: OpaquePayload | null;
  attributes: PartAttributes;
}

/** `base` with `extra`'s attributes set over it, frozen. */
function merged(base: PartAttributes, extra: PartAttributes): PartAttributes {
  return Object.freeze({ ...base, ...extra });
}

function isBlank(value: string | null): boolean {
  return value === null || value.trim() === '';
}

function appendOrStart(pieces: StringPieces | null, piece: string | null): StringPieces | null {
  if (piece === null) return pieces;
  if (pieces === null) return new StringPieces(piece);
  pieces.append(piece);
  return pieces;
}

/**
 * One content block index of one response: the part that shapes it (merged from deltas or
 * replaced by a complete part), plus any tool-call argument deltas, which do not shape it and are
 * only read when no shaping part ever arrived.
 */
export class Slot {
  private content: SlotContent | null = null;
  private toolCallDeltas: ToolCallDeltas | null = null;
  private cached: MessagePart | null = null;

  /** The type of the shaping part, or null when only tool-call deltas (or nothing) arrived. */
  get contentType(): MessagePartType | null {
    return this.content === null ? null : this.content.type;
  }

  /** Whether the shaping part is a complete part. */
  get holdsComplete(): boolean {
    return this.content !== null && this.content.complete;
  }

  /**
   * The text pieces that payload-free deltas of `type` append to, for a caller that appends to
   * them directly (the response core, on its hottest path): null unless the slot holds a part of
   * that type with text. Such appends bypass the cached part: call `invalidate` before the slot is
   * read after them.
   */
  textPieces(type: 'text' | 'reasoning'): StringPieces | null {
    const content = this.content;
    return content !== null && content.type === type ? content.text : null;
  }

  /** Drops the cached part: the next `toPart` builds it from what the slot holds now. */
  invalidate(): void {
    this.cached = null;
  }

  /**
   * Merges a shaping part: a delta of the slot's type appends (text, reasoning text and summary;
   * a non-null payload replaces); anything else replaces the slot. A complete tool call also
   * drops the call's accumulated deltas.
   */
  put(part: MessagePart, partial: boolean): void {
    this.cached = null;
    const content = this.content;
    if (partial && content !== null && content.type === part.type) {
      if (content.type === 'text') {
        const delta = part as TextPart;
        content.text.append(delta.text);
        if (delta.payload !== null) content.payload = delta.payload;
        content.attributes = delta.attributes;
        return;
      }
      if (content.type === 'reasoning') {
        const delta = part as ReasoningPart;
        content.text = appendOrStart(content.text, delta.text);
        content.summary = appendOrStart(content.summary, delta.summary);
        if (delta.payload !== null) content.payload = delta.payload;
        content.attributes = delta.attributes;
        return;
      }
    }
    const complete = !partial;
    switch (part.type) {
      case 'text':
        this.content = { type: 'text', complete, text: new StringPieces(part.text), payload: part.payload, attributes: part.attributes };
        break;
      case 'reasoning':
        this.content = {
          type: 'reasoning',
          complete,
          text: part.text === null ? null : new StringPieces(part.text),
          summary: part.summary === null ? null : new StringPieces(part.summary),
          payload: part.payload,
          attributes: part.attributes,
        };
        break;
      default:
        this.content = { type: part.type, complete, part };
        if (part.type === 'tool_call' && complete) this.toolCallDeltas = null;
    }
  }

  /**
   * Merges a tool-call argument delta: arguments append, a non-null payload replaces, id / name /
   * type come from the first delta and are overwritten only by non-blank values.
   */
  addToolCallDelta(delta: ToolCallPart): void {
    this.cached = null;
    const call = delta.toolCall;
    const acc = this.toolCallDeltas;
    if (acc === null) {
      this.toolCallDeltas = {
        id: call.id,
        type: call.type,
        name: call.name,
        arguments: call.arguments === null ? null : new StringPieces(call.arguments),
        payload: delta.payload,
        attributes: delta.attributes,
      };
      return;
    }
    if (!isBlank(call.id)) acc.id = call.id;
    if (!isBlank(call.type)) acc.type = call.type;
    if (!isBlank(call.name)) acc.name = call.name;
    acc.arguments = appendOrStart(acc.arguments, call.arguments);
    if (delta.payload !== null) acc.payload = delta.payload;
    acc.attributes = delta.attributes;
  }

  /**
   * Merges `extra` into the attributes of the slot's part (its shaping part, else its tool-call
   * deltas), over those it holds; a later part that replaces or continues the slot brings its own.
   */
  mergeAttributes(extra: PartAttributes): void {
    const content = this.content;
    if (content === null) {
      if (this.toolCallDeltas === null) return;
      this.toolCallDeltas.attributes = merged(this.toolCallDeltas.attributes, extra);
    } else if (content.type === 'text' || content.type === 'reasoning') {
      content.attributes = merged(content.attributes, extra);
    } else {
      this.content = { type: content.type, complete: content.complete, part: replaceAttributes(content.part, merged(content.part.attributes, extra)) };
    }
    this.cached = null;
  }

  /** The slot as one part without streaming attributes, or null when it holds nothing. */
  toPart(): MessagePart | null {
    if (this.cached === null) this.cached = this.build();
    return this.cached;
  }

  private build(): MessagePart | null {
    const content = this.content;
    if (content !== null) {
      switch (content.type) {
        case 'text':
          return Object.freeze({
            type: 'text',
            text: content.text.read(),
            payload: content.payload,
            attributes: stripAttributes(content.attributes),
          });
        case 'reasoning':
          return Object.freeze({
            type: 'reasoning',
            text: content.text === null ? null : content.text.read(),
            summary: content.summary === null ? null : content.summary.read(),
            payload: content.payload,
            attributes: stripAttributes(content.attributes),
          });
        default: {
          const attributes = stripAttributes(content.part.attributes);
          if (attributes === content.part.attributes) return content.part;
          const copy: MessagePart = { ...content.part, attributes };
          return Object.freeze(copy);
        }
      }
    }
    const deltas = this.toolCallDeltas;
    if (deltas === null) return null;
    return Object.freeze({
      type: 'tool_call',
      toolCall: Object.freeze({
        id: deltas.id,
        type: deltas.type,
        name: deltas.name,
        arguments: deltas.arguments === null ? null : deltas.arguments.read(),
      }),
      payload: deltas.payload,
      attributes: stripAttributes(deltas.attributes),
    });
  }
}
