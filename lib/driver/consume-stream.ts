import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { assertStreamSource, openChunkReader, type StreamSource } from '../transport/byte-source';
import { checkOptions, type ConsumeStreamOptions, type OpenStream, type StartStreamOptions, type StreamOutcome } from './stream-options';
import { StreamRun } from './stream-run';

export { defaultMapperFactory } from '../providers/default-mappers';
export { DEFAULT_MAX_FRAME_BYTES } from './stream-options';
export type { MapperFactory } from '../providers/stream-mapper';
export type { ConsumeStreamOptions, OpenStream, StartStreamOptions, StreamOutcome } from './stream-options';

/**
 * Reads a provider's streamed response and drives `handler` through the chain user ← SafeHandler ←
 * PartsBridge ← MappingTrackingHandler, one provider event at a time: the tracker is reset, the
 * format's mapper maps the event, and an event that reached no typed callback surfaces untouched
 * through `onUnmappedRawEvent` (`{event, data}` for SSE, the parsed line for NDJSON, the line's
 * text when it is not JSON). Sentinels, comments and blank frames never do.
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
 * kind) throws a `TypeError` at once.
 */
export function consumeStream(source: StreamSource, handler: StreamingChatResponseHandler, options: ConsumeStreamOptions): Promise<StreamOutcome> {
  assertStreamSource(source);
  checkOptions(options);
  const run = new StreamRun(handler, options);
  return run.run(openChunkReader(source));
}

/**
 * `consumeStream` for a transport that still has to be opened (an HTTP request): the handler chain
 * exists before `open` is called, so a cancel or timeout while waiting for the response aborts it,
 * and an error `open` rejects with becomes the stream's one `onError`. Misuse throws at once.
 */
export function startStream(open: OpenStream, handler: StreamingChatResponseHandler, options: StartStreamOptions): Promise<StreamOutcome> {
  if (typeof open !== 'function') throw new TypeError(`Expected open to be a function, got ${describeValue(open)}`);
  checkOptions(options);
  return new StreamRun(handler, options).run(open);
}
