import type { FinishReason } from '../../handler/types';

/**
 * The finish reason of an OpenAI Responses response from its `status` (`completed` → `STOP`)
 * and, for `incomplete`, its `incomplete_details.reason` (`max_output_tokens` → `LENGTH`,
 * `content_filter` → `CONTENT_FILTER`); anything else is `OTHER`. (Tool calls turn it into
 * `TOOL_EXECUTION`; the mapper applies that.)
 */
export function mapOpenAIResponsesFinishReason(status: string | null, incompleteReason: string | null): FinishReason {
  if (status === 'completed') return 'STOP';
  if (status !== 'incomplete') return 'OTHER';
  switch (incompleteReason) {
    case 'max_output_tokens':
      return 'LENGTH';
    case 'content_filter':
      return 'CONTENT_FILTER';
    default:
      return 'OTHER';
  }
}
