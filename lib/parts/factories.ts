import { describeValue } from './describe-value';
import type { Media, MediaPart, MessagePart, PartAttributes, PartOptions, ReasoningPart, TextPart, ToolCall, ToolCallPart, ToolResultPart, UnknownPart } from './types';
import { isPlainObject, optionalString, requirePartShape, requireString, validateAttributes, validateOptions } from './validate';

/** The fields of a tool call given to `toolCallPart`; each may be omitted or null. */
export interface ToolCallInput {
  readonly id?: string | null | undefined;
  readonly type?: string | null | undefined;
  readonly name?: string | null | undefined;
  readonly arguments?: string | null | undefined;
}

/** The fields of a tool result given to `toolResultPart`; `content` defaults to `[]`, `isError` to false. */
export interface ToolResultInput {
  readonly id?: string | null | undefined;
  readonly name?: string | null | undefined;
  readonly content?: readonly MessagePart[] | undefined;
  readonly isError?: boolean | undefined;
}

/** Options of `reasoningPart`: the common part options plus the reasoning summary. */
export interface ReasoningPartOptions extends PartOptions {
  readonly summary?: string | null | undefined;
}

/** Creates a frozen text part; `text` must be a string (it may be empty). */
export function textPart(text: string, options?: PartOptions): TextPart {
  const checked = requireString(text, 'text');
  const { payload, attributes } = validateOptions(options);
  return Object.freeze({ type: 'text', text: checked, payload, attributes });
}

/** Creates a frozen reasoning part; `text` and `options.summary` are strings or null. */
export function reasoningPart(text: string | null, options?: ReasoningPartOptions): ReasoningPart {
  const checked = optionalString(text, 'text');
  const { payload, attributes } = validateOptions(options);
  const summary = optionalString(options?.summary, 'summary');
  return Object.freeze({ type: 'reasoning', text: checked, summary, payload, attributes });
}

/** Creates a frozen tool-call part (a complete call, or an argument delta while streaming). */
export function toolCallPart(toolCall: ToolCallInput, options?: PartOptions): ToolCallPart {
  if (!isPlainObject(toolCall)) {
    throw new TypeError(`Expected toolCall to be an object, got ${describeValue(toolCall)}`);
  }
  const call: ToolCall = Object.freeze({
    id: optionalString(toolCall.id, 'toolCall.id'),
    type: optionalString(toolCall.type, 'toolCall.type'),
    name: optionalString(toolCall.name, 'toolCall.name'),
    arguments: optionalString(toolCall.arguments, 'toolCall.arguments'),
  });
  const { payload, attributes } = validateOptions(options);
  return Object.freeze({ type: 'tool_call', toolCall: call, payload, attributes });
}

/** Creates a frozen tool-result part whose content is itself a list of parts. */
export function toolResultPart(result: ToolResultInput, options?: PartOptions): ToolResultPart {
  if (!isPlainObject(result)) {
    throw new TypeError(`Expected result to be an object, got ${describeValue(result)}`);
  }
  const id = optionalString(result.id, 'result.id');
  const name = optionalString(result.name, 'result.name');
  const rawContent = result.content === undefined ? [] : result.content;
  if (!Array.isArray(rawContent)) {
    throw new TypeError(`Expected result.content to be an array of parts, got ${describeValue(rawContent)}`);
  }
  const content = Object.freeze(rawContent.map((part, i) => requirePartShape(part, `result.content[${i}]`)));
  const isError = result.isError === undefined ? false : result.isError;
  if (typeof isError !== 'boolean') {
    throw new TypeError(`Expected result.isError to be a boolean, got ${describeValue(isError)}`);
  }
  const { payload, attributes } = validateOptions(options);
  return Object.freeze({ type: 'tool_result', id, name, content, isError, payload, attributes });
}

/** Creates a frozen media part; bytes are copied so the part cannot change under its owner. */
export function mediaPart(media: Media, options?: PartOptions): MediaPart {
  const { payload, attributes } = validateOptions(options);
  return Object.freeze({ type: 'media', media: validateMedia(media, 'media'), payload, attributes });
}

/** Creates a frozen unknown part: anything partstream does not model, kept verbatim as JSON text. */
export function unknownPart(provider: string, kind: string, rawJson: string, options?: PartOptions): UnknownPart {
  const { payload, attributes } = validateOptions(options);
  return Object.freeze({
    type: 'unknown',
    provider: requireString(provider, 'provider'),
    kind: requireString(kind, 'kind'),
    rawJson: requireString(rawJson, 'rawJson'),
    payload,
    attributes,
  });
}

/** Returns a frozen copy of `part` whose attributes are replaced by (a copy of) `attributes`. */
export function withAttributes<P extends MessagePart>(part: P, attributes: Record<string, string>): P {
  requirePartShape(part, 'part');
  return replaceAttributes(part, validateAttributes(attributes));
}

/**
 * Copies `part` with already-validated, frozen attributes; no other check.
 * @internal
 */
export function replaceAttributes<P extends MessagePart>(part: P, attributes: PartAttributes): P {
  const copy: P = { ...part, attributes };
  return Object.freeze(copy);
}

const MEDIA_KINDS: ReadonlySet<string> = new Set(['bytes', 'string', 'url']);

/** Validates a media description and returns a frozen copy. */
function validateMedia(media: unknown, field: string): Media {
  if (!isPlainObject(media)) throw new TypeError(`Expected ${field} to be an object, got ${describeValue(media)}`);
  const id = optionalString(media.id, `${field}.id`);
  const name = optionalString(media.name, `${field}.name`);
  const mimeType = requireString(media.mimeType, `${field}.mimeType`);
  const dataKind = media.dataKind;
  if (typeof dataKind !== 'string' || !MEDIA_KINDS.has(dataKind)) {
    throw new TypeError(`Expected ${field}.dataKind to be 'bytes', 'string' or 'url', got ${describeValue(dataKind)}`);
  }
  if (dataKind === 'bytes') {
    if (!(media.data instanceof Uint8Array)) {
      throw new TypeError(`Expected ${field}.data to be a Uint8Array, got ${describeValue(media.data)}`);
    }
    return Object.freeze({ id, mimeType, name, dataKind, data: new Uint8Array(media.data) });
  }
  const data = requireString(media.data, `${field}.data`);
  return Object.freeze({ id, mimeType, name, dataKind: dataKind as 'string' | 'url', data });
}
