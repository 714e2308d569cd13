import { sniffFormat, SNIFF_LIMIT, type FormatOption, type SniffResult } from '../sniff-format';
import type { StreamError } from '../stream-error';
import type { SseFrame, WireFormat } from '../types';
import type { FrameDecoder, FrameDecoderEnd, NdjsonLine } from './frame-decoder';
import { createNdjsonDecoder } from './ndjson-decoder';
import { createSseDecoder } from './sse-decoder';

/** A frame of any wire format: an `SseFrame` for the SSE formats, an `NdjsonLine` for Ollama. */
export type WireFrame = SseFrame | NdjsonLine;

/**
 * A frame decoder that first checks what the body is (`sniffFormat`): it holds the first text back
 * until the format is known, then replays it through the SSE or NDJSON decoder. `format` is set
 * from then on and every frame returned belongs to it; `failure` is set (and nothing is ever
 * returned) when the body is not a readable stream.
 */
export interface WireDecoder extends FrameDecoder<WireFrame> {
  readonly format: WireFormat | null;
  readonly failure: StreamError | null;
}

const NO_FRAMES: readonly WireFrame[] = Object.freeze([]);

/** Creates a `WireDecoder` for a format, or for `auto` (any of the five). */
export function createWireDecoder(expected: FormatOption): WireDecoder {
  let held: string[] = [];
  let heldLength = 0;
  let inner: FrameDecoder<WireFrame> | null = null;
  let format: WireFormat | null = null;
  let failure: StreamError | null = null;

  function settle(result: SniffResult, text: string): readonly WireFrame[] {
    if (result.type === 'undecided') return NO_FRAMES;
    held = [];
    heldLength = 0;
    if (result.type === 'failed') {
      failure = result.error;
      return NO_FRAMES;
    }
    format = result.format;
    inner = format === 'ollama' ? createNdjsonDecoder() : createSseDecoder();
    return inner.feed(text);
  }

  return {
    feed(text) {
      if (inner !== null) return inner.feed(text);
      if (failure !== null || text === '') return NO_FRAMES;
      const first = heldLength === 0;
      held.push(text);
      heldLength += text.length;
      // Re-examine only when something new can be decided: the first text, a completed line, the limit.
      if (!first && text.indexOf('\n') === -1 && text.indexOf('\r') === -1 && heldLength <= SNIFF_LIMIT) return NO_FRAMES;
      const all = held.length === 1 ? text : held.join('');
      held = [all];
      return settle(sniffFormat(all, false, expected), all);
    },
    flush(): FrameDecoderEnd<WireFrame> {
      if (inner === null && failure === null) {
        const all = held.join('');
        const frames = settle(sniffFormat(all, true, expected), all);
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
      return failure;
    },
  };
}
