import { MappingTrackingHandler } from '../../../lib/tracker/mapping-tracking-handler';
import type { ChatResponse, ChatResponseMetadata, StreamingChatResponseHandler, StreamingHandle } from '../../../lib/handler/types';
import { StreamError } from '../../../lib/handler/stream-error';
import type { MessagePart } from '../../../lib/parts/types';
import type { MapperTarget, StreamMapper } from '../../../lib/providers/stream-mapper';
import type { SseFrame } from '../../../lib/wire/types';

/** The metadata fields a `complete` step compares: id, model, usage and the normalized finish reason. */
export type CoreMetadata = Pick<ChatResponseMetadata, 'id' | 'modelName' | 'tokenUsage' | 'finishReason'>;

/** The provider's own fields of a completed response, kept as sent (compared by the tests about them). */
export type ProviderMetadataFields = Pick<ChatResponseMetadata, 'providerFinishReason' | 'providerUsage' | 'providerMetadata'>;

/** One callback, in a compact form that deep equality can compare. */
export type Step =
  | readonly ['thinking', string, unknown?]
  | readonly ['text', string, unknown?]
  | readonly ['toolDelta', number, string | null, string, string]
  | readonly ['tool', number, string | null, string, string, unknown?]
  | readonly ['raw', unknown]
  | readonly ['complete', CoreMetadata, ChatResponse['aiMessage']['attributes']]
  | readonly ['error', string, string];

/** What a run of frames through a mapper produced. */
export interface HarnessRun {
  readonly steps: Step[];
  /** The values `map` returned, frame by frame. */
  readonly returns: boolean[];
  readonly errors: Error[];
  /** What the mapper passed to `target.completeBlock`, in order (null: a block ended without a part). */
  readonly blocks: Array<MessagePart | null>;
  /** The provider fields of each completed response, in order. */
  readonly provider: ProviderMetadataFields[];
}

const HANDLE: StreamingHandle = Object.freeze({ cancel() {}, isCancelled: () => false });

/**
 * Drives a mapper the way the stream driver does — reset the tracker, map, surface the frame raw
 * when nothing typed fired or the mapper called `surfaceRaw`; stop once `map` returns true or a
 * terminal callback was delivered; then `end` unless a terminal callback was — and records the
 * callbacks.
 */
export function runFrames(mapper: StreamMapper<SseFrame>, frames: readonly SseFrame[], truncatedFrame = false): HarnessRun {
  const steps: Step[] = [];
  const errors: Error[] = [];
  const provider: ProviderMetadataFields[] = [];
  const contexts = new Set<unknown>();
  const recorder: StreamingChatResponseHandler = {
    onPartialThinking(partial, context) {
      contexts.add(context);
      steps.push(partial.payload === undefined ? ['thinking', partial.text] : ['thinking', partial.text, partial.payload]);
    },
    onPartialResponse(partial, context) {
      contexts.add(context);
      steps.push(partial.payload === undefined ? ['text', partial.text] : ['text', partial.text, partial.payload]);
    },
    onPartialToolCall(partial, context) {
      contexts.add(context);
      steps.push(['toolDelta', partial.index, partial.id, partial.name, partial.partialArguments]);
    },
    onCompleteToolCall(complete) {
      const { id, name, arguments: args } = complete.toolExecutionRequest;
      steps.push(complete.payload === undefined ? ['tool', complete.index, id, name, args] : ['tool', complete.index, id, name, args, complete.payload]);
    },
    onUnmappedRawEvent(raw) {
      steps.push(['raw', raw]);
    },
    onCompleteResponse(response) {
      const { id, modelName, tokenUsage, finishReason, providerFinishReason, providerUsage, providerMetadata } = response.metadata;
      steps.push(['complete', { id, modelName, tokenUsage, finishReason }, response.aiMessage.attributes]);
      provider.push({ providerFinishReason, providerUsage, providerMetadata });
    },
    onError(error) {
      errors.push(error);
      steps.push(['error', StreamError.isInstance(error) ? error.kind : error.name, error.message]);
    },
  };
  const tracker = new MappingTrackingHandler(recorder);
  const blocks: Array<MessagePart | null> = [];
  let rawToo = false;
  const target: MapperTarget = {
    handler: tracker,
    handle: HANDLE,
    completeBlock: (part) => blocks.push(part ?? null),
    surfaceRaw: () => {
      rawToo = true;
    },
  };
  const returns: boolean[] = [];
  const terminal = (): boolean => steps.some((step) => step[0] === 'complete' || step[0] === 'error');
  for (const frame of frames) {
    if (terminal()) break;
    tracker.resetMappingTracking();
    rawToo = false;
    const done = mapper.map(frame, target);
    returns.push(done);
    if ((rawToo || !tracker.wasMapped()) && frame.data !== '[DONE]') tracker.onUnmappedRawEvent(frame);
    if (done) break;
  }
  tracker.resetMappingTracking();
  if (!terminal()) mapper.end(target, truncatedFrame);
  if (contexts.size > 1) throw new Error(`Expected one context object per stream, got ${contexts.size}`);
  return { steps, returns, errors, blocks, provider };
}

/** An SSE frame without an event name whose data is `value` as JSON (OpenAI Chat, Gemini). */
export function dataFrame(value: unknown): SseFrame {
  return { event: null, data: JSON.stringify(value) };
}

/** An SSE frame named after the JSON's `type` (Anthropic, OpenAI Responses). */
export function typedFrame(value: { readonly type: string } & Record<string, unknown>): SseFrame {
  return { event: value.type, data: JSON.stringify(value) };
}
