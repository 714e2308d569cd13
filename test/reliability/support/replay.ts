import { HandlerCallbackError } from '../../../lib/handler/handler-callback-error';
import type { HandlerCallbackName, StreamingChatResponseHandler, StreamingHandle } from '../../../lib/handler/types';
import { consumeStream, type StreamOutcome } from '../../../lib/driver/consume-stream';
import type { StreamSource } from '../../../lib/transport/byte-source';
import { StreamError } from '../../../lib/handler/stream-error';
import type { WireFormat } from '../../../lib/providers/registry';
import type { ChatResponse } from '../../../lib/handler/types';

/** The callbacks a handler can receive (bindStreamingHandle aside). */
export type CallbackName = Exclude<HandlerCallbackName, 'bindStreamingHandle'>;

/** An error as plain data, so runs can be compared with deep equality. */
export interface ErrorSummary {
  readonly name: string;
  readonly message: string;
  readonly kind?: string;
  readonly callbackName?: string;
}

/** One callback as plain data: its name and first argument (contexts left out; errors summarised). */
export interface Call {
  readonly on: CallbackName;
  readonly value: unknown;
}

/** What a hook may do at a callback: throw a value, cancel the stream, or both (cancel first). */
export interface HookAction {
  readonly cancel?: 'handle' | 'signal';
  readonly throws?: unknown;
}

/** Decides, per callback (0-based ordinal among all callbacks), what the handler does after recording it. */
export type Hook = (ordinal: number, call: Call) => HookAction | undefined;

/** How each chunk is held back: 0 none, 1–3 that many microtask turns, 4 a macrotask (setImmediate), 5 a 2 ms timer. */
export type Delay = 0 | 1 | 2 | 3 | 4 | 5;

/** What kind of object carries the body. */
export type SourceKind = 'iterable' | 'readable' | 'response';

/** A body source that notes whether the stream let go of it early. */
export interface Tracked {
  readonly source: StreamSource;
  /** True once the consumer cancelled / returned the source before its end. */
  readonly released: () => boolean;
  /** Chunks handed out. */
  readonly pulled: () => number;
  /** True once the consumer read the end of the body. */
  readonly ended: () => boolean;
}

function pause(delay: Delay): Promise<void> | null {
  if (delay === 0) return null;
  if (delay === 4) return new Promise((resolve) => setImmediate(resolve));
  if (delay === 5) return new Promise((resolve) => setTimeout(resolve, 2));
  let turn: Promise<void> = Promise.resolve();
  for (let i = 1; i < delay; i++) turn = turn.then(() => undefined);
  return turn;
}

/** Serves the chunks through the chosen kind of source, each after its delay (cycled). */
export function trackedBody(chunks: readonly Uint8Array[], kind: SourceKind = 'iterable', delays: readonly Delay[] = [], beforeChunk?: (index: number) => void): Tracked {
  let released = false;
  let pulled = 0;
  let ended = false;
  const delayOf = (i: number): Delay => (delays.length === 0 ? 0 : (delays[i % delays.length] as Delay));
  if (kind === 'iterable') {
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        let i = 0;
        let finished = false;
        return {
          async next(): Promise<IteratorResult<Uint8Array>> {
            if (finished || i >= chunks.length) {
              if (!finished) ended = true;
              finished = true;
              return { done: true, value: undefined };
            }
            beforeChunk?.(i);
            const wait = pause(delayOf(i));
            if (wait !== null) await wait;
            pulled++;
            return { done: false, value: chunks[i++] as Uint8Array };
          },
          async return(): Promise<IteratorResult<Uint8Array>> {
            if (!finished) released = true;
            finished = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    return { source, released: () => released, pulled: () => pulled, ended: () => ended };
  }
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (i >= chunks.length) {
          ended = true;
          controller.close();
          return;
        }
        beforeChunk?.(i);
        const wait = pause(delayOf(i));
        if (wait !== null) await wait;
        pulled++;
        // A copy: a ReadableStream may transfer what it is given, and the fixture bytes are shared.
        controller.enqueue(new Uint8Array(chunks[i++] as Uint8Array));
      },
      cancel() {
        released = true;
      },
    },
    { highWaterMark: 0 },
  );
  const source = kind === 'readable' ? stream : new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  return { source, released: () => released, pulled: () => pulled, ended: () => ended };
}

