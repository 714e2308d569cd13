import { describeValue } from '../parts/describe-value';
import { StreamError } from '../handler/stream-error';
import type { StreamMapper } from '../providers/stream-mapper';
import { PartstreamMapper } from '../providers/partstream/partstream-mapper';
import { partstreamFormat } from '../providers/partstream/partstream-descriptor';
import type { ReplayGate } from '../providers/partstream/replay-gate';
import type { AnyProviderDescriptor } from '../providers/provider-descriptor';
import type { Utf8Decoder } from '../transport/utf8-chunk-decoder';
import type { ByteFrameDecoder, FrameDecoder, FrameDecoderEnd } from '../wire/frame-decoder';
import { createNdjsonDecoder } from '../wire/ndjson-decoder';
import type { BodyFraming } from '../wire/sniff-rule';
import { createSseDecoder } from '../wire/sse-decoder';
import { createWireDecoder, type WireDecoder, type WireFrame } from '../wire/wire-decoder';
import type { AdapterStreamOptions } from './stream-options';
import type { FormatChoice } from './format-choice';

/** How a body is framed: Server-Sent Events, one JSON value per line, or AWS's binary event stream. */
export type Framing = BodyFraming;

/** A mapper of any format's events. */
export type AnyStreamMapper = StreamMapper<unknown>;

/** A frame of any format: a text format's `WireFrame`, or a binary or object format's event. */
export type AnyFrame = WireFrame | object;

/**
 * Reads raw chunks (bytes, strings, or an SDK's event objects) where text decoding cannot come
 * first: while `auto` still has to look at a body's first bytes, and for a binary format.
 */
export interface ChunkDecoder {
  feedChunk(chunk: unknown, text: Utf8Decoder): readonly AnyFrame[];
  endChunks(text: Utf8Decoder): FrameDecoderEnd<AnyFrame>;
}

/** What a run reads the body with and maps it by; `framing` (and the mapper) known once the body was recognised. */
export interface FramedDecoder extends FrameDecoder<WireFrame> {
  /** Null while the format is still being recognised. */
  readonly framing: Framing | null;
  /** The mapper for the recognised format; call once, after `framing` is known. */
  createMapper(): AnyStreamMapper;
  /** Names the adapter in an error message ("the anthropic adapter", "the custom adapter"). */
  readonly adapterName: string;
  /** The recognised format's descriptor, or null (not yet known, or a bare adapter). */
  readonly descriptor: AnyProviderDescriptor | null;
  /**
   * Once `framing` is known: the text format's own decoder, which from then on decodes exactly as
   * this one does (the reader may call it directly, skipping this wrapper); null before, and for a
   * binary format.
   */
  readonly frameDecoder: FrameDecoder<WireFrame> | null;
  /** Non-null when raw chunks must reach the plan before any text decoding (see `ChunkDecoder`); may change once the format is known. */
  readonly chunkDecoder: ChunkDecoder | null;
}

/** The text decoder of a recognised text format: its own, else its framing's. */
export function textDecoderOf(descriptor: AnyProviderDescriptor, maxFrameBytes: number): FrameDecoder<WireFrame> {
  if (descriptor.createDecoder !== undefined) return descriptor.createDecoder(maxFrameBytes) as FrameDecoder<WireFrame>;
  return descriptor.framing === 'ndjson' ? createNdjsonDecoder(maxFrameBytes, descriptor.parseLine) : createSseDecoder(maxFrameBytes);
}

const NO_FRAMES: readonly AnyFrame[] = Object.freeze([]);
const ENCODER = new TextEncoder();

/** A binary (or object) format's reading: bytes to its byte decoder, event objects through `readObject`. */
class BinaryReading implements ChunkDecoder {
  constructor(
    private readonly descriptor: AnyProviderDescriptor,
    readonly decoder: ByteFrameDecoder<unknown>,
  ) {}

  feedChunk(chunk: unknown): readonly AnyFrame[] {
    if (chunk instanceof Uint8Array) return this.decoder.feed(chunk) as readonly AnyFrame[];
    if (typeof chunk === 'string') return this.decoder.feed(ENCODER.encode(chunk)) as readonly AnyFrame[];
    const readObject = this.descriptor.readObject;
    if (readObject === undefined || typeof chunk !== 'object' || chunk === null) {
      throw new TypeError(`Expected a chunk of bytes${readObject === undefined ? '' : ' or an event object'} for ${this.descriptor.name}, got ${describeValue(chunk)}`);
    }
    return [readObject(chunk) as AnyFrame];
  }

  endChunks(): FrameDecoderEnd<AnyFrame> {
    return this.decoder.flush() as FrameDecoderEnd<AnyFrame>;
  }
}

/** A byte decoder for a format read from event objects only (no binary framing of its own). */
const OBJECTS_ONLY: ByteFrameDecoder<unknown> = Object.freeze({
  feed: (): readonly unknown[] => {
    throw new TypeError('Expected event objects, got bytes');
  },
  flush: () => ({ frames: [], truncatedFrame: false }),
  ended: false,
  failure: null,
});

/**
 * partstream's own formats and the registered ones: the body is recognised first (unless one
 * format is named), then decoded and mapped by the recognised descriptor (a `partstream` relay
 * body by the relay viewer, whose callbacks `gate` may hold back up to a sequence).
 */
export function providerDecoder(choice: FormatChoice, maxFrameBytes: number, gate: ReplayGate | null = null): FramedDecoder {
  return new ProviderDecoder(choice, maxFrameBytes, gate);
}

