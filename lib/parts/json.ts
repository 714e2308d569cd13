import { base64ToBytes, bytesToBase64 } from './base64';
import { describeValue } from './describe-value';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart } from './factories';
import type { JsonObject } from './json-object';
import type { Media, MessagePart, OpaquePayload, PartOptions } from './types';
import { stringifyJson } from './stringify-json';
import { isPlainObject, requirePartShape } from './validate';

/** A part as plain JSON data (media bytes as base64). */
export type PartJSON = Record<string, unknown>;

/**
 * How deep tool results may hold tool results in their content, for the JSON forms: the
 * conversion recurses once per level, and a hostile value must meet a clear error, never a stack
 * overflow (SPEC §11). Real content holds text and media; a tool result inside one is already rare.
 */
const MAX_TOOL_RESULT_NESTING = 100;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function payloadToJSON(payload: OpaquePayload | null): PartJSON | null {
  return payload === null ? null : { provider: payload.provider, kind: payload.kind, data: payload.data };
}

function mediaToJSON(media: Media): PartJSON {
  const data = media.dataKind === 'bytes' ? bytesToBase64(media.data) : media.data;
  return { id: media.id, mimeType: media.mimeType, name: media.name, dataKind: media.dataKind, data };
}

/**
 * The JSON form of a part: its `type`, its fields, `payload` and `attributes`, with media bytes
 * as base64 and tool-result content converted recursively. Tool results nested more than
 * 100 deep are a `TypeError`.
 */
export function partToJSON(part: MessagePart): PartJSON {
  return nestedPartToJSON(part, 0);
}

function nestedPartToJSON(part: MessagePart, nesting: number): PartJSON {
  requirePartShape(part, 'part');
  const common = { payload: payloadToJSON(part.payload), attributes: { ...part.attributes } };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...common };
    case 'reasoning':
      return { type: 'reasoning', text: part.text, summary: part.summary, ...common };
    case 'tool_call':
      return { type: 'tool_call', toolCall: { ...part.toolCall }, ...common };
    case 'tool_result':
      return {
        type: 'tool_result',
        id: part.id,
        name: part.name,
        content: part.content.map((item) => {
          if (nesting >= MAX_TOOL_RESULT_NESTING) {
            throw new TypeError(`Expected tool results nested at most ${MAX_TOOL_RESULT_NESTING} deep in a part's content, got one nested deeper`);
          }
          return nestedPartToJSON(item, nesting + 1);
        }),
        isError: part.isError,
        ...common,
      };
    case 'media':
      return { type: 'media', media: mediaToJSON(part.media), ...common };
    case 'unknown':
      return { type: 'unknown', provider: part.provider, kind: part.kind, rawJson: part.rawJson, ...common };
    default: {
      const unreachable: never = part;
      throw new TypeError(`Expected a message part, got ${describeValue(unreachable)}`);
    }
  }
}

/** The JSON forms of a list of parts. */
export function partsToJSON(parts: readonly MessagePart[]): PartJSON[] {
  if (!Array.isArray(parts)) throw new TypeError(`Expected parts to be an array, got ${describeValue(parts)}`);
  return parts.map((part, i) => partToJSON(requirePartShape(part, `parts[${i}]`)));
}

function optionsFromJSON(json: JsonObject): PartOptions {
  return {
    payload: json.payload as OpaquePayload | null | undefined,
    attributes: json.attributes as Record<string, string> | undefined,
  };
}

function mediaFromJSON(value: unknown): Media {
  if (!isPlainObject(value)) throw new TypeError(`Expected media to be an object, got ${describeValue(value)}`);
  if (value.dataKind !== 'bytes') return value as unknown as Media;
  if (typeof value.data !== 'string' || !BASE64.test(value.data)) {
    throw new TypeError(`Expected media.data to be base64 text, got ${describeValue(value.data)}`);
  }
  return { ...(value as unknown as Media), data: base64ToBytes(value.data) } as Media;
}

/** Reads a known type with the factories' validation; throws when a field is invalid. */
function readKnown(json: JsonObject, nesting: number): MessagePart | null {
  const options = optionsFromJSON(json);
  switch (json.type) {
    case 'text':
      return textPart(json.text as string, options);
    case 'reasoning':
      return reasoningPart(json.text as string | null, { ...options, summary: json.summary as string | null });
    case 'tool_call':
      return toolCallPart(json.toolCall as Parameters<typeof toolCallPart>[0], options);
    case 'tool_result': {
      const content = json.content === undefined ? [] : json.content;
      if (!Array.isArray(content) || !content.every(isPlainObject)) {
        throw new TypeError(`Expected content to be an array of objects, got ${describeValue(content)}`);
      }
      // Deeper than that, the tool result reads back as an unknown part holding its JSON (below).
      if (nesting >= MAX_TOOL_RESULT_NESTING) throw new TypeError(`Expected tool results nested at most ${MAX_TOOL_RESULT_NESTING} deep`);
      return toolResultPart(
        {
          id: json.id as string | null,
          name: json.name as string | null,
          content: content.map((item) => readPart(item, nesting + 1)),
          isError: json.isError as boolean | undefined,
        },
        options,
      );
    }
    case 'media':
      return mediaPart(mediaFromJSON(json.media), options);
    case 'unknown':
      return unknownPart(json.provider as string, json.kind as string, json.rawJson as string, options);
    default:
      return null;
  }
}

/**
 * Reads a part from its JSON form. An object whose `type` is unknown or missing, or whose fields
 * are invalid for its type, reads back as an `unknown` part (provider `"partstream"`, kind = its
 * type or `"unknown"`, `rawJson` = the whole object, at any depth), so nothing is lost — a tool
 * result nested more than 100 deep in tool results too; only a value that
 * is not an object (or holds a cycle or a BigInt) is rejected with a `TypeError`.
 */
export function partFromJSON(json: unknown): MessagePart {
  return readPart(json, 0);
}

function readPart(json: unknown, nesting: number): MessagePart {
  if (!isPlainObject(json)) throw new TypeError(`Expected json to be an object, got ${describeValue(json)}`);
  try {
    const known = readKnown(json, nesting);
    if (known !== null) return known;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  let rawJson: string;
  try {
    // Any depth: an unknown object may nest deeper than JSON.stringify can recurse (SPEC §11).
    rawJson = stringifyJson(json) as string;
  } catch (error) {
    // eslint-disable-next-line preserve-caught-error -- misuse is a TypeError naming what was wrong in its message, as the other checks here
    throw new TypeError(`Expected json to be JSON-serialisable, got an object that is not (${(error as Error).message})`);
  }
  const kind = typeof json.type === 'string' ? json.type : 'unknown';
  return unknownPart('partstream', kind, rawJson);
}

/** Reads a list of parts; the list must be an array of objects (each read as `partFromJSON`). */
export function partsFromJSON(json: unknown): MessagePart[] {
  if (!Array.isArray(json)) throw new TypeError(`Expected json to be an array, got ${describeValue(json)}`);
  return json.map((item, i) => {
    if (!isPlainObject(item)) throw new TypeError(`Expected json[${i}] to be an object, got ${describeValue(item)}`);
    return partFromJSON(item);
  });
}
