import { frozenJsonRecord } from '../../handler/frozen-json';
import type { JsonRecord } from '../../handler/types';
import type { JsonObject } from '../../wire/read-json';

/**
 * Collects response-level fields a provider sent, for `metadata.providerMetadata`: the last
 * value of each key wins, and keys keep the order they were first seen in. Values are held by
 * reference (no copy per event) and copied once, deep-frozen, by `record()`.
 */
export class ProviderFields {
  private readonly fields = new Map<string, unknown>();

  /** Notes every own field of `source` except the `excluded` ones. */
  noteAll(source: JsonObject, excluded: ReadonlySet<string>): void {
    // for…in with an own-key check: no key array per event (Gemini notes every chunk).
    for (const key in source) {
      if (Object.prototype.hasOwnProperty.call(source, key) && !excluded.has(key)) this.fields.set(key, source[key]);
    }
  }

  /** The fields noted so far as a frozen JSON record (`__proto__` an own key), or null when none. */
  record(): JsonRecord | null {
    return frozenJsonRecord(this.fields, 'metadata providerMetadata');
  }
}
