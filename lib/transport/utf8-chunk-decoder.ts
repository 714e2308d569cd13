import { describeValue } from '../parts/describe-value';
import { RAW_RESPONSE_HINT } from './byte-source';

const BOM = 0xfeff;
/** `TextDecoder.decode`'s options for a chunk, made once. */
const STREAMING: { readonly stream: true } = Object.freeze({ stream: true });

/**
 * Turns byte or string chunks into text, one chunk at a time: a streaming UTF-8 decoder
 * (`TextDecoder` with `stream: true`) that also accepts string chunks, so one source may mix both.
 * Malformed bytes become U+FFFD rather than failing the stream. A class: one shape, no closures
 * per stream.
 */
export class Utf8Decoder {
  // The BOM is stripped here, once, rather than by TextDecoder: flushing the TextDecoder before a
  // string chunk resets it, and it would then strip a second "BOM" in the middle of the text.
  private readonly bytes = new TextDecoder('utf-8', { ignoreBOM: true });
  private holdsBytes = false;
  private atStart = true;

  /**
   * Decode the next chunk. A UTF-8 character split across chunks comes out whole with the chunk
   * that completes it; a leading byte-order mark is dropped. Throws a `TypeError` for a chunk
   * that is neither a `Uint8Array` nor a string.
   */
  decode(chunk: Uint8Array | string): string {
    if (typeof chunk === 'string') {
      const held = this.holdsBytes ? this.bytes.decode() : '';
      this.holdsBytes = false;
      return this.stripBom(held === '' ? chunk : held + chunk);
    }
    if (!(chunk instanceof Uint8Array)) {
      // A plain object is most likely an SDK's parsed event: say what to pass instead.
      const hint = typeof chunk === 'object' && chunk !== null ? ` (a parsed event, not bytes: pass the raw response instead, e.g. an SDK's ${RAW_RESPONSE_HINT})` : '';
      throw new TypeError(`Expected a Uint8Array or string chunk, got ${describeValue(chunk)}${hint}`);
    }
    this.holdsBytes = true;
    return this.stripBom(this.bytes.decode(chunk, STREAMING));
  }

  /** The source ended: the text of any bytes still held (an incomplete character becomes U+FFFD). */
  end(): string {
    if (!this.holdsBytes) return '';
    this.holdsBytes = false;
    return this.stripBom(this.bytes.decode());
  }

  private stripBom(text: string): string {
    if (!this.atStart || text === '') return text;
    this.atStart = false;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }
}
