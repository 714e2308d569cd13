import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../kit/provider-fields';
import type { JsonObject } from '../../wire/read-json';
import { OLLAMA_USAGE_FIELDS } from './ollama-usage';

/** Line fields kept elsewhere: model, message (parts), done, done_reason, error. */
const NOT_METADATA: ReadonlySet<string> = new Set(['model', 'message', 'done', 'done_reason', 'error', ...OLLAMA_USAGE_FIELDS]);

/**
 * The `providerMetadata` of an Ollama stream: every field of the `done: true` line other than
 * `model`, `message`, `done`, `done_reason`, `error` and the usage counts and timings (those are
 * `providerUsage`) — e.g. `created_at`, and a cloud model's `remote_model` / `remote_host`.
 * Null when there is none.
 */
export function ollamaMetadata(line: JsonObject): JsonRecord | null {
  const fields = new ProviderFields();
  fields.noteAll(line, NOT_METADATA);
  return fields.record();
}
