import { describeValue } from './describe-value';
import { replaceAttributes } from './factories';
import type { MessagePart, PartAttributes } from './types';
import { requirePartShape } from './validate';

const PART_INDEX_ATTRIBUTE = 'partIndex';
const PARTIAL_ATTRIBUTE = 'partial';
const MAX_INDEX = 2147483647;
const MIN_INT32 = -2147483648;
const INDEX_PATTERN = /^[+-]?[0-9]+$/;

function requireIndex(index: unknown): number {
  if (typeof index !== 'number') {
    throw new TypeError(`Expected index to be an integer in 0 … ${MAX_INDEX}, got ${describeValue(index)}`);
  }
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new RangeError(`Expected index to be an integer in 0 … ${MAX_INDEX}, got ${String(index)}`);
  }
  return index;
}

/**
 * Reads a `partIndex` attribute value: an optional sign and decimal digits within the 32-bit
 * signed range; anything else (absent, blank, `1.5`, `0x1`, out of range) is null.
 * @internal
 */
export function parsePartIndex(value: string | undefined): number | null {
  if (value === undefined || !INDEX_PATTERN.test(value)) return null;
  const parsed = Number(value);
  if (parsed < MIN_INT32 || parsed > MAX_INDEX) return null;
  return parsed === 0 ? 0 : parsed; // folds "-0" to 0
}

/**
 * Attributes of `part` with the index set and the partial flag set or removed.
 * @internal
 */
export function stampAttributes(attributes: PartAttributes, index: number, partial: boolean): PartAttributes {
  const copy: Record<string, string> = { ...attributes, [PART_INDEX_ATTRIBUTE]: String(index) };
  if (partial) copy[PARTIAL_ATTRIBUTE] = 'true';
  else delete copy[PARTIAL_ATTRIBUTE];
  return Object.freeze(copy);
}

/**
 * Attributes without the two streaming attributes; the same object when neither is present.
 * @internal
 */
export function stripAttributes(attributes: PartAttributes): PartAttributes {
  if (!Object.hasOwn(attributes, PART_INDEX_ATTRIBUTE) && !Object.hasOwn(attributes, PARTIAL_ATTRIBUTE)) {
    return attributes;
  }
  const copy: Record<string, string> = { ...attributes };
  delete copy[PART_INDEX_ATTRIBUTE];
  delete copy[PARTIAL_ATTRIBUTE];
  return Object.freeze(copy);
}

/**
 * The transport attributes that let a stream deliver a part in increments: `partIndex` (the
 * zero-based content block index, a decimal string) and `partial` (`"true"` on a delta, absent on
 * a complete part). Stamping and stripping keep every other attribute and the payload.
 */
export const StreamingParts = Object.freeze({
  /** Attribute holding the zero-based content block index of a streamed part. */
  PART_INDEX_ATTRIBUTE,
  /** Attribute set to `"true"` on a streamed part that is a delta. */
  PARTIAL_ATTRIBUTE,

  /**
   * A copy of `part` marked as a delta of the block at `index` (an integer in 0 … 2³¹−1, else a
   * `TypeError`/`RangeError`).
   */
  partial<P extends MessagePart>(part: P, index: number): P {
    requirePartShape(part, 'part');
    return replaceAttributes(part, stampAttributes(part.attributes, requireIndex(index), true));
  },

  /** A copy of `part` marked as the complete block at `index` (no partial flag). */
  complete<P extends MessagePart>(part: P, index: number): P {
    requirePartShape(part, 'part');
    return replaceAttributes(part, stampAttributes(part.attributes, requireIndex(index), false));
  },

  /** The block index of a streamed part, or null when absent or malformed. */
  partIndex(part: MessagePart): number | null {
    requirePartShape(part, 'part');
    const value = part.attributes[PART_INDEX_ATTRIBUTE];
    return parsePartIndex(typeof value === 'string' ? value : undefined);
  },

  /** Whether a streamed part is a delta: true only when `partial` is `"true"` (any case). */
  isPartial(part: MessagePart): boolean {
    requirePartShape(part, 'part');
    const value = part.attributes[PARTIAL_ATTRIBUTE];
    return typeof value === 'string' && value.toLowerCase() === 'true';
  },

  /** `part` without the streaming attributes: the same object when nothing was stamped. */
  strip<P extends MessagePart>(part: P): P {
    requirePartShape(part, 'part');
    const attributes = stripAttributes(part.attributes);
    return attributes === part.attributes ? part : replaceAttributes(part, attributes);
  },
});
