import { frameTooLarge } from './frame-decoder';
import { providerErrorDetails } from './provider-error-body';
import { isJsonObject, type JsonObject } from './read-json';
import { StreamError } from '../handler/stream-error';
import type { SniffCandidate } from './sniff-rule';

// The verdicts of format sniffing: what each format looks like in its first frame, and the
// failures that name what was expected and what was found. The reading itself is in sniff-format.

/**
 * What the sniffer looks for: one named format (`expected`), or any of `candidates` (`expected`
 * null: `format: 'auto'`), tried in order.
 */
export interface SniffPlan {
  readonly expected: SniffCandidate | null;
  readonly candidates: readonly SniffCandidate[];
}

/** What the first bytes of a body say: need more text, this format, or not a readable stream. */
export type SniffResult = { readonly type: 'undecided' } | { readonly type: 'format'; readonly format: string } | { readonly type: 'failed'; readonly error: StreamError };

/** The verdict while more text is needed. */
export const UNDECIDED: SniffResult = Object.freeze({ type: 'undecided' });

/** What a plan expects, as a failure message names it. */
export function expectedText(plan: SniffPlan): string {
  if (plan.expected !== null) return plan.expected.expected;
  const names = plan.candidates.filter((candidate) => candidate.sniff !== null).map((candidate) => candidate.name);
  const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] as string}`;
  return `a stream of a known format (${list})`;
}

/** The verdict for a recognised format. */
export function decided(format: string): SniffResult {
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
export function formatError(plan: SniffPlan, found: string, evidence: string): SniffResult {
  return { type: 'failed', error: new StreamError('format', `Expected ${expectedText(plan)}, got ${found}: ${snippet(evidence)}`, { frame: evidence.slice(0, 2048) }) };
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

/** The first candidate whose SSE event-name rule accepts `name`, or null. */
export function classifySseEvent(plan: SniffPlan, name: string): SniffResult | null {
  for (const candidate of plan.candidates) {
    const rule = candidate.sniff?.sseEvent;
    if (rule !== undefined && candidate.framing === 'sse' && rule(name)) return decided(candidate.format);
  }
  return null;
}

/** Recognises the SSE format of a first event from its data. */
export function classifySseData(plan: SniffPlan, data: string): SniffResult {
  const evidence = `data: ${data}`;
  const trimmed = data.trim();
  for (const candidate of plan.candidates) {
    if (candidate.framing === 'sse' && candidate.sniff?.sseSentinel === trimmed) return decided(candidate.format);
  }
  const parsed = parseJson(data);
  if (!parsed.ok || !isJsonObject(parsed.value)) return formatError(plan, 'an SSE event whose data is not a JSON object', evidence);
  const value = parsed.value;
  for (const candidate of plan.candidates) {
    const rule = candidate.sniff?.sseData;
    if (rule !== undefined && candidate.framing === 'sse' && rule(value)) return decided(candidate.format);
  }
  return providerError(value) ?? formatError(plan, 'an SSE stream whose first event matches none of them', evidence);
}

/** The candidate whose NDJSON rule accepts a first line's object (the named one accepts any object), or null. */
function classifyJsonLine(plan: SniffPlan, value: JsonObject): SniffResult | null {
  if (plan.expected !== null) return plan.expected.framing === 'ndjson' ? decided(plan.expected.format) : null;
  for (const candidate of plan.candidates) {
    const rule = candidate.sniff?.jsonLine;
    if (rule !== undefined && candidate.framing === 'ndjson' && rule(value)) return decided(candidate.format);
  }
  return null;
}

/**
 * The verdict on a body's first line when it is one JSON value: a provider's error, Ollama's
 * first line, or JSON of no known shape; null when the line is not JSON on its own (a
 * pretty-printed document, judged whole by `jsonDocumentVerdict` once it has arrived).
 */
export function jsonLineVerdict(line: string, plan: SniffPlan): SniffResult | null {
  const parsed = parseJson(line);
  if (!parsed.ok) return null;
  const error = providerError(parsed.value);
  if (error !== null) return error;
  const value = parsed.value;
  const known = isJsonObject(value) ? classifyJsonLine(plan, value) : null;
  return known ?? formatError(plan, plan.expected === null ? 'JSON of no known shape' : 'JSON instead', line);
}

/** The verdict on a whole body (it ended within the sniffing limit) read as one JSON document. */
export function jsonDocumentVerdict(text: string, plan: SniffPlan): SniffResult {
  const whole = parseJson(text);
  if (whole.ok) return providerError(whole.value) ?? formatError(plan, 'a JSON document, not a stream', text);
  // A first line cut short is an NDJSON stream that ended mid-line: its decoder reports that.
  const expected = plan.expected;
  return expected !== null && expected.framing === 'ndjson' ? decided(expected.format) : formatError(plan, 'text that is neither SSE nor JSON', text);
}

/** The verdict on a first frame longer than `maxFrameBytes`: `malformed`, as the frame decoders say it. */
export function tooLarge(what: string, maxFrameBytes: number): SniffResult {
  return { type: 'failed', error: frameTooLarge(what, maxFrameBytes) };
}
