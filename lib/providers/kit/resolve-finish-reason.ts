import type { FinishReason } from '../../handler/types';

/**
 * The finish reason a response reports, one rule for every provider (SPEC §10), from the
 * provider's reason as mapped and the number of client tool calls the response *completed*:
 *
 * - `LENGTH`, `CONTENT_FILTER` and `OTHER` stand, even when tool calls were made (a call cut off
 *   by the length limit is no call to run; an unknown reason such as `pause_turn` is for the
 *   caller to read in `providerFinishReason`);
 * - otherwise (a normal stop, a tool-use stop, or no reason at all) completed calls make it
 *   `TOOL_EXECUTION` — Gemini, Ollama and Responses say `STOP` / `stop` / `completed` there;
 * - a tool-use stop without a single completed call is `OTHER`: there is no call to run;
 * - else the mapped reason (null when the provider sent none).
 */
export function resolveFinishReason(mapped: FinishReason | null, completedToolCalls: number): FinishReason | null {
  switch (mapped) {
    case 'LENGTH':
    case 'CONTENT_FILTER':
    case 'OTHER':
      return mapped;
    case 'TOOL_EXECUTION':
      return completedToolCalls > 0 ? mapped : 'OTHER';
    case 'STOP':
    case null:
      return completedToolCalls > 0 ? 'TOOL_EXECUTION' : mapped;
    default:
      return unreachable(mapped);
  }
}

function unreachable(value: never): never {
  throw new TypeError(`Expected a finish reason, got ${String(value)}`);
}
