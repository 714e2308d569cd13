import { describeValue } from '../parts/describe-value';
import { bytesToBase64 } from '../parts/base64';
import { INCOMPLETE_ATTRIBUTE } from '../parts/incomplete-tool-call';
import type { Media, MessagePart, OpaquePayload, ToolCall } from '../parts/types';
import { parseToolArguments } from './parse-tool-arguments';

import type { JsonObject } from '../wire/read-json';

/** A JSON object as the converters hand it to a provider: partstream's one JSON object type, as a parsed event's. */
export type { JsonObject };

/** True for a part cut short by the stream's end (SPEC §10): it never goes back to a provider. */
export function isIncomplete(part: MessagePart): boolean {
  return part.attributes[INCOMPLETE_ATTRIBUTE] === 'true';
}

/** The payload's data when it is `provider`/`kind`, else null: another provider's data is never sent. */
export function payloadData(payload: OpaquePayload | null, provider: string, kind: string): string | null {
  return payload !== null && payload.provider === provider && payload.kind === kind ? payload.data : null;
}

/** `rawJson` of a provider's own unknown part, parsed; it was that provider's JSON when it was stored. */
export function parseRawJson(rawJson: string, what: string): unknown {
  try {
    return JSON.parse(rawJson);
  } catch (cause) {
    throw new TypeError(`Expected the rawJson of ${what} to be JSON`, { cause });
  }
}

function callName(call: ToolCall | { id: string | null; name: string | null }): string {
  return `tool call ${JSON.stringify(call.name ?? '')} (id ${call.id === null ? 'null' : JSON.stringify(call.id)})`;
}

/**
 * The call's arguments as the JSON object a provider wants (`input`, `args`, `arguments`); a
 * `TypeError` naming the call when they are not a JSON object (invalid JSON included, as `cause`).
 */
export function argumentsObject(call: ToolCall): JsonObject {
  let value: unknown;
  try {
    value = parseToolArguments(call);
  } catch (cause) {
    throw new TypeError(`Expected the arguments of ${callName(call)} to be a JSON object, got invalid JSON`, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`Expected the arguments of ${callName(call)} to be a JSON object, got ${describeValue(value)}`);
  }
  return value as JsonObject;
}

/** The media's data as base64 (bytes encoded, a string taken as base64 already); null for a URL. */
export function mediaBase64(media: Media): string | null {
  if (media.dataKind === 'url') return null;
  return media.dataKind === 'bytes' ? bytesToBase64(media.data) : media.data;
}

/** A URL for the media: its own URL, or a `data:` URL of its base64. */
export function mediaUrl(media: Media): string {
  if (media.dataKind === 'url') return media.data;
  return `data:${media.mimeType};base64,${mediaBase64(media)!}`;
}

/** The text parts of a tool result joined; a `TypeError` for anything else (a provider that takes text only). */
export function resultText(content: string | readonly MessagePart[], provider: string): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type !== 'text') throw new TypeError(`Expected ${provider} tool result parts to be text parts, got a ${part.type} part`);
    text += part.text;
  }
  return text;
}

/** The text of a system message list, joined by a blank line; undefined when there is none. */
export function joinSystem(texts: readonly string[]): string | undefined {
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/** The prefix of the ids `ToolCallIds` makes up for calls that came without one. */
export const MISSING_CALL_ID_PREFIX = 'partstream-call-';

/**
 * Tool-call ids for a provider that requires them (OpenAI Chat and Responses, Anthropic). A call
 * without an id (made by Gemini or Ollama, which may give none) gets `partstream-call-<n>`, `n`
 * counting such calls from 1 in conversation order, so the same conversation always gets the
 * same ids; a result without an id takes the id of the oldest unanswered such call of its name.
 * One instance per conversation converted.
 */
export class ToolCallIds {
  private made = 0;
  private readonly unanswered: Array<{ readonly name: string; readonly id: string }> = [];

  /** The call's id, or the next made-up one (remembered for its result). */
  forCall(call: ToolCall): string {
    if (call.id !== null) return call.id;
    this.made += 1;
    const id = `${MISSING_CALL_ID_PREFIX}${this.made}`;
    this.unanswered.push({ name: call.name ?? '', id });
    return id;
  }

  /** The id a result answers: its own, else that of the oldest unanswered call of its name without one; a `TypeError` when there is none. */
  forResult(request: { readonly id: string | null; readonly name: string }, provider: string): string {
    if (request.id !== null) return request.id;
    const at = this.unanswered.findIndex((call) => call.name === request.name);
    if (at < 0) {
      throw new TypeError(`Expected the tool result for ${JSON.stringify(request.name)} to have an id (${provider} requires one), got none and no call without an id before it`);
    }
    return this.unanswered.splice(at, 1)[0]!.id;
  }
}
