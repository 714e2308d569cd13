import { QUOTED } from './sniff-verdicts';

/**
 * The line a `FormatSniffer` is reading, gathered from the pieces of text it arrives in: its
 * fragments (joined once, by `take`), its length and its first `QUOTED` characters (what an error
 * quotes). Linear in the text however it is split.
 */
export class SniffLine {
  private fragments: string[] = [];
  /** The characters gathered since the last `take`. */
  length = 0;
  /** The first `QUOTED` of them. */
  head = '';
  /** True when the last character gathered is a CR (the first half of a CRLF, in NDJSON). */
  endsWithCr = false;

  /** Adds `text` from `from` to `to`. */
  extend(text: string, from: number, to: number): void {
    if (to <= from) return;
    this.length += to - from;
    if (this.head.length < QUOTED) this.head += text.slice(from, Math.min(to, from + QUOTED - this.head.length));
    this.fragments.push(text.slice(from, to));
    this.endsWithCr = text.charCodeAt(to - 1) === 0x0d;
  }

  /** The line gathered so far, joined; starts the next one. */
  take(): string {
    const line = this.fragments.length === 1 ? (this.fragments[0] as string) : this.fragments.join('');
    this.clear();
    return line;
  }

  /** Lets go of what was gathered. */
  clear(): void {
    this.fragments = [];
    this.length = 0;
    this.head = '';
    this.endsWithCr = false;
  }
}
