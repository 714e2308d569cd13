import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import { isJsonObject, nestedTokenCount, tokenCount } from '../../wire/read-json';

/**
 * Converts a Chat Completions `usage` object to a `TokenUsage`: input = `prompt_tokens` (cached
 * tokens already included), output = `completion_tokens` (reasoning included), total =
 * `total_tokens` (else their sum); cache read = `prompt_tokens_details.cached_tokens`, reasoning
 * = `completion_tokens_details.reasoning_tokens`, cache write = null (OpenAI reports none). Null
 * when the value is not a usage object or reports no count at all.
 */
export function openAIChatTokenUsage(usage: unknown): TokenUsage | null {
  if (!isJsonObject(usage)) return null;
  const input = tokenCount(usage.prompt_tokens);
  const output = tokenCount(usage.completion_tokens);
  const total = tokenCount(usage.total_tokens);
  if (input === null && output === null && total === null) return null;
  return tokenUsage(input, output, total, {
    cacheReadInputTokenCount: nestedTokenCount(usage.prompt_tokens_details, 'cached_tokens'),
    reasoningTokenCount: nestedTokenCount(usage.completion_tokens_details, 'reasoning_tokens'),
  });
}
