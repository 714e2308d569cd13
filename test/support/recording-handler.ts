import type { ChatResponse, StreamingChatResponseHandler, StreamingHandle } from '../../lib/handler/types';

/** One callback a handler received, as plain data (deep-equal friendly). */
export type Recorded =
  | { readonly on: 'partialResponse'; readonly text: string }
  | { readonly on: 'partialThinking'; readonly text: string }
  | { readonly on: 'partialToolCall'; readonly index: number; readonly id: string | null; readonly name: string; readonly partialArguments: string }
  | { readonly on: 'completeToolCall'; readonly index: number; readonly id: string | null; readonly name: string; readonly arguments: string }
  | { readonly on: 'unmappedRawEvent'; readonly raw: unknown }
  | { readonly on: 'completeResponse'; readonly text: string | null; readonly thinking: string | null }
  | { readonly on: 'error'; readonly name: string; readonly kind: string | undefined; readonly message: string };

/** A handler that records its callbacks; `handle` is the stream's handle once bound. */
export interface RecordingHandler extends StreamingChatResponseHandler {
  readonly calls: Recorded[];
  readonly errors: Error[];
  readonly responses: ChatResponse[];
  handle: StreamingHandle | null;
}

/** Creates a recording handler; `hooks` run after the recording (e.g. to cancel or throw). */
export function recordingHandler(hooks: { afterEach?: (call: Recorded, handler: RecordingHandler) => void } = {}): RecordingHandler {
  const handler: RecordingHandler = {
    calls: [],
    errors: [],
    responses: [],
    handle: null,
    bindStreamingHandle(handle) {
      handler.handle = handle;
    },
    onPartialResponse(partial) {
      record({ on: 'partialResponse', text: partial.text });
    },
    onPartialThinking(partial) {
      record({ on: 'partialThinking', text: partial.text });
    },
    onPartialToolCall(partial) {
      record({ on: 'partialToolCall', index: partial.index, id: partial.id, name: partial.name, partialArguments: partial.partialArguments });
    },
    onCompleteToolCall(complete) {
      const request = complete.toolExecutionRequest;
      record({ on: 'completeToolCall', index: complete.index, id: request.id, name: request.name, arguments: request.arguments });
    },
    onUnmappedRawEvent(raw) {
      record({ on: 'unmappedRawEvent', raw });
    },
    onCompleteResponse(response) {
      handler.responses.push(response);
      record({ on: 'completeResponse', text: response.aiMessage.text, thinking: response.aiMessage.thinking });
    },
    onError(error) {
      handler.errors.push(error);
      record({ on: 'error', name: error.name, kind: (error as { kind?: string }).kind, message: error.message });
    },
  };
  function record(call: Recorded): void {
    handler.calls.push(call);
    hooks.afterEach?.(call, handler);
  }
  return handler;
}
