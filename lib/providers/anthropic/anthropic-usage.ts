import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import { isJsonObject, tokenCount } from '../shared/read-json';

/**
 * The token counts of one Messages stream: `message_start.message.usage`, then each
 * `message_delta.usage`, merged field by field (a later count replaces an earlier one; a missing
 * or null field keeps it). `input_tokens` is taken as reported (it excludes cache reads and
 * writes, which Anthropic counts separately).
 */
export class AnthropicUsageTracker {
  private input: number | null = null;
  private output: number | null = null;

  /** Merges one usage object (anything else is ignored). */
  merge(usage: unknown): void {
    if (!isJsonObject(usage)) return;
    this.input = tokenCount(usage.input_tokens) ?? this.input;
    this.output = tokenCount(usage.output_tokens) ?? this.output;
  }

  /** The merged counts (total = input + output), or null when no count was reported. */
  tokenUsage(): TokenUsage | null {
    if (this.input === null && this.output === null) return null;
    return tokenUsage(this.input, this.output);
  }
}