/** Summarises an error as plain data. */
export function summarise(error: Error): ErrorSummary {
  if (HandlerCallbackError.isInstance(error)) return { name: error.name, message: error.message, callbackName: error.callbackName };
  if (StreamError.isInstance(error)) return { name: error.name, message: error.message, kind: error.kind };
  return { name: error.name, message: error.message };
}

/** Everything one run produced. */
export interface Replay {
  readonly calls: Call[];
  /** The errors `onError` received, as received. */
  readonly errors: Error[];
  readonly outcome: StreamOutcome;
  /** The final response of a completed run, else the partial one. */
  readonly message: ChatResponse;
  /** Ordinal of the callback at which a hook cancelled, or null. */
  readonly cancelledAt: number | null;
  /** The source was let go before its end. */
  readonly released: boolean;
  /** The source was read to its end. */
  readonly ended: boolean;
}

/** Options of `replay`. */
export interface ReplayOptions {
  readonly kind?: SourceKind;
  readonly delays?: readonly Delay[];
  readonly hook?: Hook;
  readonly idleTimeoutMs?: number;
  /** Aborts the signal from outside the handler, just before this chunk (0-based) is handed out. */
  readonly abortBeforeChunk?: number;
}

/** A handler that records every callback as plain data, then runs the hook. */
export function recordingHandler(
  hook: Hook | undefined,
  onCancel: (how: 'handle' | 'signal') => void,
): {
  handler: StreamingChatResponseHandler;
  calls: Call[];
  errors: Error[];
  handle: () => StreamingHandle | null;
} {
  const calls: Call[] = [];
  const errors: Error[] = [];
  let bound: StreamingHandle | null = null;
  const step = (on: CallbackName, value: unknown): void => {
    const call: Call = { on, value };
    const ordinal = calls.length;
    calls.push(call);
    const action = hook?.(ordinal, call);
    if (action === undefined) return;
    if (action.cancel !== undefined) onCancel(action.cancel);
    if ('throws' in action) throw action.throws;
  };
  const handler: StreamingChatResponseHandler = {
    bindStreamingHandle: (handle) => {
      bound = handle;
    },
    onPartialResponse: (partial) => step('onPartialResponse', partial),
    onPartialThinking: (partial) => step('onPartialThinking', partial),
    onPartialToolCall: (partial) => step('onPartialToolCall', partial),
    onCompleteToolCall: (complete) => step('onCompleteToolCall', complete),
    onUnmappedRawEvent: (raw) => step('onUnmappedRawEvent', raw),
    onCompleteResponse: (response) => step('onCompleteResponse', response),
    onError: (error) => {
      errors.push(error);
      step('onError', summarise(error));
    },
  };
  return { handler, calls, errors, handle: () => bound };
}

/** Replays `chunks` through `consumeStream` with a recording handler. */
export async function replay(chunks: readonly Uint8Array[], format: WireFormat | 'auto', options: ReplayOptions = {}): Promise<Replay> {
  const abort = new AbortController();
  const body = trackedBody(chunks, options.kind, options.delays, (index) => {
    if (index === options.abortBeforeChunk) abort.abort();
  });
  let cancelledAt: number | null = null;
  const recorder = recordingHandler(options.hook, (how) => {
    if (cancelledAt === null) cancelledAt = recorder.calls.length - 1;
    if (how === 'signal') abort.abort();
    else recorder.handle()?.cancel();
  });
  const outcome = await consumeStream(body.source, recorder.handler, { format, signal: abort.signal, idleTimeoutMs: options.idleTimeoutMs });
  const message = outcome.status === 'completed' ? outcome.response : outcome.partial;
  return { calls: recorder.calls, errors: recorder.errors, outcome, message, cancelledAt, released: body.released(), ended: body.ended() };
}

/** The body as one chunk. */
export function whole(bytes: Uint8Array): Uint8Array[] {
  return [bytes];
}

/** Splits bytes at the given offsets (one helper for every test). */
export { splitAt } from '../../support/chunk-sources';

/** Replays each fixture's whole body once and hands out that reference run on every later ask. */
export function referenceRuns(): (fixture: { readonly file: string; readonly bytes: Uint8Array; readonly format: WireFormat }) => Promise<Replay> {
  const references = new Map<string, Replay>();
  return async (fixture) => {
    let reference = references.get(fixture.file);
    if (reference === undefined) {
      reference = await replay(whole(fixture.bytes), fixture.format);
      references.set(fixture.file, reference);
    }
    return reference;
  };
}
