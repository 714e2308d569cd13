import type { StreamError } from '../handler/stream-error';
import type { SseFrame } from '../wire/types';
import { frameTooLarge, type FrameDecoder, type FrameDecoderEnd } from './frame-decoder';
import { detached, detachedSlice } from './detached-slice';
import { isBlank } from './is-blank';

/** The data of the sentinel frame that ends an OpenAI-style SSE stream. */
export const SSE_DONE = '[DONE]';
const NO_FRAMES: readonly SseFrame[] = Object.freeze([]);

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COLON = 0x3a;

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

/** True when `text` has the field name `data:` at `at` (char codes: cheaper than `startsWith`). */
function isData(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x64 && text.charCodeAt(at + 1) === 0x61 && text.charCodeAt(at + 2) === 0x74 && text.charCodeAt(at + 3) === 0x61 && text.charCodeAt(at + 4) === COLON;
}

/** True when `text` has the field name `event:` at `at`. */
function isEvent(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x65 &&
    text.charCodeAt(at + 1) === 0x76 &&
    text.charCodeAt(at + 2) === 0x65 &&
    text.charCodeAt(at + 3) === 0x6e &&
    text.charCodeAt(at + 4) === 0x74 &&
    text.charCodeAt(at + 5) === COLON
  );
}

/**
 * Creates a Server-Sent Events decoder. Frames come out as `{event, data}` with the data lines
 * joined by "\n", untouched. Lines end at LF, CRLF or a lone CR (a CRLF split between two texts is
 * one line end). Comments (keep-alives), `id:` and `retry:` lines and frames without data are never
 * frames. `data: [DONE]` ends the stream: it comes out as the last frame (`{event, data: '[DONE]'}`,
 * see `isSseSentinel`) and sets `ended`.
 *
 * An event is limited to `maxFrameBytes` characters (UTF-16 code units) of its lines, comments
 * included and line ends not counted, from the line after the previous event's blank line: once
 * the event so far, with the line still arriving, is longer, decoding stops with a `malformed`
 * `failure` and the event is not buffered any further. Work is linear in the text, however it is
 * split and whatever its line ends.
 *
 * At the end of the text, a frame whose lines all arrived but whose closing blank line did not
 * is still delivered; a frame cut inside a line is reported as `truncatedFrame` and not delivered.
 */
