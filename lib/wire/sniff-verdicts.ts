import { frameTooLarge } from './frame-decoder';
import { providerErrorDetails } from './provider-error-body';
import { isJsonObject, type JsonObject } from './read-json';
import { StreamError } from '../handler/stream-error';
import type { BodyFormat } from '../wire/types';

// The verdicts of format sniffing: what each format looks like in its first frame, and the
// failures that name what was expected and what was found. The reading itself is in sniff-format.

/** A wire format, or `auto` to recognise it from the first frames. */
export type FormatOption = BodyFormat | 'auto';

/** What the first bytes of a body say: need more text, this format, or not a readable stream. */
export type SniffResult =
  | { readonly type: 'undecided' }
  | { readonly type: 'format'; readonly format: BodyFormat }
  | { readonly type: 'failed'; readonly error: StreamError };

/** The verdict while more text is needed. */
export const UNDECIDED: SniffResult = Object.freeze({ type: 'undecided' });

/** What each format option expects, as a failure message names it. */
export const EXPECTED: Readonly<Record<FormatOption, string>> = {
  'openai-chat': 'an OpenAI Chat Completions stream (Server-Sent Events)',
  'openai-responses': 'an OpenAI Responses stream (Server-Sent Events)',
  anthropic: 'an Anthropic Messages stream (Server-Sent Events)',
  gemini: 'a Gemini streamGenerateContent stream (Server-Sent Events, alt=sse)',
  ollama: 'an Ollama /api/chat stream (NDJSON)',
  partstream: 'a partstream relay stream (Server-Sent Events, x-partstream-wire: 1)',
  auto: 'a stream of a known format (OpenAI Chat or Responses, Anthropic or Gemini SSE, Ollama NDJSON)',
};

/** The SSE event names that only an Anthropic stream sends. */
export const ANTHROPIC_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'ping',
]);

/** The verdict for a recognised format. */
export function decided(format: BodyFormat): SniffResult {
  return { type: 'format', format };
}

function snippet(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 120 ? `${trimmed.slice(0, 120)}…` : trimmed);
}

/**
 * The `format` failure. `evidence` is what is quoted: always the same text however the body was
 * split (a complete line, the whole body, or a fixed-length prefix), so the message is too.
 */
export function formatError(expected: FormatOption, found: string, evidence: string): SniffResult {
  return { type: 'failed', error: new StreamError('format', `Expected ${EXPECTED[expected]}, got ${found}: ${snippet(evidence)}`, { frame: evidence.slice(0, 2048) }) };
}

/** How much of a first line is enough to quote it. */
export const QUOTED = 121;

/** A provider error body where a stream was expected: the provider's message, with its code and body. */
export function providerError(body: unknown): SniffResult | null {
  const details = providerErrorDetails(body);
  if (details === null) return null;
  return { type: 'failed', error: new StreamError('provider', details.message, { body, code: details.code, status: details.status }) };
}

/** `JSON.parse` that says whether it worked instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True for a parsed NDJSON line shaped like an Ollama chat chunk. */
export function looksLikeOllama(value: JsonObject): boolean {
  return 'message' in value || typeof value.done === 'boolean' || (typeof value.model === 'string' && typeof value.created_at === 'string');
}

/** Recognises the SSE format of a first event from its data (and event name). */
export function classifySseData(data: string): SniffResult {
  const evidence = `data: ${data}`;
  if (data.trim() === '[DONE]') return decided('openai-chat');
  const parsed = parseJson(data);
  if (!parsed.ok || !isJsonObject(parsed.value)) return formatError('auto', 'an SSE event whose data is not a JSON object', evidence);
  const value = parsed.value;
  const type = typeof value.type === 'string' ? value.type : '';
  if (type.startsWith('response.')) return decided('openai-responses');
  if (ANTHROPIC_EVENTS.has(type)) return decided('anthropic');
  if (type === 'error') return decided(isJsonObject(value.error) ? 'anthropic' : 'openai-responses');
  if ('choices' in value || value.object === 'chat.completion.chunk') return decided('openai-chat');
  if ('candidates' in value || 'usageMetadata' in value || 'promptFeedback' in value || 'modelVersion' in value) return decided('gemini');
  return providerError(value) ?? formatError('auto', 'an SSE stream whose first event matches none of them', evidence);
}

/**
 * The verdict on a body's first line when it is one JSON value: a provider's error, Ollama's
 * first line, or JSON of no known shape; null when the line is not JSON on its own (a
 * pretty-printed document, judged whole by `jsonDocumentVerdict` once it has arrived).
 */
export function jsonLineVerdict(line: string, expected: FormatOption): SniffResult | null {
  const parsed = parseJson(line);
  if (!parsed.ok) return null;
  const error = providerError(parsed.value);
  if (error !== null) return error;
  const value = parsed.value;
  if (isJsonObject(value) && (expected === 'ollama' || (expected === 'auto' && looksLikeOllama(value)))) return decided('ollama');
  return formatError(expected, expected === 'auto' ? 'JSON of no known shape' : 'JSON instead', line);
}

/** The verdict on a whole body (it ended within the sniffing limit) read as one JSON document. */
export function jsonDocumentVerdict(text: string, expected: FormatOption): SniffResult {
  const whole = parseJson(text);
  if (whole.ok) return providerError(whole.value) ?? formatError(expected, 'a JSON document, not a stream', text);
  // A first line cut short is an Ollama stream that ended mid-line: its decoder reports that.
  return expected === 'ollama' ? decided('ollama') : formatError(expected, 'text that is neither SSE nor JSON', text);
}

/** The verdict on a first frame longer than `maxFrameBytes`: `malformed`, as the frame decoders say it. */
export function tooLarge(what: string, maxFrameBytes: number): SniffResult {
  return { type: 'failed', error: frameTooLarge(what, maxFrameBytes) };
}
