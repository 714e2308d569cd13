/** The wire formats the benchmark generates. */
export type BenchFormat = 'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini' | 'ollama';

/** Formats whose tool calls arrive whole (an arguments object in one frame), not as argument fragments. */
export function wholeToolCalls(format: BenchFormat): boolean {
  return format === 'gemini' || format === 'ollama';
}

/** A seeded 32-bit PRNG (mulberry32): the same seed always yields the same sequence in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One callback the content of a transcript maps to, in stream order. */
export type ScriptStep =
  | { readonly type: 'thinking'; readonly text: string }
  | { readonly type: 'signature'; readonly signature: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool-delta'; readonly index: number; readonly id: string; readonly name: string; readonly partialArguments: string }
  | { readonly type: 'tool-complete'; readonly index: number; readonly id: string; readonly name: string; readonly arguments: string };

/** A tool call as the final message must hold it. */
export interface ExpectedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What the final message of a transcript must contain. */
export interface ExpectedMessage {
  readonly id: string;
  readonly model: string;
  readonly text: string;
  readonly reasoning: string;
  readonly signature: string | null;
  readonly toolCalls: readonly ExpectedToolCall[];
  readonly inputTokens: number;
  readonly outputTokens: number;
}

// Code points by class. Each text delta draws 1–6 of them, so the bytes carry JSON escapes
// (quote, backslash, control characters), 2-byte (accented), 3-byte (CJK) and 4-byte (astral,
// a surrogate pair in UTF-16) UTF-8 sequences that a 16 KiB chunk boundary can split.
const ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789      .,;:!?-()[]{}<>/=+*'";
const ESCAPES = ['"', '\\', '\n', '\t', '\r', '\b', '\f', '\u0001', '\u001f', '/'];
const ACCENTED = ['é', 'è', 'à', 'ü', 'ö', 'ñ', 'ç', 'ø', 'å', 'ß', 'Ł', 'ž', 'ő', 'Ω', 'π'];
const CJK = ['中', '文', '字', '語', '日', '本', '한', '국', '漢', '字', 'の', 'カ'];
const ASTRAL = ['😀', '🚀', '𝄞', '🧪', '𠀋', '🎉', '𝔘', '🦀'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function codePoint(random: () => number): string {
  const r = random();
  if (r < 0.7) return ASCII[Math.floor(random() * ASCII.length)];
  if (r < 0.78) return pick(random, ESCAPES);
  if (r < 0.88) return pick(random, ACCENTED);
  if (r < 0.95) return pick(random, CJK);
  return pick(random, ASTRAL);
}

function piece(random: () => number, min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  let out = '';
  for (let i = 0; i < count; i++) out += codePoint(random);
  return out;
}

function fragmentsOf(random: () => number, text: string, min: number, max: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length;) {
    const size = min + Math.floor(random() * (max - min + 1));
    out.push(points.slice(i, i + size).join(''));
    i += size;
  }
  return out;
}

const TOOL_NAMES = ['get_weather', 'search_documents', 'create_ticket'];

function toolArguments(random: () => number, deltas: number): string {
  // About `deltas` fragments of 1–8 code points (mean 4.5): a JSON object whose string values
  // draw from the same mix of characters as the text.
  const notes: string[] = [];
  let length = 0;
  while (length < deltas * 4.5 - 60) {
    const p = piece(random, 1, 6);
    notes.push(p);
    length += p.length;
  }
  return JSON.stringify({
    city: `São Paulo ${piece(random, 2, 4)}`,
    limit: Math.floor(random() * 100),
    exact: random() < 0.5,
    tags: [piece(random, 1, 3), piece(random, 1, 3)],
    notes: notes.join(''),
  });
}

function base64(random: () => number, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * 64)];
  return out;
}

function identifier(random: () => number, prefix: string, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

const MODELS: Record<BenchFormat, string> = {
  'openai-chat': 'deepseek-reasoner',
  anthropic: 'claude-sonnet-4-5-20250929',
  'openai-responses': 'gpt-5.1-2025-11-13',
  gemini: 'gemini-2.5-pro',
  ollama: 'qwen3:8b',
};

function toolCallId(format: BenchFormat, random: () => number): string {
  switch (format) {
    case 'anthropic':
      return identifier(random, 'toolu_01', 22);
    case 'gemini':
      return identifier(random, '', 8);
    case 'ollama':
      return identifier(random, 'call_', 8).toLowerCase();
    default:
      return identifier(random, 'call_', 24);
  }
}

function messageId(format: BenchFormat, random: () => number): string {
  switch (format) {
    case 'anthropic':
      return identifier(random, 'msg_01', 22);
    case 'openai-responses':
      return identifier(random, 'resp_', 50).toLowerCase();
    case 'gemini':
      return identifier(random, '', 22);
    case 'ollama':
      return '';
    default:
      return `chatcmpl-${identifier(random, '', 29)}`;
  }
}

/** The content of a transcript: the callbacks it maps to, and the final message they make. */
export interface Content {
  readonly steps: ScriptStep[];
  readonly expected: ExpectedMessage;
}

/**
 * Draws the content of a transcript: n/5 reasoning deltas (then, for Anthropic, a signature;
 * Gemini's thought signature is drawn but rides on a part), n text deltas, and three tool calls
 * of about n/100 argument fragments each (one whole fragment for Gemini and Ollama).
 */
export function generateContent(format: BenchFormat, n: number, random: () => number): Content {
  const steps: ScriptStep[] = [];
  const reasoningDeltas = Math.max(1, Math.floor(n / 5));
  const thinking: string[] = [];
  for (let i = 0; i < reasoningDeltas; i++) {
    const text = piece(random, 1, 6);
    thinking.push(text);
    steps.push({ type: 'thinking', text });
  }
  // Anthropic closes its thinking block with a signature; Gemini puts a thought signature on the
  // first part after the thoughts (drawn here so that the other formats' draws stay as they were).
  const signature = format === 'anthropic' ? base64(random, 344) : format === 'gemini' ? base64(random, 412) : null;
  if (signature !== null && format === 'anthropic') steps.push({ type: 'signature', signature });
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = piece(random, 1, 6);
    texts.push(text);
    steps.push({ type: 'text', text });
  }
  const toolCalls: ExpectedToolCall[] = [];
  const argumentDeltas = Math.max(4, Math.floor(n / 100));
  for (let index = 0; index < 3; index++) {
    const id = toolCallId(format, random);
    const name = TOOL_NAMES[index];
    const args = toolArguments(random, argumentDeltas);
    // Gemini and Ollama send a call's arguments as one object: one fragment, the whole string.
    const fragments = wholeToolCalls(format) ? [args] : fragmentsOf(random, args, 1, 8);
    for (const partialArguments of fragments) {
      steps.push({ type: 'tool-delta', index, id, name, partialArguments });
    }
    steps.push({ type: 'tool-complete', index, id, name, arguments: args });
    toolCalls.push({ id, name, arguments: args });
  }
  const expected: ExpectedMessage = {
    id: messageId(format, random),
    model: MODELS[format],
    text: texts.join(''),
    reasoning: thinking.join(''),
    signature,
    toolCalls,
    inputTokens: 1000 + Math.floor(random() * 1000),
    outputTokens: n + reasoningDeltas + toolCalls.length * argumentDeltas,
  };
  return { steps, expected };
}
