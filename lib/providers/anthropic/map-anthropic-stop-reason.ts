import type { FinishReason } from '../../handler/types';

/**
 * Maps a Messages `stop_reason` to a `FinishReason`: `end_turn` / `stop_sequence` → STOP,
 * `max_tokens` / `model_context_window_exceeded` → LENGTH, `tool_use` → TOOL_EXECUTION,
 * `refusal` → CONTENT_FILTER, any other value (`pause_turn`, …) → OTHER; null (none seen) stays null.
 */
export function mapAnthropicStopReason(stopReason: string | null): FinishReason | null {
  switch (stopReason) {
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
    case 'refusal':
      return 'CONTENT_FILTER';
    default:
      return 'OTHER';
  }
}
