import { textPart, unknownPart } from '../../parts/factories';
import type { MessagePart } from '../../parts/types';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';

const PROVIDER = 'anthropic';

/** A text block: its citations, from the start block and its `citations_delta` events. */
interface TextBlock {
  readonly kind: 'text';
  citations: unknown[] | null;
}

/** A thinking or redacted_thinking block: its content went through the partial callbacks. */
interface ThinkingBlock {
  readonly kind: 'thinking';
}

/** A block no callback models, rebuilt from its start and its deltas. */
interface OtherBlock {
  readonly kind: 'other';
  readonly type: string;
  readonly start: JsonObject;
  /** The `partial_json` of its `input_json_delta` events (server_tool_use, mcp_tool_use …). */
  input: string[] | null;
  citations: unknown[] | null;
  /** Other deltas' string fields, appended per field name (e.g. `compaction_delta.content`). */
  strings: Map<string, string[]> | null;
}

type OpenBlock = TextBlock | ThinkingBlock | OtherBlock;

/** Content block types whose content the partial callbacks carry (tool_use: the tool-call path). */
const CALLBACK_BLOCKS: ReadonlySet<string> = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

function append<T>(list: T[] | null, value: T): T[] {
  if (list === null) return [value];
  list.push(value);
  return list;
}

/**
 * The content blocks of one Anthropic message, by index, as far as the final message needs them
 * beyond the callbacks: where a text or thinking block ends (each block is its own part), a text
 * block's citations (payload `anthropic`/`citations`, the block's `citations` list as JSON), and
 * every block no callback models (`server_tool_use`, `web_search_tool_result`, `mcp_tool_use`,
 * any type not known today), rebuilt as the provider would accept it back: the start block, its
 * `input` assembled from the `input_json_delta` events, `citations_delta` citations appended to
 * `citations`, and the string fields of any other delta appended to the field of the same name.
 * Such a block becomes an `unknown` part (kind = its type, rawJson = the block) when it stops.
 *
 * Per-delta work happens only for citations and unmodelled blocks, never for text or thinking.
 */
export class AnthropicBlocks {
  private readonly open = new Map<number, OpenBlock>();
  /** How many open blocks no callback models: while none is, a text delta costs no lookup. */
  private unmodelled = 0;

  /** True when a block at `index` has started and not stopped. */
  isOpen(index: number): boolean {
    return this.open.has(index);
  }

  /** True when the open block at `index` is one no callback models (its deltas belong to it). */
  isUnmodelled(index: number): boolean {
    return this.unmodelled > 0 && this.open.get(index)?.kind === 'other';
  }

  /** A `content_block_start`. `block` is its `content_block` (type checked by the caller). */
  start(index: number, type: string, block: JsonObject): void {
    switch (type) {
      case 'text':
        this.open.set(index, { kind: 'text', citations: Array.isArray(block.citations) && block.citations.length > 0 ? [...(block.citations as unknown[])] : null });
        return;
      case 'thinking':
      case 'redacted_thinking':
        this.open.set(index, { kind: 'thinking' });
        return;
      default:
        if (CALLBACK_BLOCKS.has(type)) return;
        this.open.set(index, { kind: 'other', type, start: block, input: null, citations: null, strings: null });
        this.unmodelled++;
    }
  }

  /**
   * A `content_block_delta` the callbacks do not carry: citations of a text block, any delta of
   * an unmodelled block. Deltas of other blocks are ignored.
   */
  delta(index: number, type: unknown, delta: JsonObject): void {
    const block = this.open.get(index);
    if (block === undefined || block.kind === 'thinking') return;
    if (type === 'citations_delta') {
      if (delta.citation !== undefined) block.citations = append(block.citations, delta.citation);
      return;
    }
    if (block.kind !== 'other') return;
    if (type === 'input_json_delta') {
      if (typeof delta.partial_json === 'string') block.input = append(block.input, delta.partial_json);
      return;
    }
    for (const key of Object.keys(delta)) {
      const value = delta[key];
      if (key === 'type' || typeof value !== 'string') continue;
      block.strings ??= new Map();
      const pieces = block.strings.get(key);
      if (pieces === undefined) block.strings.set(key, [value]);
      else pieces.push(value);
    }
  }

  /**
   * A `content_block_stop`: what completes the block's part (`null` for a text block without
   * citations or a thinking block, a text part carrying the citations, the unknown part of an
   * unmodelled block), or undefined when no such block is open at `index`.
   */
  stop(index: number): MessagePart | null | undefined {
    const block = this.open.get(index);
    if (block === undefined) return undefined;
    this.open.delete(index);
    switch (block.kind) {
      case 'thinking':
        return null;
      case 'text':
        return block.citations === null ? null : textPart('', { payload: { provider: PROVIDER, kind: 'citations', data: stringifyJson(block.citations) ?? '[]' } });
      default:
        this.unmodelled--;
        return unknownPart(PROVIDER, block.type, rebuild(block));
    }
  }

  /** Stops every block still open (at `message_stop`), in the order they started. */
  stopAll(): Array<MessagePart | null> {
    return [...this.open.keys()].map((index) => this.stop(index) as MessagePart | null);
  }
}

/** The block as JSON: its start with the streamed input, citations and strings put in. */
function rebuild(block: OtherBlock): string {
  // Spread defines own keys, so a `__proto__` key stays a plain own key, as JSON.parse made it.
  const whole: Record<string, unknown> = { ...block.start };
  if (block.input !== null) {
    const text = block.input.join('');
    // Empty deltas leave the start's input; JSON the model cut short is kept as the text it sent.
    if (text.trim() !== '') whole.input = parseOr(text);
  }
  if (block.citations !== null) whole.citations = [...(Array.isArray(whole.citations) ? (whole.citations as unknown[]) : []), ...block.citations];
  if (block.strings !== null) {
    for (const [key, pieces] of block.strings) {
      const before = Object.prototype.hasOwnProperty.call(whole, key) ? whole[key] : undefined;
      Object.defineProperty(whole, key, { value: (typeof before === 'string' ? before : '') + pieces.join(''), enumerable: true, writable: true, configurable: true });
    }
  }
  return stringifyJson(whole) ?? '{}';
}

function parseOr(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : text;
  } catch {
    return text;
  }
}