/** `providerDecoder`'s plan (a class: one shape for every stream, no closures per event). */
class ProviderDecoder implements FramedDecoder, ChunkDecoder {
  private readonly decoder: WireDecoder;
  /** The binary (or object) reading, once such a format is known. */
  private binary: BinaryReading | null = null;
  /** The binary (or object) format, once known. */
  private binaryFormat: AnyProviderDescriptor | null = null;
  /** The first bytes, held while a binary candidate still has to judge them; null once text decoding began. */
  private held: Uint8Array | null = new Uint8Array(0);
  private readonly binaryCandidates: readonly AnyProviderDescriptor[];

  constructor(
    private readonly choice: FormatChoice,
    private readonly maxFrameBytes: number,
    private readonly gate: ReplayGate | null,
  ) {
    const candidates = choice.candidates;
    this.decoder = createWireDecoder({ expected: choice.expected, candidates }, maxFrameBytes, (format) => textDecoderOf(this.named(format), maxFrameBytes));
    const expected = choice.expected;
    if (expected !== null && expected.framing === 'aws-eventstream') {
      this.binary = this.binaryReading(expected);
      this.held = null;
    }
    this.binaryCandidates = expected === null ? candidates.filter((candidate) => candidate.framing === 'aws-eventstream' || candidate.readObject !== undefined) : [];
    if (this.binaryCandidates.length === 0) this.held = null;
  }

  private named(format: string): AnyProviderDescriptor {
    const expected = this.choice.expected;
    if (expected !== null && expected.format === format) return expected;
    for (const candidate of this.choice.candidates) if (candidate.format === format) return candidate;
    throw new TypeError(`Expected a known format, got ${describeValue(format)}`);
  }

  private binaryReading(descriptor: AnyProviderDescriptor): BinaryReading {
    this.binaryFormat = descriptor;
    const create = descriptor.createByteDecoder;
    return new BinaryReading(descriptor, create === undefined ? OBJECTS_ONLY : create(this.maxFrameBytes));
  }

  get chunkDecoder(): ChunkDecoder | null {
    if (this.binary !== null) return this.binary;
    return this.held !== null ? this : null;
  }

  feedChunk(chunk: unknown, text: Utf8Decoder): readonly AnyFrame[] {
    const held = this.held;
    if (held === null) return this.binary !== null ? this.binary.feedChunk(chunk) : this.decoder.feed(text.decode(chunk as Uint8Array | string));
    if (typeof chunk === 'object' && chunk !== null && !(chunk instanceof Uint8Array)) {
      // An SDK's parsed stream: the first candidate that reads event objects.
      const reader = this.binaryCandidates.find((candidate) => candidate.readObject !== undefined);
      if (reader !== undefined && held.length === 0) return this.choose(reader).feedChunk(chunk);
      this.held = null;
      return this.decoder.feed(text.decode(chunk as Uint8Array));
    }
    if (typeof chunk === 'string') {
      this.held = null;
      return this.decoder.feed(text.decode(held) + text.decode(chunk));
    }
    const bytes = held.length === 0 ? (chunk as Uint8Array) : concat(held, chunk as Uint8Array);
    for (const candidate of this.binaryCandidates) {
      const verdict = candidate.sniff?.binaryPrelude?.(bytes) ?? 'no';
      if (verdict === 'yes') return this.choose(candidate).feedChunk(bytes);
      if (verdict === 'more') {
        this.held = bytes;
        return NO_FRAMES;
      }
    }
    this.held = null;
    return this.decoder.feed(text.decode(bytes));
  }

  endChunks(text: Utf8Decoder): FrameDecoderEnd<AnyFrame> {
    if (this.binary !== null) return this.binary.endChunks();
    const held = this.held;
    this.held = null;
    const frames = held === null || held.length === 0 ? this.decoder.feed(text.end()) : this.decoder.feed(text.decode(held) + text.end());
    const end = this.decoder.flush();
    return { frames: [...frames, ...end.frames], truncatedFrame: end.truncatedFrame };
  }

  private choose(descriptor: AnyProviderDescriptor): BinaryReading {
    this.held = null;
    const reading = this.binaryReading(descriptor);
    this.binary = reading;
    return reading;
  }

  feed(text: string): readonly WireFrame[] {
    return this.decoder.feed(text);
  }

  flush(): FrameDecoderEnd<WireFrame> {
    return this.decoder.flush();
  }

  get ended(): boolean {
    return this.binary !== null ? this.binary.decoder.ended : this.decoder.ended;
  }

  get failure(): StreamError | null {
    return this.binary !== null ? this.binary.decoder.failure : this.decoder.failure;
  }

  /** The recognised format's descriptor; null while the body is being recognised. */
  private get recognised(): AnyProviderDescriptor | null {
    if (this.binaryFormat !== null) return this.binaryFormat;
    const known = this.decoder.format;
    return known === null ? null : this.named(known);
  }

  /** The recognised format's descriptor, or the named one from the start. */
  get descriptor(): AnyProviderDescriptor | null {
    return this.recognised ?? this.choice.expected;
  }

  get framing(): Framing | null {
    return this.recognised?.framing ?? null;
  }

  createMapper(): AnyStreamMapper {
    const descriptor = this.recognised;
    if (descriptor === null) throw new StreamError('format', 'The body format is not known yet');
    // The relay viewer holds its callbacks back up to `fromSequence` (SPEC §13).
    return descriptor === partstreamFormat && this.gate !== null ? new PartstreamMapper(this.gate) : (descriptor.createMapper() as AnyStreamMapper);
  }

  get adapterName(): string {
    return this.descriptor?.format ?? 'auto';
  }

  get frameDecoder(): FrameDecoder<WireFrame> | null {
    return this.decoder.inner;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** `adapterDecoder`'s plan: the framing is known from the start. */
class AdapterDecoder implements FramedDecoder {
  readonly adapterName = 'custom';
  readonly descriptor = null;
  readonly chunkDecoder = null;

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
