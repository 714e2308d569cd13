import type { ChatResponse } from '../handler/types';
import { REFUSAL_ATTRIBUTE } from '../providers/openai-chat/openai-chat-mapper';

/** A refusal to show in the summary: the model's or provider's text, or null when none was given. */
export interface Refusal {
  readonly text: string | null;
}

/**
 * The refusal a response carries, if any: OpenAI Chat's refusal text (`aiMessage.attributes.refusal`),
 * else — for a response that ended with `CONTENT_FILTER` — an Anthropic `stop_reason: "refusal"`
 * read from the data of the stream's last `message_delta` event, with `stop_details.explanation`
 * as its text when the provider gave one. Null when the response is no refusal.
 */
export function findRefusal(response: ChatResponse, lastMessageDelta: string | null): Refusal | null {
  const attribute = response.aiMessage.attributes[REFUSAL_ATTRIBUTE];
  if (typeof attribute === 'string' && attribute !== '') return { text: attribute };
  // Read only for a filtered response: every other stream never pays for a second parse.
  if (lastMessageDelta === null || response.metadata.finishReason !== 'CONTENT_FILTER') return null;
  return anthropicRefusal(lastMessageDelta);
}

/** `{"delta":{"stop_reason":"refusal","stop_details":{"explanation":…}}}`, read defensively: any other shape is no refusal. */
function anthropicRefusal(data: string): Refusal | null {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return null;
  }
  const delta = field(event, 'delta');
  if (field(delta, 'stop_reason') !== 'refusal') return null;
  const explanation = field(field(delta, 'stop_details'), 'explanation');
  return { text: typeof explanation === 'string' && explanation !== '' ? explanation : null };
}

/** An own property of a plain object, or undefined (never one from the prototype chain). */
function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
