import { SNIFF_LIMIT } from '../wire/sniff-format';
import { PROVIDERS } from '../providers/registry';
import { sniffFormat } from '../providers/sniff-body';

/**
 * Keeps the first bytes of a body as its chunks pass (at most `limit`, by default the most format
 * sniffing ever judges), so that a stream that failed under an explicit `--format` can be looked
 * at again. Chunks pass through unchanged and in order; only the kept bytes are held.
 */
export class StreamHead {
  private readonly kept: Uint8Array[] = [];
  private size = 0;
  private cut = false;
  private ended = false;

  constructor(private readonly limit: number = SNIFF_LIMIT) {}

  /** Yields `chunks` as they are, keeping the first `limit` bytes. */
  async *pass(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string, void, undefined> {
    for await (const chunk of chunks) {
      if (!this.cut) this.keep(chunk);
      yield chunk;
    }
    this.ended = true;
  }

  /** The kept bytes as text (invalid UTF-8 replaced), and whether they are the whole body. */
  read(): { readonly text: string; readonly whole: boolean } {
    const bytes = new Uint8Array(this.size);
    let at = 0;
    for (const piece of this.kept) {
      bytes.set(piece, at);
      at += piece.length;
    }
    return { text: new TextDecoder().decode(bytes), whole: this.ended && !this.cut };
  }

  private keep(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    const room = this.limit - this.size;
    if (bytes.length > room) this.cut = true;
    // A copy: the source may reuse its buffer for the next chunk.
    const piece = bytes.slice(0, Math.min(room, bytes.length));
    this.kept.push(piece);
    this.size += piece.length;
  }
}

/**
 * When a stream read as `given` failed, says which other format its first bytes look like — `;
 * the bytes look like an OpenAI Chat Completions stream: try --format openai-chat` — by running
 * the auto-detection on them; an empty string when they look like `given` or like no known format.
 */
export function formatHint(head: StreamHead, given: string): string {
  const { text, whole } = head.read();
  const verdict = sniffFormat(text, whole);
  // The replay command reads provider formats only.
  const found = verdict.type === 'format' ? PROVIDERS.find((descriptor) => descriptor.format === verdict.format) : undefined;
  if (found === undefined || found.format === given) return '';
  // The provider as the failure messages name it, without the framing in parentheses.
  return `; the bytes look like ${found.expected.replace(/ \([^)]*\)$/, '')}: try --format ${found.format}`;
}
