import { StreamError } from '../../handler/stream-error';
import { crc32, viewOf } from './crc32';
import { KeptHeaders } from './eventstream-headers';
import { PRELUDE_BYTES, preludeProblem, readUint32 } from './eventstream-prelude';

export { eventStreamPreludeVerdict } from './eventstream-prelude';

/** One decoded event-stream message. */
export interface EventStreamFrame {
  /** The `:message-type` header: 'event', 'exception' or 'error' ('' when the message has none). */
  readonly messageType: string;
  /** The `:event-type` header (e.g. `contentBlockDelta`), or null. */
  readonly eventType: string | null;
  /** The `:exception-type` header of an 'exception', the `:error-code` of an 'error'; else null. */
  readonly exceptionType: string | null;
  /** The `:error-message` header of an 'error'; else null. */
  readonly errorMessage: string | null;
  /** The payload read as UTF-8 text and `JSON.parse`'d; its text when it is not JSON (or empty). */
  readonly payload: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string };
}

/** What `flush` hands back when the source has ended. */
export interface EventStreamDecoderEnd {
  /** Frames completed by the end of the bytes (always none: a message is delivered once its last byte arrives). */
  readonly frames: readonly EventStreamFrame[];
  /** True when the bytes ended inside an unfinished message (its bytes were left over, not decoded). */
  readonly truncatedFrame: boolean;
}

/**
 * Splits an `application/vnd.amazon.eventstream` body into messages: `feed` the bytes as they
 * arrive and take the frames they completed, then `flush` once when the source has ended. Pieces
 * of an unfinished message are copied into a list and joined once, so feeding a long message in
 * many small pieces stays linear; a message that arrives within one chunk is read in place, and
 * no chunk is kept or written after `feed` returns.
 */
export interface EventStreamDecoder {
  /**
   * Decode the next bytes; returns the frames they completed, in wire order. When they make the
   * stream unreadable (a checksum mismatch, an impossible length, a message over the size limit,
   * a broken header), the frames completed before are still returned, `failure` is set and every
   * later call returns nothing.
   */
  feed(chunk: Uint8Array): readonly EventStreamFrame[];
  /** The source ended: returns the last frames and whether an unfinished message was left over. */
  flush(): EventStreamDecoderEnd;
  /** Always false: the format has no end sentinel (kept for the shape the text decoders share). */
  readonly ended: boolean;
  /** Why the rest of the stream cannot be decoded (a `malformed` message), or null. */
  readonly failure: StreamError | null;
}

/**
 * Creates an event-stream decoder. Each message's prelude CRC32 is checked first, then its
 * lengths (at least the 16 bytes of framing, headers within the total, the total at most
 * `maxFrameBytes`: checked from the prelude before any of the message's body is kept), then the
 * CRC32 of the whole message; any mismatch is a `malformed` `failure`. Headers of all ten value
 * types are read with their bounds checked; the string headers `:message-type`, `:event-type`,
 * `:exception-type`, `:error-code` and `:error-message` are kept.
 */
export function createEventStreamDecoder(maxFrameBytes: number): EventStreamDecoder {
  if (typeof maxFrameBytes !== 'number' || !(maxFrameBytes >= 0)) {
    throw new TypeError(`Expected maxFrameBytes to be a number ≥ 0 (or Infinity), got ${String(maxFrameBytes)}`);
  }
  return new AwsEventStreamDecoder(maxFrameBytes);
}

// Classes rather than object literals: V8 pretenures literals that survive (see lib/wire/fresh-array.ts).
class ParsedPayload {
  readonly ok = true as const;
  constructor(readonly value: unknown) {}
}

class UnparsedPayload {
  readonly ok = false as const;
  constructor(readonly text: string) {}
}

class Frame implements EventStreamFrame {
  constructor(
    readonly messageType: string,
    readonly eventType: string | null,
    readonly exceptionType: string | null,
    readonly errorMessage: string | null,
    readonly payload: ParsedPayload | UnparsedPayload,
  ) {}
}

// Not fatal: a byte that is not UTF-8 reads as U+FFFD. The BOM is kept: the payload is handed on as sent.
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

const NO_FRAMES: readonly EventStreamFrame[] = Object.freeze([]);
// Copied, never written: its `slice` is a new empty array with no allocation site of its own, as
// lib/wire/fresh-array.ts explains (a literal's arrays would soon be allocated in the old generation).
const EMPTY: readonly EventStreamFrame[] = [];

/** Pieces smaller than this are gathered into one buffer of GATHER_BYTES, so a trickle of tiny pieces is not one object per byte. */
const SMALL_PIECE = 256;
const GATHER_BYTES = 4096;
/** Messages up to this size are joined into one array, reused from message to message. */
const REUSE_BYTES = 64 * 1024;

