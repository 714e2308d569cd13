import { textPart, unknownPart } from '../../parts/factories';
import type { MessagePart } from '../../parts/types';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';

/** The payload provider and unknown-part provider of Bedrock's data. */
export const BEDROCK_PROVIDER = 'bedrock';

/** What an open content block is, as far as its part needs it. */
export type BlockKind = 'text' | 'reasoning' | 'tool' | 'other';

/** One open content block. */
interface OpenBlock {
  readonly kind: BlockKind;
  /** `other`: the member of Bedrock's `ContentBlock` union it is (`toolUse`, `toolResult`, `image`, an unknown one). */
  readonly member: string;
  /** `other`: the start member's object (`start.toolResult` …), else null. */
  readonly start: JsonObject | null;
  /** `other`: its deltas' member values, in order. `text`: the citations. */
  values: unknown[] | null;
  /** Deltas of members the block's kind does not carry, by member (each becomes its own unknown part). */
  extras: Map<string, unknown[]> | null;
}

/**
 * The content blocks of one Converse message, by `contentBlockIndex`, as far as the final message
 * needs them beyond the callbacks (SPEC §10, §15; one block = one part):
 * - where a text, reasoning or tool-call block ends; a text block's citations (payload
 *   `bedrock`/`citations`, the list of `citation` deltas as JSON) ride on its part;
 * - every block no callback models — a `toolResult`, a server tool's `toolUse` (`type:
 *   server_tool_use`), an `image`, any member not known today — rebuilt as Bedrock would take it
 *   back in a message's `content`: `{"<member>": {…start, …deltas}}` (see `rebuild`), an
 *   `unknown` part of kind `<member>` when it stops;
 * - a delta of a member the block's kind does not carry becomes, when the block stops, an
 *   `unknown` part of its own after the block's part (kind = the member), so nothing is lost.
 *
 * Text and reasoning deltas cost one map lookup (none while the same block streams); the rest
 * (citations, other blocks) is rare.
 */
export class BedrockConverseBlocks {
  private readonly open = new Map<number, OpenBlock>();
  /** The block the last lookup found, so that a run of deltas to one block looks it up once. */
  private lastIndex = -1;
  private lastBlock: OpenBlock | undefined = undefined;

  /** The kind of the open block at `index`, or undefined when none is open there. */
  kindAt(index: number): BlockKind | undefined {
    return this.find(index)?.kind;
  }

  /** Opens a block at `index` (the caller stops one that is open there first). `start` is the start member's object for an `other` block. */
  start(index: number, kind: BlockKind, member: string, start: JsonObject | null = null): void {
    const block: OpenBlock = { kind, member, start, values: null, extras: null };
    this.open.set(index, block);
    this.lastIndex = index;
    this.lastBlock = block;
  }

  /** A citation delta of the text block at `index`. */
  cite(index: number, citation: unknown): void {
    const block = this.find(index);
    if (block !== undefined) (block.values ??= []).push(citation);
  }

  /** A delta's member value for the `other` block at `index`, or an extra of any other block. */
  keep(index: number, member: string, value: unknown): void {
    const block = this.find(index);
    if (block === undefined) return;
    if (block.kind === 'other') {
      (block.values ??= []).push(value);
      return;
    }
    block.extras ??= new Map();
    const values = block.extras.get(member);
    if (values === undefined) block.extras.set(member, [value]);
    else values.push(value);
  }

  /**
   * A `contentBlockStop`: the parts that complete the block, in order — first what completes its
   * own part (null for a text block without citations, a reasoning or tool block; a text part
   * carrying the citations; the unknown part of an `other` block), then one unknown part per
   * extra member. Undefined when no block is open at `index`.
   */
  stop(index: number): Array<MessagePart | null> | undefined {
    const block = this.find(index);
    if (block === undefined) return undefined;
    this.open.delete(index);
    this.lastIndex = -1;
    this.lastBlock = undefined;
    const parts: Array<MessagePart | null> = [ownPart(block)];
    for (const [member, values] of block.extras ?? []) parts.push(unknownPart(BEDROCK_PROVIDER, member, wrap(member, merge(null, values))));
    return parts;
  }

  /** Stops every block still open (at `messageStop`), in the order they started. */
  stopAll(): Array<MessagePart | null> {
    return [...this.open.keys()].flatMap((index) => this.stop(index) ?? []);
  }

