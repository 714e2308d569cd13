import { providerErrorDetails } from './decode/provider-error-body';
import { isJsonObject, type JsonObject } from './shared/read-json';
import { StreamError } from './stream-error';
import type { WireFormat } from './types';

/** A wire format, or `auto` to recognise it from the first frames. */
export type FormatOption = WireFormat | 'auto';

/** What the first bytes of a body say: need more text, this format, or not a readable stream. */
export type SniffResult =
  | { readonly type: 'undecided' }
  | { readonly type: 'format'; readonly format: WireFormat }
  | { readonly type: 'failed'; readonly error: StreamError };

/** How much text `sniffFormat` may need before it gives up (1 MiB). */
export const SNIFF_LIMIT = 1 << 20;

const UNDECIDED: SniffResult = Object.freeze({ type: 'undecided' });

const EXPECTED: Readonly<Record<FormatOption, string>> = {
  'openai-chat': 'an OpenAI Chat Completions stream (Server-Sent Events)',
  'openai-responses': 'an OpenAI Responses stream (Server-Sent Events)',
  anthropic: 'an Anthropic Messages stream (Server-Sent Events)',
  gemini: 'a Gemini streamGenerateContent stream (Server-Sent Events, alt=sse)',
  ollama: 'an Ollama /api/chat stream (NDJSON)',
  auto: 'a stream of a known format (OpenAI Chat or Responses, Anthropic or Gemini SSE, Ollama NDJSON)',
};

const ANTHROPIC_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'ping',
]);

