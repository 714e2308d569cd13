import { mediaPart, textPart, unknownPart } from '../../parts/factories';
import type { MessagePart } from '../../parts/types';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';

const PROVIDER = 'openai';
/** `output_format` values that name an image subtype as they are (`png`, `jpeg`, `webp`). */
const IMAGE_FORMAT = /^[a-z0-9][a-z0-9.+-]{0,31}$/;

/**
 * What completes the part of a finished output item (`response.output_item.done`) other than a
 * reasoning item or a client tool call:
 * - a `message`: null, or — when its `output_text` contents carry annotations — an empty text
 *   part with payload `openai`/`annotations` (the annotations of its contents in order, as JSON)
 *   that rides on the message's text part;
 * - an `image_generation_call` with a result: a `media` part (the base64 image as a string, the
 *   item's id, `image/<output_format>`, png when the item names none);
 * - any other item (`web_search_call`, `mcp_call`, `code_interpreter_call`, …): an `unknown` part,
 *   kind = the item's type, rawJson = the item as the API takes it back as input.
 */
export function outputItemPart(item: JsonObject): MessagePart | null {
  const type = typeof item.type === 'string' && item.type.length > 0 ? item.type : 'unknown';
  if (type === 'message') return annotationsOf(item);
  if (type === 'image_generation_call' && typeof item.result === 'string' && item.result.length > 0) {
    const format = typeof item.output_format === 'string' && IMAGE_FORMAT.test(item.output_format) ? item.output_format : 'png';
    const id = typeof item.id === 'string' ? item.id : null;
    return mediaPart({ id, mimeType: `image/${format}`, name: null, dataKind: 'string', data: item.result });
  }
  return unknownPart(PROVIDER, type, stringifyJson(item) ?? '{}');
}

function annotationsOf(message: JsonObject): MessagePart | null {
  if (!Array.isArray(message.content)) return null;
  const annotations: unknown[] = [];
  for (const content of message.content as readonly unknown[]) {
    // One at a time: spreading a list the server sent could exceed the engine's argument limit.
    if (isJsonObject(content) && Array.isArray(content.annotations)) for (const annotation of content.annotations as readonly unknown[]) annotations.push(annotation);
  }
  if (annotations.length === 0) return null;
  return textPart('', { payload: { provider: PROVIDER, kind: 'annotations', data: stringifyJson(annotations) ?? '[]' } });
}
