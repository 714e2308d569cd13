import type { StreamError } from '../handler/stream-error';
import type { SequencedSseFrame, SseFrame } from './types';
import { frameTooLarge, type FrameDecoder, type FrameDecoderEnd } from './frame-decoder';
import { detachedFrom, detachedSlice } from './detached-slice';
import { freshArray } from './fresh-array';
import { HeldLine } from './held-line';
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
 * stream). V8 does not do that for class instances. Frames reach mappers only: the driver hands a
 * raw event to the user as a plain `{event, data}` object.
 */
class Frame implements SseFrame {
  constructor(
    readonly event: string | null,
    readonly data: string,
  ) {}
}

/** A decoded frame of a decoder that keeps ids (the `partstream` relay format): also its `id:` field. */
class SequencedFrame implements SequencedSseFrame {
  constructor(
    readonly event: string | null,
    readonly data: string,
    readonly id: string | null,
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
  return new SseDecoder(maxFrameBytes, false);
}

/**
 * `createSseDecoder` for the `partstream` relay format: each frame also carries its event's own
 * `id:` field (a `SequencedSseFrame`, id null when the event had none; an id is not carried over
 * to the next event), and `retryMs` keeps the last valid `retry:` field.
 */
export function createSequencedSseDecoder(maxFrameBytes: number = Infinity): FrameDecoder<SequencedSseFrame> & { readonly retryMs: number | null } {
  return new SseDecoder(maxFrameBytes, true) as SseDecoder & FrameDecoder<SequencedSseFrame>;
}

/** `createSseDecoder`'s decoder: a class, so a stream's decoder is one object of a shared shape. */
class SseDecoder implements FrameDecoder<SseFrame> {
  /** The frames of the text being fed; made at its first frame, handed over (and let go of) by `take`. */
  private out: SseFrame[] | null = null;
  ended = false;
  failure: StreamError | null = null;
  // The event being read, and the characters of its lines so far (for maxFrameBytes).
  private event: string | null = null;
  private data = '';
  private dataLines = 0;
  private frameSize = 0;
  // The line still arriving.
  private readonly pending = new HeldLine();
  // The last text ended with a CR: an LF opening the next text completes that CRLF.
  private skipLf = false;
  // A data or event line of the open event was cut from the text being fed (see keepOwnStrings).
  private cutFromText = false;
  /** With ids: the open event's `id:` field, and the last valid `retry:` field. */
  private id: string | null = null;
  retryMs: number | null = null;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly withIds: boolean,
  ) {}

