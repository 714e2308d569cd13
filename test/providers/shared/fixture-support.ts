import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatResponse, FinishReason, StreamingChatResponseHandler } from '../../../lib/handler/types';
import { consumeStream } from '../../../lib/driver/consume-stream';
import type { SseFrame } from '../../../lib/wire/types';
import type { WireFormat } from '../../../lib/providers/registry';
import { FIXTURES_ABSENT, FIXTURES_DIR } from '../../support/recorded-fixtures';
import { noteSkipped } from '../../support/skips';

export { FIXTURES_DIR };

/** One manifest entry, as far as these tests read it. */
export interface FixtureEntry {
  readonly file: string;
  readonly format: WireFormat;
  readonly expected: {
    readonly id: string | null;
    readonly model: string | null;
    readonly text: string | null;
    readonly refusal?: string | null;
    readonly reasoning: string | null;
    readonly reasoningSignatures: readonly string[];
    readonly toolCalls: ReadonlyArray<{ readonly id: string | null; readonly name: string; readonly arguments: string; readonly blockNotStopped?: boolean }>;
    readonly finishReason: string | null;
    readonly usage: Record<string, unknown> | null;
    readonly serverToolEvents: readonly string[];
    readonly terminal: string | null;
    /** Anthropic `stop_details` of the `message_delta`, where the stream has one. */
    readonly stopDetails?: Record<string, unknown>;
    /** The finish reason and usage SPEC §1/§10 ask the final metadata to hold, derived independently. */
    readonly normalized?: NormalizedExpectation;
  };
}

/** `expected.normalized` of a manifest entry. */
export interface NormalizedExpectation {
  readonly finishReason: FinishReason | null;
  readonly providerFinishReason: string | null;
  readonly tokenUsage: {
    readonly inputTokenCount: number | null;
    readonly outputTokenCount: number | null;
    readonly totalTokenCount: number | null;
    readonly cacheReadInputTokenCount: number | null;
    readonly cacheWriteInputTokenCount: number | null;
    readonly reasoningTokenCount: number | null;
  } | null;
}

/**
 * Asserts the response's finish reasons and token usage against the manifest's
 * `expected.normalized` (computed without partstream), and `providerUsage` against the raw usage
 * object the manifest recorded. Fails — never passes vacuously — when the entry has no
 * `normalized` block.
 */
export function expectManifestFinishAndUsage(response: ChatResponse, entry: FixtureEntry): void {
  const normalized = entry.expected.normalized;
  expect(normalized, `${entry.file}: manifest expected.normalized`).to.not.equal(undefined);
  const { finishReason, providerFinishReason, tokenUsage, providerUsage } = response.metadata;
  expect({ finishReason, providerFinishReason, tokenUsage, providerUsage }).to.deep.equal({
    finishReason: normalized!.finishReason,
    providerFinishReason: normalized!.providerFinishReason,
    tokenUsage: normalized!.tokenUsage,
    providerUsage: entry.expected.usage,
  });
}

/** True when the fixtures folder is there; else notes the suite for the run's one-line skip summary. */
export function fixturesAvailable(suite: string): boolean {
  if (fs.existsSync(path.join(FIXTURES_DIR, 'manifest.json'))) return true;
  noteSkipped(FIXTURES_ABSENT, suite);
  return false;
}

/** The manifest entries of one format (empty when the fixtures are absent). */
export function fixtureEntries(format: WireFormat): FixtureEntry[] {
  const manifest = path.join(FIXTURES_DIR, 'manifest.json');
  if (!fs.existsSync(manifest)) return [];
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as FixtureEntry[]).filter((entry) => entry.format === format);
}

/** The entry whose file ends with `suffix`; fails the test (never skips it) when the manifest has none. */
export function requireEntry(entries: readonly FixtureEntry[], suffix: string): FixtureEntry {
  const entry = entries.find((candidate) => candidate.file.endsWith(suffix));
  expect(entry, `manifest entry ${suffix}`).to.not.equal(undefined);
  return entry!;
}

/** The bytes of a fixture file. */
export function readFixture(file: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, file)));
}

/** The SSE frames of a body as eventsource-parser decodes them, `[DONE]` included (the reference for raw events). */
export function referenceSseFrames(bytes: Uint8Array): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = createParser({ onEvent: (message) => frames.push({ event: message.event ?? null, data: message.data }) });
  parser.feed(new TextDecoder().decode(bytes));
  return frames;
}

/** One callback as recorded: its name and its value (contexts left out). */
export type RecordedEvent = readonly [string, unknown];

/** The callbacks of one run, in order, and how it ended. */
export interface RecordedRun {
  readonly events: RecordedEvent[];
  readonly outcome: Awaited<ReturnType<typeof consumeStream>>;
  /** The final response (completed) or the partial one (failed/cancelled). */
  readonly response: ChatResponse;
}

/** Feeds `chunks` (the body, split anywhere) to `consumeStream` and records every callback. */
export async function recordRun(chunks: readonly Uint8Array[], format: WireFormat): Promise<RecordedRun> {
  const events: RecordedEvent[] = [];
  const handler: StreamingChatResponseHandler = {
    onPartialResponse: (partial) => events.push(['partialResponse', partial]),
    onPartialThinking: (partial) => events.push(['partialThinking', partial]),
    onPartialToolCall: (partial) => events.push(['partialToolCall', partial]),
    onCompleteToolCall: (complete) => events.push(['completeToolCall', complete]),
    onUnmappedRawEvent: (raw) => events.push(['unmappedRawEvent', raw]),
    onCompleteResponse: (response) => events.push(['completeResponse', response]),
    onError: (error) => events.push(['error', error]),
  };
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield chunk;
  }
  const outcome = await consumeStream(source(), handler, { format });
  const response = outcome.status === 'completed' ? outcome.response : outcome.partial;
  return { events, outcome, response };
}

/** Splits bytes at the given offsets (one helper for every test). */
export { splitAt } from '../../support/chunk-sources';

/** The values of the callbacks of one name, in order. */
export function valuesOf<T>(events: readonly RecordedEvent[], name: string): T[] {
  return events.filter((event) => event[0] === name).map((event) => event[1] as T);
}

/** The `data` of every signature payload on the response's reasoning parts, in order. */
export function reasoningSignatures(response: ChatResponse): string[] {
  return response.aiMessage.parts.flatMap((part) => (part.type === 'reasoning' && part.payload?.kind === 'signature' ? [part.payload.data] : []));
}
