import type { RelayBatch } from './response-store';

const decoder = new TextDecoder();

/**
 * A batch as the producer wrote it: the UTF-8 of its SSE text (`bytes`), which a store keeps or
 * sends as it is; `text` is decoded from them on first use (a viewer's read), then kept.
 */
export class EncodedBatch implements RelayBatch {
  #text: string | null = null;

  constructor(
    readonly first: number,
    readonly last: number,
    readonly terminal: boolean,
    readonly bytes: Uint8Array,
  ) {
    Object.freeze(this);
  }

  get text(): string {
    if (this.#text === null) this.#text = decoder.decode(this.bytes);
    return this.#text;
  }
}
