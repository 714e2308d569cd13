import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../kit/provider-fields';
import type { JsonObject } from '../../wire/read-json';

/** Chunk fields kept elsewhere (`choices` as parts, `usage` as providerUsage, id and model) or that vary per chunk as noise (`obfuscation`). */
const NOT_METADATA: ReadonlySet<string> = new Set(['choices', 'usage', 'id', 'model', 'object', 'obfuscation', 'error']);

/**
 * The `providerMetadata` of a Chat Completions stream: every top-level field of its first chunk,
 * of the chunk that finished choice 0 and of the chunk whose usage was kept, other than
 * `choices`, `usage`, `id`, `model`, `object`, `obfuscation` and `error` — e.g. `created`,
 * `system_fingerprint`, `service_tier`, and a compatible server's own fields (OpenRouter's
 * `provider`, Perplexity's `citations`); a later chunk's value wins. Every chunk repeats the
 * envelope, so only those chunks are kept (by reference, nothing is done per token) and read
 * once at the end.
 */
export class OpenAIChatMetadata {
  private first: JsonObject | null = null;
  private finish: JsonObject | null = null;
  private usage: JsonObject | null = null;

  /** Remembers the stream's first chunk. */
  noteFirst(chunk: JsonObject): void {
    this.first = chunk;
  }

  /** Remembers the chunk that carried choice 0's finish reason. */
  noteFinish(chunk: JsonObject): void {
    this.finish = chunk;
  }

  /** Remembers the chunk whose usage is kept. */
  noteUsage(chunk: JsonObject): void {
    this.usage = chunk;
  }

  /** The fields of those chunks, frozen, or null when they carry none. */
  providerMetadata(): JsonRecord | null {
    const fields = new ProviderFields();
    for (const chunk of [this.first, this.finish, this.usage]) if (chunk !== null) fields.noteAll(chunk, NOT_METADATA);
    return fields.record();
  }
}
