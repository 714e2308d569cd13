import type { TokenUsage } from '../handler/types';

/**
 * Keeps, per token-count field, the last positive value reported, and per detail (cache read,
 * cache write, reasoning) the last value reported at all — a detail of 0 is a count the provider
 * made, while a null one says nothing. Null until some chunk reports a count or a detail.
 */
export class UsageAccumulator {
  private input: number | null = null;
  private output: number | null = null;
  private total: number | null = null;
  private cacheRead: number | null = null;
  private cacheWrite: number | null = null;
  private reasoning: number | null = null;

  /** Folds in one chunk's usage; a usage without positive counts or reported details changes nothing. */
  add(usage: TokenUsage): void {
    if (isPositive(usage.inputTokenCount)) this.input = usage.inputTokenCount;
    if (isPositive(usage.outputTokenCount)) this.output = usage.outputTokenCount;
    if (isPositive(usage.totalTokenCount)) this.total = usage.totalTokenCount;
    // A usage object made before the details existed has them undefined: nothing reported.
    if (isCount(usage.cacheReadInputTokenCount)) this.cacheRead = usage.cacheReadInputTokenCount;
    if (isCount(usage.cacheWriteInputTokenCount)) this.cacheWrite = usage.cacheWriteInputTokenCount;
    if (isCount(usage.reasoningTokenCount)) this.reasoning = usage.reasoningTokenCount;
  }

  /** The accumulated usage, or null when no chunk reported any tokens. */
  result(): TokenUsage | null {
    if (this.input === null && this.output === null && this.total === null && this.cacheRead === null && this.cacheWrite === null && this.reasoning === null) {
      return null;
    }
    return Object.freeze({
      inputTokenCount: this.input,
      outputTokenCount: this.output,
      totalTokenCount: this.total,
      cacheReadInputTokenCount: this.cacheRead,
      cacheWriteInputTokenCount: this.cacheWrite,
      reasoningTokenCount: this.reasoning,
    });
  }
}

function isPositive(value: number | null | undefined): value is number {
  return typeof value === 'number' && value > 0;
}

function isCount(value: number | null | undefined): value is number {
  return typeof value === 'number' && value >= 0;
}