  private find(index: number): OpenBlock | undefined {
    if (index === this.lastIndex) return this.lastBlock;
    const block = this.open.get(index);
    if (block !== undefined) {
      this.lastIndex = index;
      this.lastBlock = block;
    }
    return block;
  }
}

function ownPart(block: OpenBlock): MessagePart | null {
  switch (block.kind) {
    case 'text':
      return block.values === null ? null : textPart('', { payload: { provider: BEDROCK_PROVIDER, kind: 'citations', data: stringifyJson(block.values) ?? '[]' } });
    case 'reasoning':
    case 'tool':
      return null;
    case 'other':
      return unknownPart(BEDROCK_PROVIDER, block.member, wrap(block.member, rebuild(block)));
    default:
      return unreachable(block.kind);
  }
}

/** `{"<member>": value}` as JSON, the member an own key whatever its name. */
function wrap(member: string, value: unknown): string {
  const whole: Record<string, unknown> = {};
  Object.defineProperty(whole, member, { value, enumerable: true, writable: true, configurable: true });
  return stringifyJson(whole) ?? '{}';
}

/**
 * An `other` block's member value: its start merged with its deltas (`merge`); a `toolUse`'s
 * streamed `input` text is read back into the object Bedrock takes (kept as the text when it is
 * not a JSON object: the model cut it short).
 */
function rebuild(block: OpenBlock): unknown {
  const value = merge(block.start, block.values ?? []);
  if (block.member === 'toolUse' && isJsonObject(value) && typeof value.input === 'string') {
    return withField(value, 'input', parseObjectOr(value.input));
  }
  return value;
}

/**
 * Deltas merged onto a start object: a list delta is appended to `content` (a `toolResult`
 * streams its content blocks as lists), an object delta's string fields are appended to the field
 * of the same name and its other fields replace it, a string delta is appended to `text`. With no
 * start, one delta is the value itself and strings or lists are joined. Keys are own keys whatever
 * their name (`__proto__` included); linear in what the deltas hold.
 */
function merge(start: JsonObject | null, deltas: readonly unknown[]): unknown {
  if (start === null) {
    if (deltas.length === 1) return deltas[0];
    if (deltas.every((delta) => typeof delta === 'string')) return deltas.join('');
    if (deltas.every(Array.isArray)) return (deltas as unknown[][]).flat(1);
  }
  const whole: Record<string, unknown> = { ...start };
  const strings = new Map<string, string[]>();
  const lists = new Map<string, unknown[]>();
  const own = (key: string): unknown => (Object.prototype.hasOwnProperty.call(whole, key) ? whole[key] : undefined);
  // A key first seen in a delta takes its place in the object then (filled in at the end), so keys keep the order they came in.
  const appendString = (key: string, piece: string): void => {
    const pieces = strings.get(key);
    if (pieces !== undefined) {
      pieces.push(piece);
      return;
    }
    const before = own(key);
    strings.set(key, [typeof before === 'string' ? before : '', piece]);
    if (before === undefined) defineOwn(whole, key, null);
  };
  const appendList = (key: string, items: readonly unknown[]): void => {
    const list = lists.get(key);
    if (list !== undefined) {
      for (const item of items) list.push(item);
      return;
    }
    const before = own(key);
    lists.set(key, [...(Array.isArray(before) ? (before as unknown[]) : []), ...items]);
    if (before === undefined) defineOwn(whole, key, null);
  };
  for (const delta of deltas) {
    if (typeof delta === 'string') appendString('text', delta);
    else if (Array.isArray(delta)) appendList('content', delta);
    else if (isJsonObject(delta)) {
      for (const key of Object.keys(delta)) {
        const value = delta[key];
        if (typeof value === 'string') appendString(key, value);
        else {
          strings.delete(key);
          lists.delete(key);
          defineOwn(whole, key, value);
        }
      }
    }
  }
  for (const [key, pieces] of strings) defineOwn(whole, key, pieces.join(''));
  for (const [key, list] of lists) defineOwn(whole, key, list);
  return whole;
}

function withField(object: JsonObject, key: string, value: unknown): JsonObject {
  const copy: Record<string, unknown> = { ...object };
  defineOwn(copy, key, value);
  return copy;
}

function defineOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseObjectOr(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : text;
  } catch {
    return text;
  }
}

function unreachable(value: never): never {
  throw new TypeError(`Expected a block kind, got ${String(value)}`);
}
