import type { ChatResponse } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type { ChunkReader } from '../transport/byte-source';
import type { FormatOption } from './format-choice';
import type { StreamMapper } from '../providers/stream-mapper';
import type { AnyProviderDescriptor } from '../providers/provider-descriptor';
import type { SseFrame } from '../wire/types';
import type { StreamRelay } from './stream-relay';
import type { ObservationOptions } from '../telemetry/chat-model-listener';

/** How a stream ended: its final response, or the error / cancel and everything aggregated before it. */
export type StreamOutcome =
  | { readonly status: 'completed'; readonly response: ChatResponse }
  | { readonly status: 'failed'; readonly error: Error; readonly partial: ChatResponse }
  | { readonly status: 'cancelled'; readonly partial: ChatResponse };

/** The cancellation and the limits every stream takes, whoever maps it. */
export interface StreamLimits {
  /** Cancels the stream (before the first token too), like the handle's `cancel()`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Fails the stream with a `timeout` StreamError when no bytes arrive for this long (milliseconds),
   * before and after the response headers: it bounds each wait on the transport and restarts at
   * the next one. Time spent inside the handler's callbacks never counts. Off when absent.
   */
  readonly idleTimeoutMs?: number | undefined;
  /**
   * A deadline for the whole stream (milliseconds from the call): past it the stream fails with a
   * `timeout` StreamError however the server trickles — an HTTP request still waiting for its
   * headers is aborted — and the outcome's `partial` keeps what was aggregated. Off when absent: a
   * legitimate generation can stream for tens of minutes; set it when the server is not trusted.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The largest frame the stream may send, in UTF-16 code units of its decoded text: one SSE event
   * (all its lines up to the blank line that ends it, comments included, line ends not counted) or
   * one NDJSON line (before its LF or CRLF). Past it the stream fails with a `malformed` StreamError naming
   * the limit and this option, without buffering the frame whole; the frames before it are
   * delivered. Applies while the format is being recognised too. 64 MiB by default
   * (`DEFAULT_MAX_FRAME_BYTES`); `Infinity` for no limit.
   */
  readonly maxFrameBytes?: number | undefined;
  /**
   * Relays this stream (SPEC §13): every input the response core takes becomes the next event of
   * the relay's log (`openRelay` in `partstream/relay`). The handler's callbacks run exactly as
   * without it. A relay serves one stream.
   */
  readonly relay?: StreamRelay | undefined;
}

/** Options of `consumeStream` for a provider partstream maps itself. */
export interface ProviderStreamOptions extends StreamLimits, ObservationOptions {
  /**
   * The wire format of the source, or `auto` (the default) to recognise it from the first frames,
   * or a custom provider's `ProviderDescriptor` (SPEC §15).
   */
  readonly format?: FormatOption | undefined;
  /** Custom providers that `auto` tries first, before partstream's own (each recognised by its `sniff` rule). */
  readonly providers?: readonly AnyProviderDescriptor[] | undefined;
  readonly adapter?: undefined;
  /**
   * Only with `format: 'partstream'`: the events up to this sequence are applied without a
   * callback, and callbacks start at the next one (the terminal callback always comes); 0 by default.
   */
  readonly fromSequence?: number | undefined;
}

/** How an adapter's body is framed: Server-Sent Events or one JSON value per line. */
export type Framing = 'sse' | 'ndjson';

/** A mapper that says how its body is framed (then `consumeStream` needs no `format`). */
export type FramedStreamMapper = (StreamMapper<SseFrame> & { readonly framing: 'sse' }) | (StreamMapper<unknown> & { readonly framing: 'ndjson' });

/**
 * A provider author's adapter for `consumeStream`: a mapper, or a function that creates one. The
 * function is called once per stream, synchronously by `consumeStream`, so one options object can
 * serve any number of streams; a mapper instance is stateful and serves one stream only (a second
 * stream with the same instance is a `TypeError`).
 */
export type StreamAdapter<M> = M | (() => M);

/**
 * Options of `consumeStream` for a provider author's own adapter (SPEC §9). The body is framed as
 * `format` says, or as the mapper's own `framing` says when `format` is left out: `sse`
 * (Server-Sent Events: the mapper gets each `SseFrame`; `data: [DONE]` reaches it too and ends the
 * reading; comments and events without data, even named ones, never reach it) or `ndjson` (one JSON value per line: the mapper gets the parsed value; a line that is
 * not JSON surfaces raw as its text and never reaches the mapper).
 */
