import type { TokenUsage } from '../../handler/types';
import { isJsonObject, nestedTokenCount, tokenCount } from '../../wire/read-json';
import { countedUsage } from '../kit/counted-usage';
import type { ResponsesUsage } from './openai-responses-wire';

/**
 * The `TokenUsage` of a Responses `usage` object: input = `input_tokens` (cached tokens already
 * included), output = `output_tokens` (reasoning included), total = `total_tokens` (else their
 * sum); cache read = `input_tokens_details.cached_tokens`, reasoning =
 * `output_tokens_details.reasoning_tokens`, cache write = null (OpenAI reports none). Null when
 * it reports no count at all, details included (`countedUsage`).
 */
export function openAIResponsesUsage(value: unknown): TokenUsage | null {
  if (!isJsonObject(value)) return null;
  const usage: ResponsesUsage = value;
  return countedUsage(tokenCount(usage.input_tokens), tokenCount(usage.output_tokens), tokenCount(usage.total_tokens), {
    cacheReadInputTokenCount: nestedTokenCount(usage.input_tokens_details, 'cached_tokens'),
    reasoningTokenCount: nestedTokenCount(usage.output_tokens_details, 'reasoning_tokens'),
  });
}
