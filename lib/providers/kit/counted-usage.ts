import type { TokenUsage, TokenUsageDetails } from '../../handler/types';
import { tokenUsage } from '../../handler/values';

/**
 * The `TokenUsage` of the counts a provider's usage reports, one rule for every provider: null
 * when it reports no count at all — no input, output or total count and no detail (a usage object
 * that is empty, or holds only fields such as `service_tier`, is no usage) — else the counts
 * (the total their sum when the provider sends none; an unreported detail null, SPEC §10).
 */
export function countedUsage(input: number | null, output: number | null, total: number | null, details: TokenUsageDetails = {}): TokenUsage | null {
  if (
    input === null &&
    output === null &&
    total === null &&
    (details.cacheReadInputTokenCount ?? null) === null &&
    (details.cacheWriteInputTokenCount ?? null) === null &&
    (details.reasoningTokenCount ?? null) === null
  ) {
    return null;
  }
  return tokenUsage(input, output, total, details);
}

/** The sum of the counts that were reported (a provider that splits one count in parts); null when none was. */
export function sumCounts(...counts: ReadonlyArray<number | null>): number | null {
  let total: number | null = null;
  for (const count of counts) if (count !== null) total = (total ?? 0) + count;
  return total;
}
