import { describeValue } from '../parts/describe-value';
import { defaultMapperFactory } from '../providers/default-mappers';
import type { MapperFactory, StreamMapper } from '../providers/stream-mapper';
import type { FrameDecoder } from '../wire/frame-decoder';
import { createNdjsonDecoder } from '../wire/ndjson-decoder';
import { createSseDecoder } from '../wire/sse-decoder';
import type { FormatOption } from '../wire/sniff-format';
import type { SseFrame } from '../wire/types';
import { createWireDecoder, type WireFrame } from '../wire/wire-decoder';
import type { AdapterStreamOptions } from './stream-options';

/** How a body is framed: Server-Sent Events or one JSON value per line. */
export type Framing = 'sse' | 'ndjson';

/** A mapper of either framing's events. */
export type AnyStreamMapper = StreamMapper<SseFrame> | StreamMapper<unknown>;

/** What a run reads the body with and maps it by; `framing` (and the mapper) known once the body was recognised. */
export interface FramedDecoder extends FrameDecoder<WireFrame> {
  /** Null while the format is still being recognised. */
  readonly framing: Framing | null;
  /** The mapper for the recognised format; call once, after `framing` is known. */
  createMapper(): AnyStreamMapper;
  /** Names the adapter in an error message ("the anthropic adapter", "the custom adapter"). */
  readonly adapterName: string;
}

/** partstream's own formats (or `auto`): the body is recognised first, then decoded and mapped by `createMapper`. */
export function providerDecoder(format: FormatOption, createMapper: MapperFactory | undefined, maxFrameBytes: number): FramedDecoder {
  const decoder = createWireDecoder(format, maxFrameBytes);
  const factory = createMapper ?? defaultMapperFactory;
  return {
    feed: (text) => decoder.feed(text),
    flush: () => decoder.flush(),
    get ended() {
      return decoder.ended;
    },
    get failure() {
      return decoder.failure;
    },
    get framing() {
      const known = decoder.format;
      return known === null ? null : known === 'ollama' ? 'ndjson' : 'sse';
    },
    createMapper: () => factory(decoder.format ?? 'openai-chat'),
    get adapterName() {
      return decoder.format ?? format;
    },
  };
}

/**
 * A provider author's framing and mapper: the body is decoded as `format` says from its first
 * byte. The adapter's factory is called here, once; what it returns must have `map` and `end`.
 */
export function adapterDecoder(options: AdapterStreamOptions, maxFrameBytes: number): FramedDecoder {
  const framing: Framing = options.format;
  const mapper: unknown = options.adapter();
  if (mapper === null || typeof mapper !== 'object' || typeof (mapper as AnyStreamMapper).map !== 'function' || typeof (mapper as AnyStreamMapper).end !== 'function') {
    throw new TypeError(`Expected adapter to return a StreamMapper (with map and end methods), got ${describeValue(mapper)}`);
  }
  const decoder: FrameDecoder<WireFrame> = framing === 'sse' ? createSseDecoder(maxFrameBytes) : createNdjsonDecoder(maxFrameBytes);
  return {
    feed: (text) => decoder.feed(text),
    flush: () => decoder.flush(),
    get ended() {
      return decoder.ended;
    },
    get failure() {
      return decoder.failure;
    },
    framing,
    createMapper: () => mapper as AnyStreamMapper,
    adapterName: 'custom',
  };
}
