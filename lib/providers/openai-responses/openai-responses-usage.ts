import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import { nestedTokenCount, tokenCount } from '../../wire/read-json';
import type { ResponsesUsage } from './openai-responses-wire';

/**
 * The `TokenUsage` of a Responses `usage` object: input = `input_tokens` (cached tokens already
 * included), output = `output_tokens` (reasoning included), total = `total_tokens` (else their
 * sum); cache read = `input_tokens_details.cached_tokens`, reasoning =
 * `output_tokens_details.reasoning_tokens`, cache write = null (OpenAI reports none). Null when
 * it reports no count at all.
 */
export function openAIResponsesUsage(usage: ResponsesUsage | null | undefined): TokenUsage | null {
  if (usage === null || typeof usage !== 'object') return null;
  const input = tokenCount(usage.input_tokens);
  const output = tokenCount(usage.output_tokens);
  const total = tokenCount(usage.total_tokens);
  if (input === null && output === null && total === null) return null;
  return tokenUsage(input, output, total, {
    cacheReadInputTokenCount: nestedTokenCount(usage.input_tokens_details, 'cached_tokens'),
    reasoningTokenCount: nestedTokenCount(usage.output_tokens_details, 'reasoning_tokens'),
  });
}
