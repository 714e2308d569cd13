import type { TokenUsage } from '../../handler/types';
import { isJsonObject, tokenCount } from '../../wire/read-json';
import { countedUsage, sumCounts } from '../kit/counted-usage';
import type { GeminiUsageMetadata } from './gemini-wire';

/**
 * The `TokenUsage` of a Gemini `usageMetadata`: input = `promptTokenCount` +
 * `toolUsePromptTokenCount` (the prompt of a server-side tool is billed as input), output =
 * `candidatesTokenCount` + `thoughtsTokenCount` (thinking is billed as output), total =
 * `totalTokenCount` (else their sum); reasoning = `thoughtsTokenCount`, cache read =
 * `cachedContentTokenCount`, cache write = null (Gemini reports none). Null when it reports no
 * count (e.g. only `trafficType`: `countedUsage`).
 */
export function geminiUsage(value: unknown): TokenUsage | null {
  if (!isJsonObject(value)) return null;
  const usage: GeminiUsageMetadata = value;
  const input = sumCounts(tokenCount(usage.promptTokenCount), tokenCount(usage.toolUsePromptTokenCount));
  const thoughts = tokenCount(usage.thoughtsTokenCount);
  const output = sumCounts(tokenCount(usage.candidatesTokenCount), thoughts);
  const total = tokenCount(usage.totalTokenCount);
  return countedUsage(input, output, total, { cacheReadInputTokenCount: tokenCount(usage.cachedContentTokenCount), reasoningTokenCount: thoughts });
}