function decided(format: WireFormat): SniffResult {
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
function formatError(expected: FormatOption, found: string, evidence: string): SniffResult {
  return { type: 'failed', error: new StreamError('format', `Expected ${EXPECTED[expected]}, got ${found}: ${snippet(evidence)}`, { frame: evidence.slice(0, 2048) }) };
}

/** How much of a first line is enough to quote it. */
const QUOTED = 121;

/** The first line from `start` (or its first `QUOTED` characters); null until that much has arrived. */
function firstLine(text: string, start: number, ended: boolean): string | null {
  const lf = text.indexOf('\n', start);
  const cr = text.indexOf('\r', start);
  const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
  if (end !== -1 && end - start < QUOTED) return text.slice(start, end);
  if (text.length - start >= QUOTED) return text.slice(start, start + QUOTED);
  return ended ? text.slice(start) : null;
}

/** A provider error body where a stream was expected: the provider's message, with its code and body. */
function providerError(body: unknown): SniffResult | null {
  const details = providerErrorDetails(body);
  if (details === null) return null;
  return { type: 'failed', error: new StreamError('provider', details.message, { body, code: details.code, status: details.status }) };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function looksLikeOllama(value: JsonObject): boolean {
  return 'message' in value || typeof value.done === 'boolean' || (typeof value.model === 'string' && typeof value.created_at === 'string');
}

/** Recognises the SSE format of a first event from its data (and event name). */
function classifySseData(data: string): SniffResult {
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

/** The body starts with `{` or `[`: NDJSON, or a (possibly pretty-printed) JSON document such as an error body. */
function sniffJson(text: string, start: number, ended: boolean, expected: FormatOption): SniffResult {
  const lineEnd = text.indexOf('\n', start);
  if (lineEnd === -1 && !ended) {
    // An Ollama first line longer than the limit is still Ollama (only error lines are read whole).
    return expected === 'ollama' && text.length === SNIFF_LIMIT ? decided('ollama') : UNDECIDED;
  }
  const line = text.slice(start, lineEnd === -1 ? text.length : lineEnd);
  const parsedLine = parseJson(line);
  if (parsedLine.ok) {
    const error = providerError(parsedLine.value);
    if (error !== null) return error;
    const value = parsedLine.value;
    if (isJsonObject(value) && (expected === 'ollama' || (expected === 'auto' && looksLikeOllama(value)))) return decided('ollama');
    return formatError(expected, expected === 'auto' ? 'JSON of no known shape' : 'JSON instead', line);
  }
  // Not one JSON value per line: a pretty-printed document, readable once it has all arrived.
  if (!ended) return UNDECIDED;
  const whole = parseJson(text);
  if (whole.ok) return providerError(whole.value) ?? formatError(expected, 'a JSON document, not a stream', text);
  // A first line cut short is an Ollama stream that ended mid-line: its decoder reports that.
  return expected === 'ollama' ? decided('ollama') : formatError(expected, 'text that is neither SSE nor JSON', text);
}

/** The body starts like text: Server-Sent Events, or something else (a plain-text error). */
function sniffSse(text: string, start: number, ended: boolean, expected: FormatOption): SniffResult {
  const notSse = expected === 'ollama' ? 'text that is not NDJSON' : 'text that is not Server-Sent Events';
  let eventName: string | null = null;
  let data: string[] = [];
  let at = start;
  while (at < text.length) {
    const lf = text.indexOf('\n', at);
    const cr = text.indexOf('\r', at);
    let end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    // A line still arriving can already be judged by its field name (what comes before the colon).
    const complete = end !== -1 || ended;
    if (end === -1) end = text.length;
    const line = text.slice(at, end);
    at = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    // Quote a line only once it is complete or long enough, so the message does not depend on the split.
    const quote = complete || line.length >= QUOTED ? line.slice(0, QUOTED) : null;
    if (line === '') {
      if (data.length > 0) return classifySseData(data.join('\n'));
      eventName = null;
      continue;
    }
    if (line.charCodeAt(0) === 0x3a /* ":" comment */) {
      if (complete) continue;
      return UNDECIDED;
    }
    const colon = line.indexOf(':');
    if (colon === -1 && !complete) return quote === null ? UNDECIDED : formatError(expected, notSse, quote);
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field === 'id' || field === 'retry') {
      if (complete) continue;
      return UNDECIDED;
    }
    if (field !== 'event' && field !== 'data') return quote === null ? UNDECIDED : formatError(expected, notSse, quote);
    if (expected === 'ollama') return quote === null ? UNDECIDED : formatError(expected, 'Server-Sent Events', quote);
    if (expected !== 'auto') return decided(expected);
    if (!complete) return UNDECIDED;
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === 'data') {
      data.push(value);
      continue;
    }
    eventName = value;
    if (ANTHROPIC_EVENTS.has(eventName)) return decided('anthropic');
    if (eventName.startsWith('response.')) return decided('openai-responses');
    data = [];
  }
  if (!ended) return UNDECIDED;
  if (data.length > 0) return classifySseData(data.join('\n'));
  if (expected !== 'auto') return decided(expected);
  return { type: 'failed', error: new StreamError('truncated', `The stream ended before its first event (expected ${EXPECTED.auto})`) };
}

/**
 * Looks at the first text of a body and says which wire format it is — or, when `expected` is a
 * format, whether the body is that format's framing at all. Returns `undecided` until it has seen
 * enough (the first event for SSE, the first line for NDJSON, the whole body for a JSON document;
 * `ended` says the body is complete). SSE formats are told apart by event name (`message_start` …
 * for Anthropic, `response.*` for OpenAI Responses) or by the first event's data (`choices` /
 * `chat.completion.chunk` for OpenAI Chat, `candidates` / `usageMetadata` for Gemini); NDJSON
 * lines with `message`, `done` or `model` + `created_at` are Ollama.
 *
 * A body that is none of them fails with a `StreamError`: kind `provider` (the provider's message,
 * code and body) for a JSON error body such as Gemini's pretty-printed 404, kind `format` naming what
 * was expected and what was found (an HTML page, plain text, JSON of no known shape), kind
 * `truncated` for a body that ended before any event (only when the format is `auto`).
 */
export function sniffFormat(body: string, ended: boolean, expected: FormatOption = 'auto'): SniffResult {
  // Judge only the first SNIFF_LIMIT characters, whatever has arrived: a decision that needs more
  // fails the same way however the body was split.
  const text = body.length > SNIFF_LIMIT ? body.slice(0, SNIFF_LIMIT) : body;
  const complete = ended && text.length === body.length;
  let start = 0;
  while (start < text.length && /\s/.test(text[start] as string)) start++;
  let result: SniffResult;
  if (start === text.length) {
    if (!complete) return UNDECIDED;
    result =
      expected === 'auto'
        ? { type: 'failed', error: new StreamError('truncated', `The stream ended before its first event: the body was empty (expected ${EXPECTED.auto})`) }
        : decided(expected);
  } else {
    const first = text[start];
    const quoted = first === '<' ? firstLine(text, start, complete) : null;
    if (first === '<') result = quoted === null ? UNDECIDED : formatError(expected, 'an HTML document', quoted);
    else if (first === '{' || first === '[') result = sniffJson(text, start, complete, expected);
    else result = sniffSse(text, start, complete, expected);
  }
  if (result.type === 'undecided' && body.length > SNIFF_LIMIT) {
    return formatError(expected, `no recognisable frame in the first ${SNIFF_LIMIT} characters`, text.slice(start, start + QUOTED));
  }
  return result;
}
