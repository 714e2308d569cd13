import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import type { GeminiUsageMetadata } from './gemini-wire';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The `TokenUsage` of a Gemini `usageMetadata`: input = `promptTokenCount`, output =
 * `candidatesTokenCount` plus `thoughtsTokenCount` (thinking is billed as output), total =
 * `totalTokenCount`. Null when it reports none of them (e.g. only `trafficType`).
 */
export function geminiUsage(usage: GeminiUsageMetadata | null | undefined): TokenUsage | null {
  if (usage === null || typeof usage !== 'object') return null;
  const input = count(usage.promptTokenCount);
  const candidates = count(usage.candidatesTokenCount);
  const thoughts = count(usage.thoughtsTokenCount);
  const total = count(usage.totalTokenCount);
  const output = candidates === null && thoughts === null ? null : (candidates ?? 0) + (thoughts ?? 0);
  if (input === null && output === null && total === null) return null;
  return tokenUsage(input, output, total);
}
