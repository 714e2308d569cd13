import { Utf8Decoder } from '../../lib/transport/utf8-chunk-decoder';
import type { FrameDecoder } from '../../lib/wire/frame-decoder';

/** Everything a frame decoder produced for one body. */
export interface DecodedBody<F> {
  frames: F[];
  truncatedFrame: boolean;
  ended: boolean;
}

/** Runs the chunks through a UTF-8 decoder and a fresh frame decoder, then flushes both. */
export function decodeChunks<F>(decoder: FrameDecoder<F>, chunks: readonly (Uint8Array | string)[]): DecodedBody<F> {
  const text = new Utf8Decoder();
  const frames: F[] = [];
  for (const chunk of chunks) frames.push(...decoder.feed(text.decode(chunk)));
  frames.push(...decoder.feed(text.end()));
  const end = decoder.flush();
  frames.push(...end.frames);
  return { frames, truncatedFrame: end.truncatedFrame, ended: decoder.ended };
}

/** The bytes split in two at every offset (0 … length). */
export function* splitsInTwo(bytes: Uint8Array): Generator<[number, Uint8Array[]]> {
  for (let at = 0; at <= bytes.length; at++) yield [at, [bytes.subarray(0, at), bytes.subarray(at)]];
}

/** The bytes split into single bytes. */
export function bytewise(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) chunks.push(bytes.subarray(i, i + 1));
  return chunks;
}

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
