import type { FinishReason, TokenUsage } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { parsePartIndex, StreamingParts } from '../parts/streaming-parts';
import type { MessagePart, ToolCallPart } from '../parts/types';
import { isPlainObject, optionalString } from '../parts/validate';
import { Slot } from './slot';
import { UnindexedParts } from './unindexed-parts';
import { UsageAccumulator } from './usage-accumulator';
import { checkFinishReason, checkPart, checkUsage } from './validate-input';

/** One streamed chunk of a response, as the aggregator reads it. */
export interface AggregationChunk {
  readonly id?: string | null | undefined;
  readonly modelName?: string | null | undefined;
  readonly parts: readonly MessagePart[];
  readonly usage?: TokenUsage | null | undefined;
  readonly finishReason?: FinishReason | null | undefined;
}

/** The aggregated message: ordered parts without streaming attributes, plus the metadata. */
export interface AggregatedMessage {
  id: string | null;
  modelName: string | null;
  parts: MessagePart[];
  usage: TokenUsage | null;
  finishReason: FinishReason | null;
}

/** The metadata a chunk may carry besides its parts. */
export interface AggregationMetadata {
  readonly id?: string | null | undefined;
  readonly modelName?: string | null | undefined;
  readonly usage?: TokenUsage | null | undefined;
  readonly finishReason?: FinishReason | null | undefined;
}

/** The indexed parts of one response id (or of a run of chunks without one). */
interface Group {
  readonly id: string | null;
  readonly slots: Map<number, Slot>;
  /** Highest index of a shaping part (tool-call deltas do not count); -1 when none. */
  highest: number;
}

const PART_INDEX = StreamingParts.PART_INDEX_ATTRIBUTE;
const PARTIAL = StreamingParts.PARTIAL_ATTRIBUTE;

/** Field names for error messages, built once rather than per chunk. */
const FIELD_NAMES = {
  chunk: { id: 'chunk.id', modelName: 'chunk.modelName', usage: 'chunk.usage', finishReason: 'chunk.finishReason' },
  meta: { id: 'meta.id', modelName: 'meta.modelName', usage: 'meta.usage', finishReason: 'meta.finishReason' },
} as const;

function nonBlank(value: string | null): string | null {
  return value !== null && value.trim() !== '' ? value : null;
}

/**
 * Rebuilds one message from streamed chunks. Parts stamped with a stream index (see
 * `StreamingParts`) merge per index: deltas append, a complete part replaces the slot. Indexed
 * parts are grouped by response id, groups in first-seen order and parts ordered by index within
 * a group; without an id a new group starts when the index goes backwards or a slot receives a
 * part it cannot continue. Unindexed parts are aggregated the legacy way. Usage keeps the last
 * positive value per field; id, model name and finish reason the last non-blank value.
 *
 * Stateful and incremental: `add` each chunk, ask for `result()` at any time. Each slot merges
 * exactly as the slots of the response core behind `PartsBridge` do (one `Slot` type).
 */
export class MessageAggregator {
  private readonly groups: Group[] = [];
  /** Made at the first grouped part (most streams have none). */
  private groupsById: Map<string, Group> | null = null;
  private readonly unindexed = new UnindexedParts();
  private readonly usage = new UsageAccumulator();
  private id: string | null = null;
  private modelName: string | null = null;
  private finishReason: FinishReason | null = null;
  /** The slot the last indexed part went to, with its response id and index. */
  private lastKey: string | null = null;
  private lastIndex = -1;
  private lastSlot: Slot | null = null;

  /**
   * Adds one chunk. The chunk is checked whole before anything is merged, so a bad chunk throws a
   * `TypeError` naming the field (`chunk.parts[1].text`) and leaves the aggregate untouched. A
   * part whose index attribute is malformed (or negative) is aggregated as unindexed.
   */
  add(chunk: AggregationChunk): void {
    if (!isPlainObject(chunk)) throw new TypeError(`Expected chunk to be an object, got ${describeValue(chunk)}`);
    const parts: unknown = chunk.parts;
    if (!Array.isArray(parts)) {
      throw new TypeError(`Expected chunk.parts to be an array of parts, got ${describeValue(parts)}`);
    }
    for (let i = 0; i < parts.length; i++) checkPart(parts[i], 'chunk.parts', i);
    const meta = this.checkMetadata(chunk, 'chunk');
    const key = nonBlank(meta.id);
    for (const part of parts as readonly MessagePart[]) {
      const attributes: Readonly<Record<string, unknown>> = part.attributes;
      const rawIndex = attributes[PART_INDEX];
      const index = typeof rawIndex === 'string' ? parsePartIndex(rawIndex) : null;
      const flag = attributes[PARTIAL];
      const partial = typeof flag === 'string' && flag.toLowerCase() === 'true';
      this.addPart(key, part, index === null ? -1 : index, partial);
    }
    this.applyMetadata(meta);
  }