/** `createEventStreamDecoder`'s decoder: a class, so a stream's decoder is one object of a shared shape. */
class AwsEventStreamDecoder implements EventStreamDecoder {
  failure: StreamError | null = null;
  readonly ended = false;
  // The unfinished message: copies of its pieces in order, `held` bytes in all.
  private pieces: Uint8Array[] = [];
  private held = 0;
  // The buffer small pieces are gathered into (the last of `pieces` is a view of its first `gatherEnd` bytes).
  private gather: Uint8Array | null = null;
  private gatherEnd = 0;
  // A gathering buffer no piece refers to, for the next small pieces.
  private spare: Uint8Array | null = null;
  // The array small messages are joined into and its view; the view of the last joined message.
  private joined: Uint8Array | null = null;
  private reusedView: DataView | null = null;
  private joinedView: DataView | null = null;
  // The unfinished message's total length once its prelude was read, else -1.
  private expected = -1;
  // The CRC of its prelude's first eight bytes, once read.
  private preludeCrc = 0;
  private readonly scratch = new Uint8Array(PRELUDE_BYTES);
  private readonly scratchView = viewOf(this.scratch);
  private readonly headers = new KeptHeaders();

  constructor(private readonly maxFrameBytes: number) {}

  feed(chunk: Uint8Array): readonly EventStreamFrame[] {
    if (this.failure !== null || chunk.length === 0) return NO_FRAMES;
    let out: EventStreamFrame[] | null = null;
    let at = 0;
    if (this.held > 0) {
      // The unfinished message first: complete it with the start of this chunk, or keep the chunk.
      if (this.expected < 0) {
        const missing = PRELUDE_BYTES - this.held;
        if (chunk.length < missing) return this.hold(chunk, 0);
        this.gatherPrelude(chunk);
        if (!this.checkPrelude(this.scratch, this.scratchView, 0)) return NO_FRAMES;
      }
      const missing = this.expected - this.held;
      if (chunk.length < missing) return this.hold(chunk, 0);
      const frame = this.decode(this.join(chunk, missing), this.joinedView as DataView, 0);
      if (frame === null) return NO_FRAMES;
      (out = EMPTY.slice()).push(frame);
      at = missing;
    }
    // Then every message that lies whole in the chunk, read in place.
    const view = chunk.length - at >= PRELUDE_BYTES ? viewOf(chunk) : null;
    while (view !== null && chunk.length - at >= PRELUDE_BYTES) {
      if (!this.checkPrelude(chunk, view, at)) return out ?? NO_FRAMES;
      const total = this.expected;
      if (chunk.length - at < total) break;
      const frame = this.decode(chunk, view, at);
      if (frame === null) return out ?? NO_FRAMES;
      (out ??= EMPTY.slice()).push(frame);
      at += total;
    }
    if (at < chunk.length) this.hold(chunk, at);
    return out ?? NO_FRAMES;
  }

  flush(): EventStreamDecoderEnd {
    const truncatedFrame = this.failure === null && this.held > 0;
    this.release();
    this.expected = -1;
    return { frames: NO_FRAMES, truncatedFrame };
  }

  /** Checks the prelude at `bytes[at, at + 12)` and sets `expected`; false (with `failure` set) when it is not sound. */
  private checkPrelude(bytes: Uint8Array, view: DataView, at: number): boolean {
    const preludeCrc = crc32(bytes, at, at + 8, 0, view);
    const problem = preludeProblem(bytes, at, preludeCrc);
    if (problem !== null) return this.fail(problem);
    const total = readUint32(bytes, at);
    if (total > this.maxFrameBytes) {
      this.failure = new StreamError(
        'malformed',
        `An event-stream message of ${total} bytes is longer than the frame limit of ${this.maxFrameBytes} bytes; the stream was stopped there. ` +
          'Raise the maxFrameBytes option (Infinity for no limit) to accept larger frames.',
      );
      this.release();
      return false;
    }
    this.expected = total;
    this.preludeCrc = preludeCrc;
    return true;
  }

