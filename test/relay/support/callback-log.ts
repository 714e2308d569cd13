import type { ChatResponse, StreamingChatResponseHandler } from '../../../lib/handler/types';

/** One callback as plain data, payloads included, the terminal with its whole response or error fields. */
export type LoggedCallback =
  | { readonly on: 'partialResponse' | 'partialThinking'; readonly text: string; readonly payload: unknown }
  | { readonly on: 'partialToolCall'; readonly index: number; readonly id: string | null; readonly name: string; readonly partialArguments: string }
  | { readonly on: 'completeToolCall'; readonly index: number; readonly request: unknown; readonly payload: unknown }
  | { readonly on: 'unmappedRawEvent'; readonly raw: unknown }
  | { readonly on: 'completeResponse'; readonly response: ChatResponse }
  | { readonly on: 'error'; readonly name: string; readonly kind: unknown; readonly code: unknown; readonly message: string };

/** A handler that logs every callback it gets (see `LoggedCallback`). */
export function loggingHandler(log: LoggedCallback[] = []): StreamingChatResponseHandler & { readonly log: LoggedCallback[] } {
  return {
    log,
    onPartialResponse: (partial) => void log.push({ on: 'partialResponse', text: partial.text, payload: partial.payload ?? null }),
    onPartialThinking: (partial) => void log.push({ on: 'partialThinking', text: partial.text, payload: partial.payload ?? null }),
    onPartialToolCall: (partial) => void log.push({ on: 'partialToolCall', index: partial.index, id: partial.id, name: partial.name, partialArguments: partial.partialArguments }),
    onCompleteToolCall: (complete) => void log.push({ on: 'completeToolCall', index: complete.index, request: { ...complete.toolExecutionRequest }, payload: complete.payload ?? null }),
    onUnmappedRawEvent: (raw) => void log.push({ on: 'unmappedRawEvent', raw }),
    onCompleteResponse: (response) => void log.push({ on: 'completeResponse', response }),
    onError: (error) => void log.push({ on: 'error', name: error.name, kind: (error as { kind?: unknown }).kind, code: (error as { code?: unknown }).code, message: error.message }),
  };
}