  /**
   * The message aggregated so far: indexed slots (groups in first-seen order, slots by index),
   * then carried unindexed parts, then the unindexed text, then the unindexed tool calls. May be
   * called at any time; it does not end the aggregation.
   */
  result(): AggregatedMessage {
    const parts: MessagePart[] = [];
    for (const group of this.groups) {
      const indexes = [...group.slots.keys()].sort((a, b) => a - b);
      for (const index of indexes) {
        const part = (group.slots.get(index) as Slot).toPart();
        if (part !== null) parts.push(part);
      }
    }
    for (const part of this.unindexed.carriedParts()) parts.push(part);
    const text = this.unindexed.textPart(this.groups.length === 0);
    if (text !== null) parts.push(text);
    for (const part of this.unindexed.toolCallParts()) parts.push(part);
    return {
      id: this.id,
      modelName: this.modelName,
      parts,
      usage: this.usage.result(),
      finishReason: this.finishReason,
    };
  }

  /**
   * Passes `chunks` through unchanged while adding each one, and hands the aggregate to
   * `onComplete` once the source ends (not when it fails or the consumer stops early).
   */
  aggregate(chunks: AsyncIterable<AggregationChunk>, onComplete: (result: AggregatedMessage) => void): AsyncIterable<AggregationChunk> {
    if (chunks === null || typeof chunks !== 'object' || typeof chunks[Symbol.asyncIterator] !== 'function') {
      throw new TypeError(`Expected chunks to be an AsyncIterable, got ${describeValue(chunks)}`);
    }
    if (typeof onComplete !== 'function') {
      throw new TypeError(`Expected onComplete to be a function, got ${describeValue(onComplete)}`);
    }
    return this.passThrough(chunks, onComplete);
  }

  private async *passThrough(chunks: AsyncIterable<AggregationChunk>, onComplete: (result: AggregatedMessage) => void): AsyncGenerator<AggregationChunk, void, undefined> {
    for await (const chunk of chunks) {
      this.add(chunk);
      yield chunk;
    }
    onComplete(this.result());
  }

  private addPart(key: string | null, part: MessagePart, index: number, partial: boolean): void {
    if (index < 0) {
      this.unindexed.add(part);
      return;
    }
    const toolCallDelta = partial && part.type === 'tool_call';
    // The next delta of a run almost always goes to the slot the previous part went to: reuse it
    // without the two map lookups (only with a response id; without one, grouping is decided anew).
    if (key !== null && key === this.lastKey && index === this.lastIndex && !toolCallDelta) {
      (this.lastSlot as Slot).put(part, partial);
      return;
    }
    const group = key !== null ? this.groupById(key) : this.groupWithoutId(part, index, toolCallDelta);
    let slot = group.slots.get(index);
    if (slot === undefined) {
      slot = new Slot();
      group.slots.set(index, slot);
    }
    if (toolCallDelta) {
      slot.addToolCallDelta(part as ToolCallPart);
      return;
    }
    slot.put(part, partial);
    if (index > group.highest) group.highest = index;
    this.lastKey = key;
    this.lastIndex = index;
    this.lastSlot = slot;
  }

  private groupById(id: string): Group {
    let groups = this.groupsById;
    if (groups === null) {
      groups = new Map();
      this.groupsById = groups;
    }
    let group = groups.get(id);
    if (group === undefined) {
      group = this.openGroup(id);
      groups.set(id, group);
    }
    return group;
  }

  /**
   * The no-id heuristics: continue the last group unless it has an id, the index goes below its
   * highest index, or the slot already holds a complete part or a part of another type. Tool-call
   * deltas never split a group: they join the last group when it has no id, and open one only
   * when there is no id-less group to join (so that nothing is lost).
   */
  private groupWithoutId(part: MessagePart, index: number, toolCallDelta: boolean): Group {
    const last = this.groups.length === 0 ? undefined : this.groups[this.groups.length - 1];
    if (last === undefined || last.id !== null) return this.openGroup(null);
    if (toolCallDelta) return last;
    if (index < last.highest) return this.openGroup(null);
    const slot = last.slots.get(index);
    if (slot !== undefined && (slot.holdsComplete || (slot.contentType !== null && slot.contentType !== part.type))) {
      return this.openGroup(null);
    }
    return last;
  }

  private openGroup(id: string | null): Group {
    const group: Group = { id, slots: new Map(), highest: -1 };
    this.groups.push(group);
    return group;
  }

  private checkMetadata(
    meta: AggregationMetadata,
    field: 'chunk' | 'meta',
  ): {
    id: string | null;
    modelName: string | null;
    usage: TokenUsage | null;
    finishReason: FinishReason | null;
  } {
    const names = FIELD_NAMES[field];
    return {
      id: optionalString(meta.id, names.id),
      modelName: optionalString(meta.modelName, names.modelName),
      usage: checkUsage(meta.usage, names.usage),
      finishReason: checkFinishReason(meta.finishReason, names.finishReason),
    };
  }

  private applyMetadata(meta: { id: string | null; modelName: string | null; usage: TokenUsage | null; finishReason: FinishReason | null }): void {
    const id = nonBlank(meta.id);
    if (id !== null) this.id = id;
    const modelName = nonBlank(meta.modelName);
    if (modelName !== null) this.modelName = modelName;
    if (meta.usage !== null) this.usage.add(meta.usage);
    if (meta.finishReason !== null) this.finishReason = meta.finishReason;
  }
}
