import { describeValue } from '../parts/describe-value';
import { defaultMapperFactory } from '../providers/default-mappers';
import { parseOllamaLine } from '../providers/ollama/parse-ollama-line';
import type { MapperFactory, StreamMapper } from '../providers/stream-mapper';
import { PartstreamMapper } from '../providers/partstream/partstream-mapper';
import type { ReplayGate } from '../providers/partstream/replay-gate';
import type { StreamError } from '../handler/stream-error';
import type { FrameDecoder, FrameDecoderEnd } from '../wire/frame-decoder';
import { createNdjsonDecoder } from '../wire/ndjson-decoder';
import { createSseDecoder } from '../wire/sse-decoder';
import type { FormatOption } from '../wire/sniff-format';
import type { SseFrame } from '../wire/types';
import { createWireDecoder, type WireDecoder, type WireFrame } from '../wire/wire-decoder';
import type { AdapterStreamOptions, Framing } from './stream-options';

export type { Framing } from './stream-options';


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
  /**
   * Once `framing` is known: the format's own decoder, which from then on decodes exactly as this
   * one does (the reader may call it directly, skipping this wrapper); null before.
   */
  readonly frameDecoder: FrameDecoder<WireFrame> | null;
}

/**
 * partstream's own formats (or `auto`): the body is recognised first, then decoded and mapped by
 * `createMapper` (a `partstream` relay body by the relay viewer, whose callbacks `gate` may hold
 * back up to a sequence). Ollama's lines are read by `parseOllamaLine` (the values `JSON.parse` gives).
 */
export function providerDecoder(format: FormatOption, createMapper: MapperFactory | undefined, maxFrameBytes: number, gate: ReplayGate | null = null): FramedDecoder {
  return new ProviderDecoder(format, createMapper ?? defaultMapperFactory, maxFrameBytes, gate);
}

/** `providerDecoder`'s plan (a class: one shape for every stream, no closures). */
class ProviderDecoder implements FramedDecoder {
  private readonly decoder: WireDecoder;

  constructor(
    private readonly format: FormatOption,
    private readonly factory: MapperFactory,
    maxFrameBytes: number,
    private readonly gate: ReplayGate | null,
  ) {
    this.decoder = createWireDecoder(format, maxFrameBytes, parseOllamaLine);
  }

  feed(text: string): readonly WireFrame[] {
    return this.decoder.feed(text);
  }

  flush(): FrameDecoderEnd<WireFrame> {
    return this.decoder.flush();
  }

  get ended(): boolean {
    return this.decoder.ended;
  }

  get failure(): StreamError | null {
    return this.decoder.failure;
  }

  get framing(): Framing | null {
    const known = this.decoder.format;
    return known === null ? null : known === 'ollama' ? 'ndjson' : 'sse';
  }

  createMapper(): AnyStreamMapper {
    const format = this.decoder.format ?? 'openai-chat';
    return format === 'partstream' ? new PartstreamMapper(this.gate) : this.factory(format);
  }

  get adapterName(): string {
    return this.decoder.format ?? this.format;
  }

  get frameDecoder(): FrameDecoder<WireFrame> | null {
    return this.decoder.inner;
  }
}

/** `adapterDecoder`'s plan: the framing is known from the start. */
class AdapterDecoder implements FramedDecoder {
  readonly adapterName = 'custom';

  constructor(
    readonly framing: Framing,
    private readonly mapper: AnyStreamMapper,
    readonly frameDecoder: FrameDecoder<WireFrame>,
  ) {}

  feed(text: string): readonly WireFrame[] {
    return this.frameDecoder.feed(text);
  }

  flush(): FrameDecoderEnd<WireFrame> {
    return this.frameDecoder.flush();
  }

  get ended(): boolean {
    return this.frameDecoder.ended;
  }

  get failure(): StreamError | null {
    return this.frameDecoder.failure;
  }

  createMapper(): AnyStreamMapper {
    return this.mapper;
  }
}

/** The mapper instances that already served a stream (a mapper is stateful: one stream each). */
const usedMappers = new WeakSet<object>();

/**
 * A provider author's framing and mapper: the body is decoded as `format` (else the mapper's
 * `framing`) says from its first byte. The adapter's factory is called here, once; what it
 * returns (or the adapter itself) must have `map` and `end`, and may serve one stream only.
 */
export function adapterDecoder(options: AdapterStreamOptions, maxFrameBytes: number): FramedDecoder {
  const adapter: unknown = options.adapter;
  const mapper: unknown = typeof adapter === 'function' ? (adapter as () => unknown)() : adapter;
  if (mapper === null || typeof mapper !== 'object' || typeof (mapper as AnyStreamMapper).map !== 'function' || typeof (mapper as AnyStreamMapper).end !== 'function') {
    throw new TypeError(`Expected adapter to be or to return a StreamMapper (with map and end methods), got ${describeValue(mapper)}`);
  }
  if (usedMappers.has(mapper)) {
    throw new TypeError('Expected a StreamMapper that has not served a stream yet; pass a function that creates one per stream (() => new MyMapper())');
  }
  const declared: unknown = (mapper as { framing?: unknown }).framing;
  const framing = options.format ?? declared;
  if (framing !== 'sse' && framing !== 'ndjson') {
    throw new TypeError(`Expected format (or the mapper's framing) to be sse or ndjson, got ${describeValue(framing)}`);
  }
  if (declared !== undefined && declared !== framing) {
    throw new TypeError(`Expected the mapper's framing to match format ${framing}, got ${describeValue(declared)}`);
  }
  usedMappers.add(mapper);
  const decoder: FrameDecoder<WireFrame> = framing === 'sse' ? createSseDecoder(maxFrameBytes) : createNdjsonDecoder(maxFrameBytes);
  return new AdapterDecoder(framing, mapper as AnyStreamMapper, decoder);
}
