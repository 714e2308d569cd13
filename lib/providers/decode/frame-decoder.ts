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
  /** Decode the next piece of text; returns the frames it completed, in wire order. */
  feed(text: string): readonly F[];
  /** The source ended: returns the last frames and whether an unfinished frame was left over. */
  flush(): FrameDecoderEnd<F>;
  /** True once the stream's end sentinel (SSE `data: [DONE]`) was decoded; later text is ignored. */
  readonly ended: boolean;
}

/** One NDJSON line: its parsed JSON value, or its text when it is not JSON. */
export type NdjsonLine =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly text: string };
