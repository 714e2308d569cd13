import type { CoreRecorder } from '../core/core-recorder';
import type { ChatResponseMetadata } from '../handler/types';
import type { StreamOutcome } from './stream-options';

/** What the driver lets a relay do to the stream it records. */
export interface RecordedStream {
  /** The id and model the mapper saw so far (the partial's metadata of a failed or cancelled stream). */
  metadataSoFar(): ChatResponseMetadata | undefined;
  /** Cancels the stream (the provider request is aborted), as its handle's `cancel()` does. */
  cancel(reason?: unknown): void;
  /** Fails the stream with `error` (its one `onError`) and aborts the provider request. */
  fail(error: Error): void;
}

/** A relay's recorder of one stream: the core's inputs, then how the stream ended. */
export interface StreamRecorder extends CoreRecorder {
  /**
   * The stream is over, as `outcome` says (called once, before `consumeStream` settles). Returns
   * the outcome the caller gets: `outcome` itself, or a failure the relay decided (its stream was
   * fenced out).
   */
  end(outcome: StreamOutcome): StreamOutcome;
}

/**
 * The driver's side of the `relay` option (`partstream/relay`'s `Relay` is one): asked once per
 * stream, as it starts, for the recorder of that stream. A relay records one stream only.
 */
export interface StreamRelay {
  recordStream(stream: RecordedStream): StreamRecorder;
}