  /** The message at `bytes[at, at + expected)` (its prelude checked) as a frame; null (with `failure` set) when it is not sound. */
  private decode(bytes: Uint8Array, view: DataView, at: number): Frame | null {
    const end = at + this.expected;
    const sent = readUint32(bytes, end - 4);
    // The message CRC goes on from the prelude's first eight bytes, already read.
    const computed = crc32(bytes, at + 8, end - 4, this.preludeCrc, view);
    if (sent !== computed) {
      this.fail(`An event-stream message's checksum does not match its bytes (CRC32 0x${hex(computed)} computed, 0x${hex(sent)} sent)`);
      return null;
    }
    const headersEnd = at + PRELUDE_BYTES + readUint32(bytes, at + 4);
    const headers = this.headers;
    const problem = headers.read(bytes, view, at + PRELUDE_BYTES, headersEnd);
    if (problem !== null) {
      this.fail(problem);
      return null;
    }
    this.expected = -1;
    const messageType = headers.messageType ?? '';
    const isError = messageType === 'error';
    return new Frame(
      messageType,
      headers.eventType,
      isError ? headers.errorCode : messageType === 'exception' ? headers.exceptionType : null,
      isError ? headers.errorMessage : null,
      this.payload(bytes, headersEnd, end - 4),
    );
  }

  private payload(bytes: Uint8Array, start: number, end: number): ParsedPayload | UnparsedPayload {
    if (start === end) return new UnparsedPayload('');
    const text = UTF8.decode(bytes.subarray(start, end));
    try {
      return new ParsedPayload(JSON.parse(text));
    } catch {
      return new UnparsedPayload(text);
    }
  }

  private fail(problem: string): false {
    this.failure = new StreamError('malformed', `${problem}; the stream was stopped there.`);
    this.release();
    return false;
  }

  /** Copies the unfinished message's first bytes and the start of `chunk` into the 12-byte scratch prelude. */
  private gatherPrelude(chunk: Uint8Array): void {
    let filled = 0;
    for (const piece of this.pieces) {
      const take = Math.min(piece.length, PRELUDE_BYTES - filled);
      this.scratch.set(take === piece.length ? piece : piece.subarray(0, take), filled);
      filled += take;
      if (filled === PRELUDE_BYTES) return;
    }
    this.scratch.set(chunk.subarray(0, PRELUDE_BYTES - filled), filled);
  }

  /**
   * The unfinished message, completed by `chunk[0, missing)`, in one array from its start (longer
   * than the message when reused; `joinedView` is its view); the pieces are let go. A message up to
   * REUSE_BYTES is joined into the array of the last such one when it fits: no frame keeps a view
   * of the bytes it was read from, and most messages of a stream are about the same size.
   */
  private join(chunk: Uint8Array, missing: number): Uint8Array {
    let whole = this.joined;
    if (whole !== null && whole.length >= this.expected) {
      this.joinedView = this.reusedView;
    } else {
      whole = new Uint8Array(this.expected);
      this.joinedView = viewOf(whole);
      if (this.expected <= REUSE_BYTES) {
        this.joined = whole;
        this.reusedView = this.joinedView;
      }
    }
    let filled = 0;
    for (const piece of this.pieces) {
      whole.set(piece, filled);
      filled += piece.length;
    }
    whole.set(chunk.subarray(0, missing), filled);
    this.release();
    return whole;
  }

  /**
   * Keeps a copy of `chunk[at…]` as the next piece of the unfinished message: the caller may reuse
   * its chunk, and a few bytes left over must not keep a whole network chunk alive. Each byte is
   * copied here once and once more when its message is joined.
   */
  private hold(chunk: Uint8Array, at: number): readonly EventStreamFrame[] {
    const length = chunk.length - at;
    if (length < SMALL_PIECE) {
      this.gatherSmall(chunk, at);
    } else {
      this.sealGather();
      this.pieces.push(chunk.slice(at));
    }
    this.held += length;
    return NO_FRAMES;
  }

  /** Ends the gathering buffer: the last piece becomes an exact copy of what it gathered, the buffer is let go. */
  private sealGather(): void {
    if (this.gather === null) return;
    this.pieces[this.pieces.length - 1] = this.gather.slice(0, this.gatherEnd);
    this.spare = this.gather;
    this.gather = null;
  }

  private gatherSmall(chunk: Uint8Array, at: number): void {
    const length = chunk.length - at;
    let gather = this.gather;
    if (gather === null || this.gatherEnd + length > gather.length) {
      // A full buffer stays as it is (its view is the last piece); the next small pieces go to a new one.
      gather = this.gather = this.spare ?? new Uint8Array(GATHER_BYTES);
      this.spare = null;
      this.gatherEnd = 0;
      this.pieces.push(gather.subarray(0, 0));
    }
    gather.set(chunk.subarray(at), this.gatherEnd);
    this.gatherEnd += length;
    this.pieces[this.pieces.length - 1] = gather.subarray(0, this.gatherEnd);
  }

  private release(): void {
    this.pieces = [];
    this.held = 0;
    // No piece refers to the gathering buffer any more: the next small pieces may reuse it.
    if (this.gather !== null) this.spare = this.gather;
    this.gather = null;
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}