export type AdapterStreamOptions = StreamLimits &
  ObservationOptions &
  (
    | { readonly format: 'sse'; readonly adapter: StreamAdapter<StreamMapper<SseFrame>> }
    | { readonly format: 'ndjson'; readonly adapter: StreamAdapter<StreamMapper<unknown>> }
    | { readonly format?: undefined; readonly adapter: StreamAdapter<FramedStreamMapper> }
  );

/** Options of `consumeStream`: one of partstream's formats, or a framing and your own adapter. */
export type ConsumeStreamOptions = ProviderStreamOptions | AdapterStreamOptions;

/**
 * How a transport that holds secrets (an HTTP client's API key and credential headers) keeps them
 * out of what a stream reports, whatever the server sends back (SPEC §11). Called only for what is
 * rare — the stream's error, a raw event — never per token.
 */
export interface SecretRedaction {
  /** `error` itself when it shows no secret anywhere (fields, cause), else a copy of the same kind with each secret replaced. */
  error(error: Error): Error;
  /** `rawEvent` itself when it shows no secret, else a copy with each secret replaced. */
  rawEvent(rawEvent: unknown): unknown;
}

/** Options of `startStream`: those of `consumeStream`, plus how secrets are redacted. */
export interface StartStreamOptions extends ProviderStreamOptions {
  /**
   * Applied to the stream's error (before `onError` and the outcome) and to every raw event
   * (before `onUnmappedRawEvent`), so that a secret the server echoes never reaches them.
   */
  readonly redaction?: SecretRedaction | undefined;
}

/**
 * Opens a stream's transport and returns a reader on its body. `signal` aborts when the stream is
 * cancelled or fails (pass it to `fetch`). A `StreamError` it rejects with (e.g. an HTTP error
 * status) is the stream's error as is; any other rejection is a `network` error.
 */
export type OpenStream = (signal: AbortSignal) => Promise<ChunkReader>;

const FRAMINGS: readonly string[] = ['sse', 'ndjson'];
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The largest frame a stream may send unless `maxFrameBytes` says otherwise (64 MiB). */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/**
 * Throws a `TypeError` naming the option that is of the wrong kind or out of range (the driver's
 * entry points turn it into a rejected promise). A `format` left out is `auto`.
 */
export function checkOptions(options: ConsumeStreamOptions | StartStreamOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`Expected options to be an object, got ${describeValue(options)}`);
  const adapter: unknown = options.adapter;
  if (adapter !== undefined) {
    if (adapter === null || (typeof adapter !== 'function' && typeof adapter !== 'object')) {
      throw new TypeError(`Expected adapter to be a StreamMapper or a function that creates one, got ${describeValue(adapter)}`);
    }
    if (options.format !== undefined && !FRAMINGS.includes(options.format as string)) {
      throw new TypeError(`Expected format to be sse or ndjson with an adapter, got ${describeValue(options.format)}`);
    }
  }
  const timeout = options.idleTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && timeout <= MAX_TIMEOUT_MS)) {
    throw new TypeError(`Expected idleTimeoutMs to be a positive number of milliseconds, got ${describeValue(timeout)}`);
  }
  const deadline = options.timeoutMs;
  if (deadline !== undefined && !(typeof deadline === 'number' && deadline > 0 && deadline <= MAX_TIMEOUT_MS)) {
    throw new TypeError(`Expected timeoutMs to be a positive number of milliseconds, got ${describeValue(deadline)}`);
  }
  const maxFrame = options.maxFrameBytes;
  if (maxFrame !== undefined && !(typeof maxFrame === 'number' && maxFrame > 0 && (Number.isInteger(maxFrame) || maxFrame === Infinity))) {
    throw new TypeError(`Expected maxFrameBytes to be a positive whole number or Infinity, got ${describeValue(maxFrame)}`);
  }
  const relay: unknown = options.relay;
  if (relay !== undefined && (relay === null || typeof (relay as StreamRelay).recordStream !== 'function')) {
    throw new TypeError(`Expected relay to be a Relay (from openRelay), got ${describeValue(relay)}`);
  }
  const from: unknown = 'fromSequence' in options ? options.fromSequence : undefined;
  if (from !== undefined) {
    const format: unknown = options.format;
    if (format !== 'partstream') throw new TypeError(`Expected fromSequence only with format 'partstream', got format ${describeValue(options.format)}`);
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) {
      throw new TypeError(`Expected fromSequence to be a whole number ≥ 0, got ${describeValue(from)}`);
    }
  }
}
