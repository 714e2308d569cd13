import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import type { ResponsesUsage } from './openai-responses-wire';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The `TokenUsage` of a Responses `usage` object (`input_tokens`, `output_tokens`,
 * `total_tokens`), or null when it reports no count at all.
 */
export function openAIResponsesUsage(usage: ResponsesUsage | null | undefined): TokenUsage | null {
  if (usage === null || typeof usage !== 'object') return null;
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  const total = count(usage.total_tokens);
  if (input === null && output === null && total === null) return null;
  return tokenUsage(input, output, total);
}
