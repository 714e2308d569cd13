import type {
  CallbackResult,
  ChatResponse,
  CompleteToolCall,
  HandlerCallbackName,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
} from '../handler/types';

/**
 * The listener signature of each `ChatStream` event: the arguments of the matching handler
 * callback. A listener may return a promise: the stream then waits for it (see `ChatStream`).
 */
export interface ChatStreamEvents {
  partialResponse: (partial: PartialResponse, context: PartialResponseContext) => CallbackResult;
  partialThinking: (partial: PartialThinking, context: PartialThinkingContext) => CallbackResult;
  partialToolCall: (partial: PartialToolCall, context: PartialToolCallContext) => CallbackResult;
  completeToolCall: (complete: CompleteToolCall) => CallbackResult;
  unmappedRawEvent: (rawEvent: unknown) => CallbackResult;
  completeResponse: (response: ChatResponse) => CallbackResult;
  error: (error: Error) => CallbackResult;
}

/** The name of a `ChatStream` event. */
export type ChatStreamEventName = keyof ChatStreamEvents;

/** One event as `for await (const event of stream)` yields it: `type` names the event. */
export type ChatStreamEvent =
  | { readonly type: 'partialResponse'; readonly partial: PartialResponse; readonly context: PartialResponseContext }
  | { readonly type: 'partialThinking'; readonly partial: PartialThinking; readonly context: PartialThinkingContext }
  | { readonly type: 'partialToolCall'; readonly partial: PartialToolCall; readonly context: PartialToolCallContext }
  | { readonly type: 'completeToolCall'; readonly complete: CompleteToolCall }
  | { readonly type: 'unmappedRawEvent'; readonly rawEvent: unknown }
  | { readonly type: 'completeResponse'; readonly response: ChatResponse }
  | { readonly type: 'error'; readonly error: Error };

/** The handler callback each event comes from (names a throwing listener in its `HandlerCallbackError`). */
export const CALLBACK_OF_EVENT: Readonly<Record<ChatStreamEventName, HandlerCallbackName>> = Object.freeze({
  partialResponse: 'onPartialResponse',
  partialThinking: 'onPartialThinking',
  partialToolCall: 'onPartialToolCall',
  completeToolCall: 'onCompleteToolCall',
  unmappedRawEvent: 'onUnmappedRawEvent',
  completeResponse: 'onCompleteResponse',
  error: 'onError',
});

/** Every event name, in callback order. */
export const CHAT_STREAM_EVENT_NAMES: readonly ChatStreamEventName[] = Object.freeze(Object.keys(CALLBACK_OF_EVENT) as ChatStreamEventName[]);
