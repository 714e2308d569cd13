import { frozenJsonRecord } from '../../handler/frozen-json';
import type { JsonRecord, TokenUsage } from '../../handler/types';
import { isJsonObject, nestedTokenCount, tokenCount } from '../../wire/read-json';
import { countedUsage, sumCounts } from '../kit/counted-usage';

/**
 * The token usage of one Messages stream: `message_start.message.usage`, then each
 * `message_delta.usage`.
 *
 * - Counts are merged field by field (a later count replaces an earlier one; a missing or null
 *   field keeps it, as Anthropic's SDK does). Input = `input_tokens` +
 *   `cache_creation_input_tokens` + `cache_read_input_tokens` (Anthropic counts cache reads and
 *   writes apart from `input_tokens`); output = `output_tokens`; total = their sum; cache read /
 *   write = `cache_read_input_tokens` / `cache_creation_input_tokens`; reasoning =
 *   `output_tokens_details.thinking_tokens` when the stream has it. `iterations` is not summed:
 *   the top-level fields are the response's counts.
 * - The usage object as sent (`providerUsage`) is the shallow merge of those objects: each key
 *   takes its latest value as sent, null included.
 */
export class AnthropicUsageTracker {
  private input: number | null = null;
  private output: number | null = null;
  private cacheRead: number | null = null;
  private cacheWrite: number | null = null;
  private thinking: number | null = null;
  /** The shallow merge of the usage objects, by reference (copied once, in `providerUsage`). */
  private readonly sent = new Map<string, unknown>();

  /** Merges one usage object (anything else is ignored). */
  merge(usage: unknown): void {
    if (!isJsonObject(usage)) return;
    this.input = tokenCount(usage.input_tokens) ?? this.input;
    this.output = tokenCount(usage.output_tokens) ?? this.output;
    this.cacheRead = tokenCount(usage.cache_read_input_tokens) ?? this.cacheRead;
    this.cacheWrite = tokenCount(usage.cache_creation_input_tokens) ?? this.cacheWrite;
    this.thinking = nestedTokenCount(usage.output_tokens_details, 'thinking_tokens') ?? this.thinking;
    for (const key of Object.keys(usage)) this.sent.set(key, usage[key]);
  }

  /** The merged counts, or null when no count was reported. */
  tokenUsage(): TokenUsage | null {
    return countedUsage(sumCounts(this.input, this.cacheWrite, this.cacheRead), this.output, null, {
      cacheReadInputTokenCount: this.cacheRead,
      cacheWriteInputTokenCount: this.cacheWrite,
      reasoningTokenCount: this.thinking,
    });
  }

  /** The merged usage object as sent (frozen, own keys only), or null when none came. */
  providerUsage(): JsonRecord | null {
    return frozenJsonRecord(this.sent, 'metadata providerUsage');
  }
}
