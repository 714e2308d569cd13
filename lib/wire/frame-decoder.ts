import { StreamError } from '../handler/stream-error';

/** What a decoder hands back when its source has ended. */
export interface FrameDecoderEnd<F> {
  /** Frames completed by the end of the text (e.g. the last frame of a body without its final blank line). */
  readonly frames: readonly F[];
  /** True when the text ended inside an unfinished frame (its bytes were left over, not decoded). */
  readonly truncatedFrame: boolean;
}

/**
 * Splits decoded text into wire frames: `feed` the text as it arrives and take the frames it
 * completed, then `flush` once when the source has ended. Partial lines are kept as fragments and
 * joined once, so feeding a long frame in many small pieces stays linear.
 */
export interface FrameDecoder<F> {
  /**
   * Decode the next piece of text; returns the frames it completed, in wire order. When the text
   * makes the stream unreadable (a frame over the size limit), the frames completed before it are
   * still returned, `failure` is set and every later call returns nothing.
   */
  feed(text: string): readonly F[];
  /** The source ended: returns the last frames and whether an unfinished frame was left over. */
  flush(): FrameDecoderEnd<F>;
  /** True once the stream's end sentinel (SSE `data: [DONE]`) was decoded; later text is ignored. */
  readonly ended: boolean;
  /** Why the rest of the stream cannot be decoded (a `malformed` frame over the limit), or null. */
  readonly failure: StreamError | null;
}

/**
 * Splits a binary body into frames (AWS's event stream): `feed` the bytes as they arrive, then
 * `flush` once; the same contract as `FrameDecoder`, on bytes instead of text.
 */
export interface ByteFrameDecoder<F> {
  feed(chunk: Uint8Array): readonly F[];
  flush(): FrameDecoderEnd<F>;
  readonly ended: boolean;
  readonly failure: StreamError | null;
}

/** One NDJSON line: its parsed JSON value, or its text when it is not JSON. */
export type NdjsonLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string };

/**
 * The `malformed` error for a frame (`what`: "An SSE event", "An NDJSON line") longer than
 * `maxFrameBytes` characters. It names the limit and the option; the frame itself is not kept.
 */
export function frameTooLarge(what: string, maxFrameBytes: number): StreamError {
  return new StreamError(
    'malformed',
    `${what} is longer than the frame limit of ${maxFrameBytes} characters; the stream was stopped there. ` + 'Raise the maxFrameBytes option (Infinity for no limit) to accept larger frames.',
  );
}
