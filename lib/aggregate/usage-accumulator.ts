import type { TokenUsage } from '../handler/types';

/** Keeps, per token-count field, the last positive value reported; null until one is. */
export class UsageAccumulator {
  private input: number | null = null;
  private output: number | null = null;
  private total: number | null = null;

  /** Folds in one chunk's usage; a usage without positive counts changes nothing. */
  add(usage: TokenUsage): void {
    if (isPositive(usage.inputTokenCount)) this.input = usage.inputTokenCount;
    if (isPositive(usage.outputTokenCount)) this.output = usage.outputTokenCount;
    if (isPositive(usage.totalTokenCount)) this.total = usage.totalTokenCount;
  }

  /** The accumulated usage, or null when no chunk reported any tokens. */
  result(): TokenUsage | null {
    if (this.input === null && this.output === null && this.total === null) return null;
    return Object.freeze({ inputTokenCount: this.input, outputTokenCount: this.output, totalTokenCount: this.total });
  }
}

function isPositive(value: number | null | undefined): value is number {
  return typeof value === 'number' && value > 0;
}
