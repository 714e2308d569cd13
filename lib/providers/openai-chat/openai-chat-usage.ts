import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import { isJsonObject, tokenCount } from '../shared/read-json';

/**
 * Converts a Chat Completions `usage` object to a `TokenUsage` (`prompt_tokens`,
 * `completion_tokens`, `total_tokens`; the total defaults to their sum); null when the value is
 * not a usage object or reports no count at all.
 */
export function openAIChatTokenUsage(usage: unknown): TokenUsage | null {
  if (!isJsonObject(usage)) return null;
  const input = tokenCount(usage.prompt_tokens);
  const output = tokenCount(usage.completion_tokens);
  const total = tokenCount(usage.total_tokens);
  if (input === null && output === null && total === null) return null;
  return tokenUsage(input, output, total);
}
