import type { FinishReason } from '../../handler/types';

/**
 * The finish reason a response reports, from the provider's reason as mapped (null when it sent
 * none) and the number of tool calls that *completed* (were reported through
 * `onCompleteToolCall`; a call cut off or never named does not count):
 * - a stop for length stays `LENGTH`, even when calls completed (another may have been cut off);
 * - otherwise `TOOL_EXECUTION` when a call completed (the caller has tools to run, whatever the
 *   provider said);
 * - otherwise the mapped reason — except a provider's claim of tool calls when none completed,
 *   which becomes `OTHER`.
 */
export function resolveFinishReason(mapped: FinishReason | null, completedToolCalls: number): FinishReason | null {
  if (mapped === 'LENGTH') return mapped;
  if (completedToolCalls > 0) return 'TOOL_EXECUTION';
  return mapped === 'TOOL_EXECUTION' ? 'OTHER' : mapped;
}
