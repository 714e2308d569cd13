import type { PartialThinkingContext, StreamingChatResponseHandler } from '../../handler/types';
import { partialThinking } from '../../handler/values';
import type { OpaquePayload } from '../../parts/types';
import { isJsonObject, nonEmptyString } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';

/** The payload provider and kind of a replayable `reasoning_details` entry. */
const PROVIDER = 'openrouter';
const KIND = 'reasoning_details';

/**
 * Delivers the thinking of an OpenRouter `delta.reasoning_details` array, one partial thinking
 * per entry that carries any, in order: the text of a `reasoning.text` entry or the summary of a
 * `reasoning.summary` entry; and, for a `reasoning.encrypted` entry or any entry that carries a
 * `signature` or `data`, the payload `openrouter`/`reasoning_details` holding the entry as sent
 * (JSON text), kept for replay — on the same callback as the entry's text, or text-less.
 * Returns true when some entry delivered text (the chunk's plain `reasoning` then repeats it).
 */
export function deliverReasoningDetails(details: readonly unknown[], handler: StreamingChatResponseHandler, context: PartialThinkingContext): boolean {
  let deliveredText = false;
  for (const entry of details) {
    if (!isJsonObject(entry)) continue;
    const text = entry.type === 'reasoning.text' ? nonEmptyString(entry.text) : entry.type === 'reasoning.summary' ? nonEmptyString(entry.summary) : null;
    const replayable = entry.type === 'reasoning.encrypted' || nonEmptyString(entry.signature) !== null || (entry.data !== undefined && entry.data !== null);
    if (text === null && !replayable) continue;
    // Serialised only for the rare entry that must be replayed (a signature, encrypted data).
    const payload: OpaquePayload | undefined = replayable ? { provider: PROVIDER, kind: KIND, data: stringifyJson(entry) ?? '{}' } : undefined;
    if (text !== null) deliveredText = true;
    handler.onPartialThinking?.(partialThinking(text ?? '', payload), context);
  }
  return deliveredText;
}
