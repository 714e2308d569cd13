import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import { tokenCount } from '../../wire/read-json';
import type { GeminiUsageMetadata } from './gemini-wire';

/** Adds two counts; null when neither was reported. */
function sum(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

/**
 * The `TokenUsage` of a Gemini `usageMetadata`: input = `promptTokenCount` +
 * `toolUsePromptTokenCount` (the prompt of a server-side tool is billed as input), output =
 * `candidatesTokenCount` + `thoughtsTokenCount` (thinking is billed as output), total =
 * `totalTokenCount` (else their sum); reasoning = `thoughtsTokenCount`, cache read =
 * `cachedContentTokenCount`, cache write = null (Gemini reports none). Null when it reports none
 * of them (e.g. only `trafficType`).
 */
export function geminiUsage(usage: GeminiUsageMetadata | null | undefined): TokenUsage | null {
  if (usage === null || typeof usage !== 'object') return null;
  const input = sum(tokenCount(usage.promptTokenCount), tokenCount(usage.toolUsePromptTokenCount));
  const thoughts = tokenCount(usage.thoughtsTokenCount);
  const output = sum(tokenCount(usage.candidatesTokenCount), thoughts);
  const total = tokenCount(usage.totalTokenCount);
  const cacheRead = tokenCount(usage.cachedContentTokenCount);
  if (input === null && output === null && total === null && cacheRead === null) return null;
  return tokenUsage(input, output, total, { cacheReadInputTokenCount: cacheRead, reasoningTokenCount: thoughts });
}
