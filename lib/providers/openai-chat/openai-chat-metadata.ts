import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../shared/provider-fields';
import type { JsonObject } from '../shared/read-json';

/** Chunk fields kept elsewhere (`choices` as parts, `usage` as providerUsage, id and model) or that vary per chunk as noise (`obfuscation`). */
const NOT_METADATA: ReadonlySet<string> = new Set(['choices', 'usage', 'id', 'model', 'object', 'obfuscation', 'error']);

/**
 * The `providerMetadata` of a Chat Completions stream: every top-level field of its first and
 * last chunks other than `choices`, `usage`, `id`, `model`, `object`, `obfuscation` and
 * `error` — e.g. `created`, `system_fingerprint`, `service_tier`, and a compatible server's own
 * fields (OpenRouter's `provider`, Perplexity's `citations`); the last chunk's value wins. Every
 * chunk repeats the envelope, so only two chunks are kept (by reference) and read once at the end.
 */
export class OpenAIChatMetadata {
  private first: JsonObject | null = null;
  private last: JsonObject | null = null;

  /** Remembers a chunk (a reference, no copy: this runs once per token). */
  note(chunk: JsonObject): void {
    if (this.first === null) this.first = chunk;
    else this.last = chunk;
  }

  /** The fields of the first and last chunks, frozen, or null when they carry none. */
  providerMetadata(): JsonRecord | null {
    const fields = new ProviderFields();
    if (this.first !== null) fields.noteAll(this.first, NOT_METADATA);
    if (this.last !== null) fields.noteAll(this.last, NOT_METADATA);
    return fields.record();
  }
}
