import type {
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

/** The listener signature of each `ChatStream` event: the arguments of the matching handler callback. */
export interface ChatStreamEvents {
  partialResponse: (partial: PartialResponse, context: PartialResponseContext) => void;
  partialThinking: (partial: PartialThinking, context: PartialThinkingContext) => void;
  partialToolCall: (partial: PartialToolCall, context: PartialToolCallContext) => void;
  completeToolCall: (complete: CompleteToolCall) => void;
  unmappedRawEvent: (rawEvent: unknown) => void;
  completeResponse: (response: ChatResponse) => void;
  error: (error: Error) => void;
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
