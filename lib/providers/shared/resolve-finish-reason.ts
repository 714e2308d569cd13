import type { FinishReason } from '../../handler/types';

/**
 * The finish reason a response reports: `TOOL_EXECUTION` whenever it made tool calls (the caller
 * has tools to run, whatever the provider said), else the provider's reason as mapped (null when
 * the provider sent none).
 */
export function resolveFinishReason(mapped: FinishReason | null, toolCallCount: number): FinishReason | null {
  return toolCallCount > 0 ? 'TOOL_EXECUTION' : mapped;
}
