import { FormatSniffer, type FormatOption, type SniffResult } from './sniff-format';
import type { StreamError } from '../handler/stream-error';
import type { SseFrame, WireFormat } from '../wire/types';
import type { FrameDecoder, FrameDecoderEnd, NdjsonLine } from './frame-decoder';
import { createNdjsonDecoder, type NdjsonLineParser } from './ndjson-decoder';
import { createSseDecoder } from './sse-decoder';

/** A frame of any wire format: an `SseFrame` for the SSE formats, an `NdjsonLine` for Ollama. */
export type WireFrame = SseFrame | NdjsonLine;

/**
 * A frame decoder that first checks what the body is (`FormatSniffer`): it holds the first text
 * back until the format is known, then replays it through the SSE or NDJSON decoder. `format` is
 * set from then on and every frame returned belongs to it; `failure` is set when the body is not
 * a readable stream (nothing is ever returned then) or when a frame is over the size limit (the
 * frames before it are still returned).
 */
export interface WireDecoder extends FrameDecoder<WireFrame> {
  readonly format: WireFormat | null;
}

const NO_FRAMES: readonly WireFrame[] = Object.freeze([]);

/**
 * Creates a `WireDecoder` for a format, or for `auto` (any of the five). `maxFrameBytes` limits an
 * SSE event or NDJSON line (see `createSseDecoder`, `createNdjsonDecoder`), while the format is
 * being recognised too; past it, `failure` is a `malformed` StreamError naming the limit.
 * `parseOllamaLine` (default `JSON.parse`) reads Ollama's lines (see `createNdjsonDecoder`).
 */
export function createWireDecoder(expected: FormatOption, maxFrameBytes: number, parseOllamaLine?: NdjsonLineParser): WireDecoder {
  let sniffer: FormatSniffer | null = new FormatSniffer(expected, maxFrameBytes);
  let inner: FrameDecoder<WireFrame> | null = null;
  let format: WireFormat | null = null;
  let failure: StreamError | null = null;

  /** Acts on the sniffer's verdict: replays the text held so far once the format is known. */
  function settle(result: SniffResult): readonly WireFrame[] {
    if (result.type === 'undecided' || sniffer === null) return NO_FRAMES;
    const text = sniffer.takeText();
    sniffer = null;
    if (result.type === 'failed') {
      failure = result.error;
      return NO_FRAMES;
    }
    format = result.format;
    inner = format === 'ollama' ? createNdjsonDecoder(maxFrameBytes, parseOllamaLine) : createSseDecoder(maxFrameBytes);
    return inner.feed(text);
  }

  return {
    feed(text) {
      if (inner !== null) return inner.feed(text);
      if (sniffer === null || text === '') return NO_FRAMES;
      return settle(sniffer.feed(text));
    },
    flush(): FrameDecoderEnd<WireFrame> {
      if (inner === null && sniffer !== null) {
        const frames = settle(sniffer.end());
        if (inner === null) return { frames: NO_FRAMES, truncatedFrame: false };
        const end: FrameDecoderEnd<WireFrame> = (inner as FrameDecoder<WireFrame>).flush();
        return { frames: [...frames, ...end.frames], truncatedFrame: end.truncatedFrame };
      }
      return inner === null ? { frames: NO_FRAMES, truncatedFrame: false } : inner.flush();
    },
    get ended() {
      return inner !== null && inner.ended;
    },
    get format() {
      return format;
    },
    get failure() {
      return failure ?? inner?.failure ?? null;
    },
  };
}
