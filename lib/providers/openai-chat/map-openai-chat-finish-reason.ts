import type { FinishReason } from '../../handler/types';

/**
 * Maps a Chat Completions `finish_reason` to a `FinishReason`: `stop` → STOP, `length` → LENGTH,
 * `tool_calls` / `function_call` → TOOL_EXECUTION, `content_filter` → CONTENT_FILTER, any other
 * value → OTHER; null (no finish reason seen) stays null.
 */
export function mapOpenAIChatFinishReason(finishReason: string | null): FinishReason | null {
  switch (finishReason) {
    case null:
      return null;
    case 'stop':
      return 'STOP';
    case 'length':
      return 'LENGTH';
    case 'tool_calls':
    case 'function_call':
      return 'TOOL_EXECUTION';
    case 'content_filter':
      return 'CONTENT_FILTER';
    default:
      return 'OTHER';
  }
}
