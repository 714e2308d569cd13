import type { RelayBatch } from './response-store';

const decoder = new TextDecoder();

/**
 * A batch as the producer wrote it: the UTF-8 of its SSE text (`bytes`), which a store keeps or
 * sends as it is; `text` is decoded from them on first use (a viewer's read), then kept. Not
 * frozen: a store may keep thousands per response, and V8 keeps a frozen object that later caches
 * a value in a slower form; nothing writes to it but its own `text`.
 */
export class EncodedBatch implements RelayBatch {
  private decoded: string | null = null;

  constructor(
    readonly first: number,
    readonly last: number,
    readonly terminal: boolean,
    readonly bytes: Uint8Array,
  ) {}

  get text(): string {
    if (this.decoded === null) this.decoded = decoder.decode(this.bytes);
    return this.decoded;
  }
}
