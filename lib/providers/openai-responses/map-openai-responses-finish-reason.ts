import type { FinishReason } from '../../handler/types';

/**
 * The finish reason of an OpenAI Responses response from the reason it reports
 * (`providerFinishReason`: `incomplete_details.reason` when there is one, else the `status`):
 * `completed` → `STOP`, `max_output_tokens` → `LENGTH`, `content_filter` → `CONTENT_FILTER`, any
 * other status or reason → `OTHER`; null (none seen) stays null. (Tool calls turn it into
 * `TOOL_EXECUTION`; the mapper applies that.)
 */
export function mapOpenAIResponsesFinishReason(reason: string | null): FinishReason | null {
  switch (reason) {
    case null:
      return null;
    case 'completed':
      return 'STOP';
    case 'max_output_tokens':
      return 'LENGTH';
    case 'content_filter':
      return 'CONTENT_FILTER';
    default:
      return 'OTHER';
  }
}
