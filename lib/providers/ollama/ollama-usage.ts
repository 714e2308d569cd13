import { frozenJsonRecord } from '../../handler/frozen-json';
import type { JsonRecord, TokenUsage } from '../../handler/types';
import { tokenCount, type JsonObject } from '../../wire/read-json';
import { countedUsage } from '../kit/counted-usage';
import type { OllamaLine } from './ollama-wire';

/** The fields of the `done: true` line that make up Ollama's usage: its counts and timings (nanoseconds). */
export const OLLAMA_USAGE_FIELDS: ReadonlySet<string> = new Set(['total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration']);

/**
 * The `TokenUsage` of Ollama's final line: input = `prompt_eval_count`, output = `eval_count`,
 * total = their sum; no details (Ollama reports no cache or reasoning counts). Null when the
 * line reports neither count.
 */
export function ollamaUsage(line: OllamaLine): TokenUsage | null {
  return countedUsage(tokenCount(line.prompt_eval_count), tokenCount(line.eval_count), null);
}

/**
 * Ollama's usage as sent, for `providerUsage`: the counts and timings of the `done: true` line
 * (`OLLAMA_USAGE_FIELDS`, in the line's order), or null when it has none.
 */
export function ollamaProviderUsage(line: JsonObject): JsonRecord | null {
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(line)) if (OLLAMA_USAGE_FIELDS.has(key)) fields.set(key, line[key]);
  return frozenJsonRecord(fields, 'metadata providerUsage');
}
