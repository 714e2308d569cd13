import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { openChunkReader, sourceHeader, type ChunkReader, type StreamSource } from '../transport/byte-source';
import { chooseFormat } from './format-choice';
import { checkOptions, DEFAULT_MAX_FRAME_BYTES, type ConsumeStreamOptions, type StartStreamOptions, type StreamOutcome } from './stream-options';
import { checkObservationOptions, type HttpAttempts } from '../telemetry/stream-observer';
import type { AttemptObserver } from '../telemetry/http-attempts';
import { StreamRun } from './stream-run';
import { PARTSTREAM_WIRE_HEADER } from '../providers/partstream/partstream-wire';
import { ReplayGate } from '../providers/partstream/replay-gate';
import { adapterDecoder, providerDecoder } from './wire-plan';

export { DEFAULT_MAX_FRAME_BYTES } from './stream-options';
export type { FormatOption } from './format-choice';
export type { RecordedStream, StreamRecorder, StreamRelay } from './stream-relay';
export type {
  AdapterStreamOptions,
  ConsumeStreamOptions,
  FramedStreamMapper,
  Framing,
  OpenStream,
  ProviderStreamOptions,
  SecretRedaction,
  StartStreamOptions,
  StreamAdapter,
  StreamLimits,
  StreamOutcome,
} from './stream-options';

/**
 * Reads a provider's streamed response and drives `handler` through the chain user ← SafeHandler ←
 * PartsBridge ← MappingTrackingHandler, one provider event at a time: the tracker is reset, the
 * mapper maps the event, and an event that reached no typed callback (or that the mapper marked
 * with `surfaceRaw` as only partly mapped) surfaces untouched through `onUnmappedRawEvent`
 * (`{event, data}` for SSE, the parsed line for NDJSON, the line's text when it is not JSON).
 * Sentinels, comments and blank frames never do.
 *
 * The mapper is partstream's own for `format` (one of the five, or `auto`), or a provider author's
 * own (SPEC §9): `{ format: 'sse' | 'ndjson', adapter: () => new MyMapper() }` — a factory, called
 * once per stream — or `{ adapter: mapper }`, an instance for this one stream whose `framing`
 * says `sse` or `ndjson` (see `AdapterStreamOptions`). Either way the same
 * rules hold: `map` is never called after it returned true or after a terminal callback, `end` at
 * most once and only while no terminal callback was delivered, and a stream that ends without a
 * terminal callback fails `truncated`; a mapper that throws fails the stream `malformed`.
 *
 * A callback that returns a promise is waited for before the next callback is delivered and
 * before the source is read further (backpressure); a rejection is reported like a throw, and
 * "after the terminal callback" below means after its promise settled.
 *
 * The promise settles after the terminal callback and never rejects for a stream failure: the
 * failure went to `onError` (once) and is in the outcome, with everything aggregated before it. A
 * failing source (a reset connection) is a `network` StreamError; a silent one, with
 * `idleTimeoutMs`, a `timeout`, and so is one still going at `timeoutMs`. Cancelling (the handle, or `signal`) cancels the source and
 * resolves `cancelled` with no callback after it. Misuse (a source, handler or option of the wrong
 * kind, an adapter that does not return a mapper) rejects the promise with a `TypeError` before
 * the source is read or any callback is called; nothing is thrown synchronously, so `.catch()`
 * sees every failure. `options` may be left out: `format` is `auto` by default.
 */
export function consumeStream(source: StreamSource, handler: StreamingChatResponseHandler, options: ConsumeStreamOptions = {}): Promise<StreamOutcome> {
  try {
    return runConsumeStream(source, handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function runConsumeStream(source: StreamSource, handler: StreamingChatResponseHandler, options: ConsumeStreamOptions): Promise<StreamOutcome> {
  checkOptions(options);
  checkObservationOptions(options);
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const from = options.adapter === undefined ? (options.fromSequence ?? 0) : 0;
  // A relay viewer that starts after a sequence holds back the callbacks of the events up to it.
  const gate = from > 0 ? new ReplayGate(handler, from) : null;
  const decoder =
    options.adapter !== undefined ? adapterDecoder(options, maxFrameBytes) : providerDecoder(chooseFormat(options.format, options.providers, relayHeader(source, options.format)), maxFrameBytes, gate);
  // Opened last, once nothing else can throw: a source of the wrong kind throws here, unlocked.
  const reader = openChunkReader(source);
  return new StreamRun(gate ?? handler, options, decoder).run(reader);
}

/**
 * How `startStream` opens its transport: `OpenStream`, told also how to report each HTTP request
 * it sends to the stream's listeners (null when the stream has none).
 */
export type OpenObservedStream = (signal: AbortSignal, attempts: AttemptObserver | null) => Promise<ChunkReader>;

/**
 * `consumeStream` for a transport that still has to be opened (an HTTP request): the handler chain
 * exists before `open` is called, so a cancel or timeout while waiting for the response aborts it,
 * and an error `open` rejects with becomes the stream's one `onError`. Misuse rejects the promise
 * with a `TypeError` before `open` is called; `format` is `auto` by default. `open` sends its
 * requests through the `AttemptObserver` it is given, if any; `attempts` tells the stream's
 * listeners what the HTTP client saw (read once, at the end).
 */
export function startStream(open: OpenObservedStream, handler: StreamingChatResponseHandler, options: StartStreamOptions = {}, attempts?: () => HttpAttempts): Promise<StreamOutcome> {
  try {
    if (typeof open !== 'function') throw new TypeError(`Expected open to be a function, got ${describeValue(open)}`);
    checkOptions(options);
    checkObservationOptions(options);
    const decoder = providerDecoder(chooseFormat(options.format, options.providers), options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    if (options.redaction !== undefined && (typeof options.redaction !== 'object' || options.redaction === null)) {
      throw new TypeError(`Expected redaction to be an object with error and rawEvent methods, got ${describeValue(options.redaction)}`);
    }
    return new StreamRun(handler, options, decoder, options.redaction ?? null, attempts).run(open);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `auto` is decided by a relay's `x-partstream-wire: 1` response header before any byte is read (SPEC §13). */
function relayHeader(source: StreamSource, format: unknown): boolean {
  return (format === undefined || format === 'auto') && sourceHeader(source, PARTSTREAM_WIRE_HEADER) === '1';
}
