import { stripAttributes } from '../parts/streaming-parts';
import type { MessagePart, OpaquePayload, PartAttributes, TextPart } from '../parts/types';
import { StringPieces } from './string-pieces';

function strip(part: MessagePart): MessagePart {
  const attributes = stripAttributes(part.attributes);
  if (attributes === part.attributes) return part;
  const copy: MessagePart = { ...part, attributes };
  return Object.freeze(copy);
}

/**
 * Parts that carry no stream index, aggregated the pre-streaming way: text concatenated into one
 * text part, tool calls appended, reasoning / unknown / tool results carried in arrival order,
 * media dropped.
 */
export class UnindexedParts {
  private text: StringPieces | null = null;
  private textPayload: OpaquePayload | null = null;
  private textAttributes: PartAttributes = Object.freeze({});
  private readonly carried: MessagePart[] = [];
  private readonly toolCalls: MessagePart[] = [];

  /** Takes one unindexed part. */
  add(part: MessagePart): void {
    switch (part.type) {
      case 'text':
        if (this.text === null) this.text = new StringPieces(part.text);
        else this.text.append(part.text);
        if (part.payload !== null) this.textPayload = part.payload;
        this.textAttributes = part.attributes;
        break;
      case 'tool_call':
        this.toolCalls.push(part);
        break;
      case 'media':
        break;
      default:
        this.carried.push(part);
    }
  }

  /** The carried parts (reasoning, unknown, tool results), streaming attributes stripped. */
  carriedParts(): MessagePart[] {
    return this.carried.map(strip);
  }

  /**
   * The concatenated text part: present when the text is non-empty, or when `nothingIndexed` and
   * some unindexed text part arrived; else null.
   */
  textPart(nothingIndexed: boolean): TextPart | null {
    if (this.text === null) return null;
    const text = this.text.read();
    if (text === '' && !nothingIndexed) return null;
    return Object.freeze({ type: 'text', text, payload: this.textPayload, attributes: stripAttributes(this.textAttributes) });
  }

  /** The unindexed tool calls in arrival order, streaming attributes stripped. */
  toolCallParts(): MessagePart[] {
    return this.toolCalls.map(strip);
  }
}
