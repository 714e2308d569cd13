import { createHash } from 'crypto';
import { renderOpenAiResponses } from './render-openai-responses';
import { ByteSink, renderAnthropic, renderGemini, renderOllama, renderOpenAiChat } from './render-sse';
import { generateContent, mulberry32, type BenchFormat, type ExpectedMessage, type ScriptStep } from './transcript-content';

export type { BenchFormat, ExpectedMessage, ExpectedToolCall, ScriptStep } from './transcript-content';

/** SHA-256 (hex, over UTF-8) of the expected text, reasoning and each tool call's arguments. */
export interface ExpectedHashes {
  readonly text: string;
  readonly reasoning: string;
  readonly arguments: readonly string[];
}

/** A generated stream: its bytes, the callbacks it maps to, and the expected final message. */
export interface Transcript {
  readonly format: BenchFormat;
  readonly n: number;
  readonly seed: number;
  readonly bytes: Buffer;
  readonly frames: number;
  readonly steps: readonly ScriptStep[];
  readonly expected: ExpectedMessage;
  readonly hashes: ExpectedHashes;
}

/** Options of `generateTranscript`. */
export interface TranscriptOptions {
  readonly format: BenchFormat;
  /** Number of text deltas; reasoning deltas are n/5. */
  readonly n: number;
  readonly seed?: number;
}

const RENDERERS: Record<BenchFormat, typeof renderOpenAiChat> = {
  'openai-chat': renderOpenAiChat,
  anthropic: renderAnthropic,
  'openai-responses': renderOpenAiResponses,
  gemini: renderGemini,
  ollama: renderOllama,
};

/** SHA-256 hex digest of a string's UTF-8 bytes. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Generates a deterministic stream of `n` text deltas (1–6 code points, with JSON escapes,
 * accented, CJK and astral characters), n/5 reasoning deltas (Chat: `reasoning_content`;
 * Anthropic: a thinking block closed by a signature; Responses: reasoning summary text; Gemini:
 * thought parts, with a thought signature; Ollama: `message.thinking`), three tool calls whose
 * arguments stream in 1–8 code-point fragments (Gemini and Ollama: whole, as those send them),
 * pings (Anthropic) and usage, in the given wire format.
 */
export function generateTranscript(options: TranscriptOptions): Transcript {
  const { format, n } = options;
  const seed = options.seed ?? 0x5eed;
  if (!Number.isInteger(n) || n < 1) throw new TypeError(`Expected n to be an integer ≥ 1, got ${String(n)}`);
  const random = mulberry32(seed);
  const content = generateContent(format, n, random);
  const sink = new ByteSink();
  RENDERERS[format](content, random, sink);
  const { expected } = content;
  return {
    format,
    n,
    seed,
    bytes: sink.bytes(),
    frames: sink.frames,
    steps: content.steps,
    expected,
    hashes: {
      text: sha256(expected.text),
      reasoning: sha256(expected.reasoning),
      arguments: expected.toolCalls.map((call) => sha256(call.arguments)),
    },
  };
}

/** Splits bytes into views of `size` bytes (the last one shorter); no copies. */
export function splitBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) out.push(bytes.subarray(offset, Math.min(offset + size, bytes.length)));
  return out;
}