  feed(text: string): readonly SseFrame[] {
    if (this.ended || this.failure !== null || text === '') return NO_FRAMES;
    let start = 0;
    if (this.skipLf) {
      this.skipLf = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    const pending = this.pending;
    if (!pending.empty) {
      // Complete the held line with this text's first line, then go on in place.
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        if (start < text.length) this.hold(detachedSlice(text, start));
        return NO_FRAMES;
      }
      const held = pending.take(text.slice(start, end));
      if (held === '') this.dispatch();
      else this.line(held, 0, held.length);
      start = end + 1;
      if (end === cr) {
        if (start === text.length) this.skipLf = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < text.length) this.lines(text, start, lf, cr);
    if (this.cutFromText) this.keepOwnStrings(text);
    return this.take();
  }

  flush(): FrameDecoderEnd<SseFrame> {
    if (this.ended || this.failure !== null) return { frames: NO_FRAMES, truncatedFrame: false };
    this.skipLf = false;
    const tail = this.pending.take('');
    if (!isBlank(tail) && tail.charCodeAt(0) !== COLON) return { frames: NO_FRAMES, truncatedFrame: true };
    // The last line was a comment or blank: close the frame left open, as a blank line would.
    this.dispatch();
    return { frames: this.take(), truncatedFrame: false };
  }

  private fail(): void {
    this.failure = frameTooLarge('An SSE event', this.maxFrameBytes);
    this.pending.clear();
    this.data = '';
  }

  /**
   * An event left open at the end of a text must not keep that text (a whole network chunk) alive
   * through the slices it holds: its event name, and its data while it is a single line, are
   * copied (each line at most once, so a frame costs at most one more copy of itself). A longer
   * data field joins slices of the lines it spans and is left as it is.
   */
  private keepOwnStrings(text: string): void {
    this.cutFromText = false;
    if (this.dataLines === 1) this.data = detachedFrom(this.data, text);
    if (this.event !== null) this.event = detachedFrom(this.event, text);
  }

  private dispatch(): void {
    if (this.dataLines > 0) this.emit(this.data);
    this.event = null;
    this.id = null;
    this.data = '';
    this.dataLines = 0;
    this.frameSize = 0;
  }

  private emit(value: string): void {
    if (isBlank(value)) return;
    if (value.length < 10 && value.trim() === SSE_DONE) {
      this.ended = true;
      this.push(new Frame(this.event, SSE_DONE));
      return;
    }
    // Not frozen (SseFrame is readonly by type): freezing one object per frame is measurable.
    this.push(this.withIds ? new SequencedFrame(this.event, value, this.id) : new Frame(this.event, value));
  }

  private push(frame: Frame): void {
    if (this.out === null) this.out = freshArray();
    this.out.push(frame);
  }

  /** One complete, non-empty line: `text` from `start` to `end` (its line end excluded). */
  private line(text: string, start: number, end: number): void {
    this.frameSize += end - start;
    if (this.frameSize > this.maxFrameBytes) {
      this.fail();
      return;
    }
    if (isData(text, start)) {
      const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
      this.dataLines++;
      this.cutFromText = true;
      return;
    }
    if (isEvent(text, start)) {
      this.event = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || null;
      this.cutFromText = true;
      return;
    }
    if (text.charCodeAt(start) === COLON) return;
    // A rarer field (`id`, `retry`, unknown ones: ignored), or `data` / `event` with no colon.
    // Sliced first, so the search for the colon stays inside the line.
    const field = text.slice(start, end);
    const colon = field.indexOf(':');
    const name = colon === -1 ? field : field.slice(0, colon);
    if (name !== 'data' && name !== 'event') {
      if (this.withIds) this.idOrRetry(name, colon === -1 ? '' : field.slice(field.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1));
      return;
    }
    const value = colon === -1 ? '' : field.slice(field.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    this.cutFromText = true;
    if (name === 'event') {
      this.event = value || null;
      return;
    }
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines++;
  }

  /**
   * Decodes the lines of `text` from `start`, where `lf` and `cr` are the first LF and CR at or
   * after `start` (-1: none). Each is searched for again only once passed, so the text is scanned
   * once whatever mix of line ends it holds. The unterminated rest is held as a fragment.
   */
  private lines(text: string, start: number, lf: number, cr: number): void {
    const length = text.length;
    while (!this.ended && this.failure === null) {
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        end = cr;
        next = cr + 1;
        if (next === length) this.skipLf = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      if (end === start) this.dispatch();
      else {
        this.line(text, start, end);
        // The common `data: …\n\n`: the blank line closing the event is taken at once.
        if (end === lf && text.charCodeAt(next) === LF && this.failure === null) {
          this.dispatch();
          next++;
        }
      }
      start = next;
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < length && !this.ended && this.failure === null) this.hold(detachedSlice(text, start));
  }

  /** An `id:` field (kept unless it holds NUL, as WHATWG says) or a `retry:` field (ASCII digits only). */
  private idOrRetry(name: string, value: string): void {
    if (name === 'id') {
      if (!value.includes('\0')) this.id = value;
    } else if (name === 'retry' && /^[0-9]{1,10}$/.test(value)) {
      this.retryMs = Number(value);
    }
  }

  private hold(fragment: string): void {
    this.pending.hold(fragment);
    if (this.frameSize + this.pending.length > this.maxFrameBytes) this.fail();
  }

  private take(): readonly SseFrame[] {
    const frames = this.out;
    if (frames === null) return NO_FRAMES;
    this.out = null;
    return frames;
  }
}

/** True for the `data: [DONE]` sentinel frame: it ends the stream and is never a raw event. */
export function isSseSentinel(frame: SseFrame): boolean {
  return frame.data === SSE_DONE;
}
