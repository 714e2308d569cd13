import type { FinishReason } from '../../handler/types';

/**
 * The finish reason of Ollama's `done_reason`: `stop` (or none at all, as older servers send) →
 * `STOP`, `length` → `LENGTH`, anything else (e.g. `load`, `unload`) → `OTHER`. (Tool calls turn
 * it into `TOOL_EXECUTION`; the mapper applies that.)
 */
export function mapOllamaFinishReason(doneReason: string | null): FinishReason {
  switch (doneReason) {
    case null:
    case 'stop':
      return 'STOP';
    case 'length':
      return 'LENGTH';
    default:
      return 'OTHER';
  }
}
