import { describeValue } from '../parts/describe-value';
import { RAW_RESPONSE_HINT } from './byte-source';

/** Turns byte or string chunks into text, one chunk at a time. */
export interface Utf8ChunkDecoder {
  /**
   * Decode the next chunk. A UTF-8 character split across chunks comes out whole with the chunk
   * that completes it; a leading byte-order mark is dropped. Throws a `TypeError` for a chunk
   * that is neither a `Uint8Array` nor a string.
   */
  decode(chunk: Uint8Array | string): string;
  /** The source ended: the text of any bytes still held (an incomplete character becomes U+FFFD). */
  end(): string;
}

const BOM = 0xfeff;

/**
 * Creates a streaming UTF-8 decoder (`TextDecoder` with `stream: true`) that also accepts string
 * chunks, so one source may mix both. Malformed bytes become U+FFFD rather than failing the stream.
 */
export function createUtf8ChunkDecoder(): Utf8ChunkDecoder {
  // The BOM is stripped here, once, rather than by TextDecoder: flushing the TextDecoder before a
  // string chunk resets it, and it would then strip a second "BOM" in the middle of the text.
  const bytes = new TextDecoder('utf-8', { ignoreBOM: true });
  let holdsBytes = false;
  let atStart = true;

  function stripBom(text: string): string {
    if (!atStart || text === '') return text;
    atStart = false;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }

  return {
    decode(chunk) {
      if (typeof chunk === 'string') {
        const held = holdsBytes ? bytes.decode() : '';
        holdsBytes = false;
        return stripBom(held === '' ? chunk : held + chunk);
      }
      if (!(chunk instanceof Uint8Array)) {
        // A plain object is most likely an SDK's parsed event: say what to pass instead.
        const hint = typeof chunk === 'object' && chunk !== null ? ` (a parsed event, not bytes: pass the raw response instead, e.g. an SDK's ${RAW_RESPONSE_HINT})` : '';
        throw new TypeError(`Expected a Uint8Array or string chunk, got ${describeValue(chunk)}${hint}`);
      }
      holdsBytes = true;
      return stripBom(bytes.decode(chunk, { stream: true }));
    },
    end() {
      if (!holdsBytes) return '';
      holdsBytes = false;
      return stripBom(bytes.decode());
    },
  };
}
