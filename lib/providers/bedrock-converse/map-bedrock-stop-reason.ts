import type { FinishReason } from '../../handler/types';

/**
 * Maps a Converse `stopReason` to a `FinishReason`: `end_turn` / `stop_sequence` → STOP,
 * `max_tokens` / `model_context_window_exceeded` → LENGTH, `tool_use` → TOOL_EXECUTION,
 * `guardrail_intervened` / `content_filtered` → CONTENT_FILTER, any other value
 * (`malformed_model_output`, `malformed_tool_use`, …) → OTHER; null (none seen) stays null.
 */
export function mapBedrockStopReason(reason: string | null): FinishReason | null {
  switch (reason) {
    case null:
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return 'STOP';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'LENGTH';
    case 'tool_use':
      return 'TOOL_EXECUTION';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'CONTENT_FILTER';
    default:
      return 'OTHER';
  }
}
