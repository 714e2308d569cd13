import type { TokenUsage } from '../../handler/types';
import { isJsonObject, nestedTokenCount, tokenCount } from '../../wire/read-json';
import { countedUsage } from '../kit/counted-usage';

/**
 * Converts a Chat Completions `usage` object to a `TokenUsage`: input = `prompt_tokens` (cached
 * tokens already included), output = `completion_tokens` (reasoning included), total =
 * `total_tokens` (else their sum); cache read = `prompt_tokens_details.cached_tokens`, reasoning
 * = `completion_tokens_details.reasoning_tokens`, cache write = null (OpenAI reports none). Null
 * when the value is not a usage object or reports no count at all, details included (`countedUsage`).
 */
export function openAIChatTokenUsage(usage: unknown): TokenUsage | null {
  if (!isJsonObject(usage)) return null;
  return countedUsage(tokenCount(usage.prompt_tokens), tokenCount(usage.completion_tokens), tokenCount(usage.total_tokens), {
    cacheReadInputTokenCount: nestedTokenCount(usage.prompt_tokens_details, 'cached_tokens'),
    reasoningTokenCount: nestedTokenCount(usage.completion_tokens_details, 'reasoning_tokens'),
  });
}
