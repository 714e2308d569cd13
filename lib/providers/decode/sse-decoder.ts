import { createParser } from 'eventsource-parser';
import type { SseFrame } from '../types';
import type { FrameDecoder, FrameDecoderEnd } from './frame-decoder';
import { isBlank } from './is-blank';

/** The data of the sentinel frame that ends an OpenAI-style SSE stream. */
export const SSE_DONE = '[DONE]';
const NO_FRAMES: readonly SseFrame[] = Object.freeze([]);

/**
 * A decoded frame. A class rather than an object literal: the frames of one chunk are all alive
 * until the chunk is delivered, and V8, seeing a literal's objects survive a collection together,
 * can start allocating that literal straight into the old generation, where every later frame of
 * the stream then lingers as garbage until a major collection (over 100 MB on a million-token
 * stream). V8 does not do that for class instances.
 */
class Frame implements SseFrame {
  constructor(
    readonly event: string | null,
    readonly data: string,
  ) {}
}

/**
 * Creates a Server-Sent Events decoder (eventsource-parser underneath). Frames come out as
 * `{event, data}` with the data lines joined by "\n", untouched. Comments (keep-alives), `id:` and
 * `retry:` lines and frames without data are never frames. `data: [DONE]` ends the stream: it
 * comes out as the last frame (`{event, data: '[DONE]'}`, see `isSseSentinel`) and sets `ended`.
 *
 * At the end of the text, a frame whose lines all arrived but whose closing blank line did not
 * is still delivered; a frame cut inside a line is reported as `truncatedFrame` and not delivered.
 */
export function createSseDecoder(): FrameDecoder<SseFrame> {
  let out: SseFrame[] = [];
  let ended = false;
  // Fragments of the current, not yet terminated line: only consulted by flush(), to tell a
  // frame cut mid-line from a body that merely lacks its final blank line.
  const lineTail: string[] = [];

  const parser = createParser({
    onEvent(message) {
      if (ended) return;
      const data = message.data;
      if (isBlank(data)) return;
      const event = message.event ?? null;
      if (data.length < 10 && data.trim() === SSE_DONE) {
        ended = true;
        out.push(new Frame(event, SSE_DONE));
        return;
      }
      // Not frozen (SseFrame is readonly by type): freezing one object per frame is measurable.
      out.push(new Frame(event, data));
    },
  });

  function trackLineTail(text: string): void {
    // Only the text after the last line break matters: look for a CR only in that stretch.
    const lastLf = text.lastIndexOf('\n');
    const lastCr = text.indexOf('\r', lastLf + 1) === -1 ? -1 : text.lastIndexOf('\r');
    const lastBreak = Math.max(lastLf, lastCr);
    if (lastBreak === -1) {
      lineTail.push(text);
      return;
    }
    lineTail.length = 0;
    if (lastBreak < text.length - 1) lineTail.push(text.slice(lastBreak + 1));
  }

  function take(): readonly SseFrame[] {
    if (out.length === 0) return NO_FRAMES;
    const frames = out;
    out = [];
    return frames;
  }

  return {
    feed(text) {
      if (ended || text === '') return NO_FRAMES;
      trackLineTail(text);
      parser.feed(text);
      return take();
    },
    flush(): FrameDecoderEnd<SseFrame> {
      if (ended) return { frames: NO_FRAMES, truncatedFrame: false };
      const tail = lineTail.join('');
      lineTail.length = 0;
      if (!isBlank(tail) && tail.charCodeAt(0) !== 0x3a /* ":" comment */) {
        parser.reset();
        return { frames: NO_FRAMES, truncatedFrame: true };
      }
      // Terminate the last line (a lone CR becomes CRLF) and close a frame left open.
      parser.feed('\n\n');
      parser.reset();
      return { frames: take(), truncatedFrame: false };
    },
    get ended() {
      return ended;
    },
  };
}

/** True for the `data: [DONE]` sentinel frame: it ends the stream and is never a raw event. */
export function isSseSentinel(frame: SseFrame): boolean {
  return frame.data === SSE_DONE;
}