export function createSseDecoder(maxFrameBytes: number = Infinity): FrameDecoder<SseFrame> {
  let out: SseFrame[] = [];
  let ended = false;
  let failure: StreamError | null = null;
  // The event being read, and the characters of its lines so far (for maxFrameBytes).
  let event: string | null = null;
  let data = '';
  let dataLines = 0;
  let frameSize = 0;
  // The line still arriving: fragments joined once, when its line end arrives.
  const pending: string[] = [];
  let pendingLength = 0;
  // The last text ended with a CR: an LF opening the next text completes that CRLF.
  let skipLf = false;
  // A data or event line of the open event was cut from the text being fed (see keepOwnStrings).
  let cutFromText = false;

  function fail(): void {
    failure = frameTooLarge('An SSE event', maxFrameBytes);
    pending.length = 0;
    pendingLength = 0;
    data = '';
  }

  /**
   * An event left open at the end of a text must not keep that text (a whole network chunk) alive
   * through the slices it holds: its event name, and its data while it is a single line, are
   * copied (each line at most once, so a frame costs at most one more copy of itself). A longer
   * data field joins slices of the lines it spans and is left as it is.
   */
  function keepOwnStrings(): void {
    cutFromText = false;
    if (dataLines === 1) data = detached(data);
    if (event !== null) event = detached(event);
  }

  function dispatch(): void {
    if (dataLines > 0) emit(data);
    event = null;
    data = '';
    dataLines = 0;
    frameSize = 0;
  }

  function emit(value: string): void {
    if (isBlank(value)) return;
    if (value.length < 10 && value.trim() === SSE_DONE) {
      ended = true;
      out.push(new Frame(event, SSE_DONE));
      return;
    }
    // Not frozen (SseFrame is readonly by type): freezing one object per frame is measurable.
    out.push(new Frame(event, value));
  }

  /** One complete, non-empty line: `text` from `start` to `end` (its line end excluded). */
  function line(text: string, start: number, end: number): void {
    frameSize += end - start;
    if (frameSize > maxFrameBytes) {
      fail();
      return;
    }
    if (isData(text, start)) {
      const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      data = dataLines === 0 ? value : `${data}\n${value}`;
      dataLines++;
      cutFromText = true;
      return;
    }
    if (isEvent(text, start)) {
      event = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || null;
      cutFromText = true;
      return;
    }
    if (text.charCodeAt(start) === COLON) return;
    // A rarer field (`id`, `retry`, unknown ones: ignored), or `data` / `event` with no colon.
    // Sliced first, so the search for the colon stays inside the line.
    const field = text.slice(start, end);
    const colon = field.indexOf(':');
    const name = colon === -1 ? field : field.slice(0, colon);
    if (name !== 'data' && name !== 'event') return;
    const value = colon === -1 ? '' : field.slice(field.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    cutFromText = true;
    if (name === 'event') {
      event = value || null;
      return;
    }
    data = dataLines === 0 ? value : `${data}\n${value}`;
    dataLines++;
  }

  /**
   * Decodes the lines of `text` from `start`, where `lf` and `cr` are the first LF and CR at or
   * after `start` (-1: none). Each is searched for again only once passed, so the text is scanned
   * once whatever mix of line ends it holds. The unterminated rest is held as a fragment.
   */
  function lines(text: string, start: number, lf: number, cr: number): void {
    const length = text.length;
    while (!ended && failure === null) {
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        end = cr;
        next = cr + 1;
        if (next === length) skipLf = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      if (end === start) dispatch();
      else {
        line(text, start, end);
        // The common `data: …\n\n`: the blank line closing the event is taken at once.
        if (end === lf && text.charCodeAt(next) === LF && failure === null) {
          dispatch();
          next++;
        }
      }
      start = next;
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < length && !ended && failure === null) hold(detachedSlice(text, start));
  }

  function hold(fragment: string): void {
    pending.push(fragment);
    pendingLength += fragment.length;
    if (frameSize + pendingLength > maxFrameBytes) fail();
  }

  function take(): readonly SseFrame[] {
    if (out.length === 0) return NO_FRAMES;
    const frames = out;
    out = [];
    return frames;
  }

  return {
    feed(text) {
      if (ended || failure !== null || text === '') return NO_FRAMES;
      let start = 0;
      if (skipLf) {
        skipLf = false;
        if (text.charCodeAt(0) === LF) start = 1;
      }
      let lf = text.indexOf('\n', start);
      let cr = text.indexOf('\r', start);
      if (pending.length > 0) {
        // Complete the held line with this text's first line, then go on in place.
        const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        if (end === -1) {
          if (start < text.length) hold(detachedSlice(text, start));
          return NO_FRAMES;
        }
        pending.push(text.slice(start, end));
        const held = pending.join('');
        pending.length = 0;
        pendingLength = 0;
        if (held === '') dispatch();
        else line(held, 0, held.length);
        start = end + 1;
        if (end === cr) {
          if (start === text.length) skipLf = true;
          else if (text.charCodeAt(start) === LF) start++;
        }
        if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
        if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      }
      if (start < text.length) lines(text, start, lf, cr);
      if (cutFromText) keepOwnStrings();
      return take();
    },
    flush(): FrameDecoderEnd<SseFrame> {
      if (ended || failure !== null) return { frames: NO_FRAMES, truncatedFrame: false };
      skipLf = false;
      const tail = pending.join('');
      pending.length = 0;
      pendingLength = 0;
      if (!isBlank(tail) && tail.charCodeAt(0) !== COLON) return { frames: NO_FRAMES, truncatedFrame: true };
      // The last line was a comment or blank: close the frame left open, as a blank line would.
      dispatch();
      return { frames: take(), truncatedFrame: false };
    },
    get ended() {
      return ended;
    },
    get failure() {
      return failure;
    },
  };
}

/** True for the `data: [DONE]` sentinel frame: it ends the stream and is never a raw event. */
export function isSseSentinel(frame: SseFrame): boolean {
  return frame.data === SSE_DONE;
}
