import type { StreamError } from '../handler/stream-error';
import { frameTooLarge, type FrameDecoder, type FrameDecoderEnd, type NdjsonLine } from './frame-decoder';
import { detachedSlice } from './detached-slice';
import { freshArray } from './fresh-array';
import { HeldLine } from './held-line';
import { isBlank } from './is-blank';

const NO_LINES: readonly NdjsonLine[] = Object.freeze([]);

/** Reads one line's JSON: `JSON.parse`, or a parser that returns what it returns and throws where it throws. */
export type NdjsonLineParser = (text: string) => unknown;

// Classes rather than object literals, for the reason `freshArray` gives (V8 pretenures literals,
// not class instances); readonly by type, not frozen (freezing one object per line is measurable).
class ParsedLine {
  readonly ok = true as const;
  constructor(readonly value: unknown) {}
}

class UnparsedLine {
  readonly ok = false as const;
  constructor(readonly text: string) {}
}

function parseLine(text: string, parse: NdjsonLineParser): NdjsonLine | null {
  if (isBlank(text)) return null;
  try {
    return new ParsedLine(parse(text));
  } catch {
    return new UnparsedLine(text);
  }
}

/**
 * Creates a newline-delimited JSON decoder: every non-blank line becomes `{ok: true, value}`, or
 * `{ok: false, text}` (the line untouched, without its line break) when it is not JSON. Lines end
 * at LF, an optional CR before it is dropped. At the end of the text, a last line without its line
 * break is delivered when it parses; otherwise it was cut off and is reported as `truncatedFrame`.
 *
 * A line is limited to `maxFrameBytes` characters (UTF-16 code units, everything before its LF or
 * CRLF; a lone CR inside a line is one of its characters):
 * once the line still arriving is longer, decoding stops with a `malformed` `failure` and the line
 * is not buffered any further.
 *
 * `parse` (default `JSON.parse`) reads each line; a format may supply a faster reader that gives
 * the same values and throws on the same lines.
 */
export function createNdjsonDecoder(maxFrameBytes: number = Infinity, parse: NdjsonLineParser = JSON.parse): FrameDecoder<NdjsonLine> {
  return new NdjsonDecoder(maxFrameBytes, parse);
}

function endsWithCr(text: string): boolean {
  return text.charCodeAt(text.length - 1) === 0x0d;
}

function stripCr(line: string): string {
  return endsWithCr(line) ? line.slice(0, -1) : line;
}

/** The characters of a line (or of its part so far) that count against the limit: a CR that may end it never does. */
function countedLength(text: string): number {
  return endsWithCr(text) ? text.length - 1 : text.length;
}

/** `createNdjsonDecoder`'s decoder: a class, so a stream's decoder is one object of a shared shape. */
class NdjsonDecoder implements FrameDecoder<NdjsonLine> {
  // The line still arriving.
  private readonly pending = new HeldLine();
  failure: StreamError | null = null;
  readonly ended = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly parse: NdjsonLineParser,
  ) {}

  feed(text: string): readonly NdjsonLine[] {
    if (this.failure !== null) return NO_LINES;
    let lf = text.indexOf('\n');
    if (lf === -1) {
      if (text !== '') this.hold(text);
      return NO_LINES;
    }
    const out: NdjsonLine[] = freshArray();
    let start = 0;
    while (lf !== -1) {
      const raw = this.completeLine(text.slice(start, lf));
      if (countedLength(raw) > this.maxFrameBytes) {
        this.fail();
        return out;
      }
      const line = parseLine(stripCr(raw), this.parse);
      if (line !== null) out.push(line);
      start = lf + 1;
      lf = text.indexOf('\n', start);
    }
    if (start < text.length) this.hold(detachedSlice(text, start));
    return out;
  }

  flush(): FrameDecoderEnd<NdjsonLine> {
    if (this.failure !== null) return { frames: NO_LINES, truncatedFrame: false };
    const tail = stripCr(this.completeLine(''));
    const line = parseLine(tail, this.parse);
    if (line === null) return { frames: NO_LINES, truncatedFrame: false };
    if (!line.ok) return { frames: NO_LINES, truncatedFrame: true };
    const frames: NdjsonLine[] = freshArray();
    frames.push(line);
    return { frames, truncatedFrame: false };
  }

  private fail(): void {
    this.failure = frameTooLarge('An NDJSON line', this.maxFrameBytes);
    this.pending.clear();
  }

  private hold(fragment: string): void {
    this.pending.hold(fragment);
    // A CR at the end may be the first half of a CRLF (or end the last line): not counted until more follows.
    if (this.pending.length - (endsWithCr(fragment) ? 1 : 0) > this.maxFrameBytes) this.fail();
  }

  private completeLine(end: string): string {
    return this.pending.take(end);
  }
}
