import type { FrameDecoder, FrameDecoderEnd, NdjsonLine } from './frame-decoder';
import { isBlank } from './is-blank';

const NO_LINES: readonly NdjsonLine[] = Object.freeze([]);

function parseLine(text: string): NdjsonLine | null {
  if (isBlank(text)) return null;
  try {
    return Object.freeze({ ok: true as const, value: JSON.parse(text) as unknown });
  } catch {
    return Object.freeze({ ok: false as const, text });
  }
}

/**
 * Creates a newline-delimited JSON decoder: every non-blank line becomes `{ok: true, value}`, or
 * `{ok: false, text}` (the line untouched, without its line break) when it is not JSON. Lines end
 * at LF, an optional CR before it is dropped. At the end of the text, a last line without its line
 * break is delivered when it parses; otherwise it was cut off and is reported as `truncatedFrame`.
 */
export function createNdjsonDecoder(): FrameDecoder<NdjsonLine> {
  // Fragments of the current line, joined once when its LF arrives.
  const pending: string[] = [];

  function completeLine(end: string): string {
    if (pending.length === 0) return end;
    pending.push(end);
    const line = pending.join('');
    pending.length = 0;
    return line;
  }

  function stripCr(line: string): string {
    return line.charCodeAt(line.length - 1) === 0x0d ? line.slice(0, -1) : line;
  }

  return {
    feed(text) {
      let lf = text.indexOf('\n');
      if (lf === -1) {
        if (text !== '') pending.push(text);
        return NO_LINES;
      }
      const out: NdjsonLine[] = [];
      let start = 0;
      while (lf !== -1) {
        const line = parseLine(stripCr(completeLine(text.slice(start, lf))));
        if (line !== null) out.push(line);
        start = lf + 1;
        lf = text.indexOf('\n', start);
      }
      if (start < text.length) pending.push(text.slice(start));
      return out;
    },
    flush(): FrameDecoderEnd<NdjsonLine> {
      const tail = stripCr(completeLine(''));
      const line = parseLine(tail);
      if (line === null) return { frames: NO_LINES, truncatedFrame: false };
      if (!line.ok) return { frames: NO_LINES, truncatedFrame: true };
      return { frames: [line], truncatedFrame: false };
    },
    ended: false,
  };
}
