import type { TokenUsage } from '../../handler/types';
import { tokenUsage } from '../../handler/values';
import type { OllamaLine } from './ollama-wire';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The `TokenUsage` of Ollama's final line: input = `prompt_eval_count`, output = `eval_count`,
 * total = their sum. Null when the line reports neither.
 */
export function ollamaUsage(line: OllamaLine): TokenUsage | null {
  const input = count(line.prompt_eval_count);
  const output = count(line.eval_count);
  return input === null && output === null ? null : tokenUsage(input, output);
}
