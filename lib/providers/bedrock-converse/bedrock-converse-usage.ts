import type { TokenUsage } from '../../handler/types';
import { tokenCount, type JsonObject } from '../../wire/read-json';
import { countedUsage, sumCounts } from '../kit/counted-usage';

/**
 * The token usage of a Converse stream, from its `metadata.usage` (sent once, after
 * `messageStop`): input = `inputTokens` + `cacheReadInputTokens` + `cacheWriteInputTokens`
 * (Bedrock counts cached tokens apart from `inputTokens`, as Anthropic does); output =
 * `outputTokens`; total = `totalTokens` as sent (else their sum); cache read / write =
 * `cacheReadInputTokens` / `cacheWriteInputTokens`; no reasoning count (Bedrock sends none). The
 * mapper keeps the object as sent (`providerUsage`); a later one replaces an earlier one whole.
 */
export function bedrockTokenUsage(usage: JsonObject): TokenUsage | null {
  const cacheRead = tokenCount(usage.cacheReadInputTokens);
  const cacheWrite = tokenCount(usage.cacheWriteInputTokens);
  return countedUsage(sumCounts(tokenCount(usage.inputTokens), cacheRead, cacheWrite), tokenCount(usage.outputTokens), tokenCount(usage.totalTokens), {
    cacheReadInputTokenCount: cacheRead,
    cacheWriteInputTokenCount: cacheWrite,
  });
}
