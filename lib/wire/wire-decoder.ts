import { FormatSniffer, type SniffPlan, type SniffResult } from './sniff-format';
import type { StreamError } from '../handler/stream-error';
import type { SseFrame } from './types';
import type { FrameDecoder, FrameDecoderEnd, NdjsonLine } from './frame-decoder';

/** A frame of any text format: an `SseFrame` for the SSE formats, an `NdjsonLine` for NDJSON ones. */
export type WireFrame = SseFrame | NdjsonLine;

/**
 * A frame decoder that first checks what the body is (`FormatSniffer`): it holds the first text
 * back until the format is known, then replays it through the SSE or NDJSON decoder. `format` is
 * set from then on and every frame returned belongs to it; `failure` is set when the body is not
 * a readable stream (nothing is ever returned then) or when a frame is over the size limit (the
 * frames before it are still returned).
 */
export interface WireDecoder extends FrameDecoder<WireFrame> {
  readonly format: string | null;
  /** The SSE or NDJSON decoder once `format` is known (it then decodes exactly as this one does), else null. */
  readonly inner: FrameDecoder<WireFrame> | null;
}

const NO_FRAMES: readonly WireFrame[] = Object.freeze([]);

/**
 * Creates a `WireDecoder` for the formats of `plan` (one named, or any of its candidates).
 * `maxFrameBytes` limits an SSE event or NDJSON line while the format is being recognised too;
 * past it, `failure` is a `malformed` StreamError naming the limit. `decoderFor` makes the
 * recognised format's own decoder, under the same limit.
 */
export function createWireDecoder(plan: SniffPlan, maxFrameBytes: number, decoderFor: (format: string) => FrameDecoder<WireFrame>): WireDecoder {
  return new SniffingDecoder(plan, maxFrameBytes, decoderFor);
}

/** `createWireDecoder`'s decoder: a class, so every stream's decoder shares one shape. */
class SniffingDecoder implements WireDecoder {
  private sniffer: FormatSniffer | null;
  /** The format's own decoder once the format is known: from then on this one only forwards to it. */
  inner: FrameDecoder<WireFrame> | null = null;
  format: string | null = null;
  private sniffFailure: StreamError | null = null;

  constructor(
    plan: SniffPlan,
    maxFrameBytes: number,
    private readonly decoderFor: (format: string) => FrameDecoder<WireFrame>,
  ) {
    this.sniffer = new FormatSniffer(plan, maxFrameBytes);
  }

  feed(text: string): readonly WireFrame[] {
    const inner = this.inner;
    if (inner !== null) return inner.feed(text);
    const sniffer = this.sniffer;
    if (sniffer === null || text === '') return NO_FRAMES;
    return this.settle(sniffer.feed(text));
  }

  flush(): FrameDecoderEnd<WireFrame> {
    if (this.inner === null && this.sniffer !== null) {
      const frames = this.settle(this.sniffer.end());
      const inner = this.inner as FrameDecoder<WireFrame> | null;
      if (inner === null) return { frames: NO_FRAMES, truncatedFrame: false };
      const end = inner.flush();
      return { frames: [...frames, ...end.frames], truncatedFrame: end.truncatedFrame };
    }
    return this.inner === null ? { frames: NO_FRAMES, truncatedFrame: false } : this.inner.flush();
  }

  get ended(): boolean {
    return this.inner !== null && this.inner.ended;
  }

  get failure(): StreamError | null {
    return this.sniffFailure ?? this.inner?.failure ?? null;
  }

  /** Acts on the sniffer's verdict: replays the text held so far once the format is known. */
  private settle(result: SniffResult): readonly WireFrame[] {
    const sniffer = this.sniffer;
    if (result.type === 'undecided' || sniffer === null) return NO_FRAMES;
    const text = sniffer.takeText();
    this.sniffer = null;
    if (result.type === 'failed') {
      this.sniffFailure = result.error;
      return NO_FRAMES;
    }
    const format = result.format;
    this.format = format;
    const inner = this.decoderFor(format);
    this.inner = inner;
    return inner.feed(text);
  }
}
