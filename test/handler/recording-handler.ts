import type { ChatResponse, StreamingChatResponseHandler, StreamingHandle } from '../../lib/handler/types';

/** One recorded callback: its name and arguments (contexts left out). */
export type Recorded = readonly [string, ...unknown[]];

/** A handler that records every callback in order; `overrides` replace individual callbacks after recording. */
export class RecordingHandler implements StreamingChatResponseHandler {
  readonly calls: Recorded[] = [];
  handle: StreamingHandle | null = null;

  constructor(private readonly overrides: Partial<StreamingChatResponseHandler> = {}) {}

  names(): string[] {
    return this.calls.map((call) => call[0]);
  }

  onPartialResponse: StreamingChatResponseHandler['onPartialResponse'] = (partial, context) => {
    this.calls.push(['onPartialResponse', partial]);
    this.overrides.onPartialResponse?.(partial, context);
  };
  onPartialThinking: StreamingChatResponseHandler['onPartialThinking'] = (partial, context) => {
    this.calls.push(['onPartialThinking', partial]);
    this.overrides.onPartialThinking?.(partial, context);
  };
  onPartialToolCall: StreamingChatResponseHandler['onPartialToolCall'] = (partial, context) => {
    this.calls.push(['onPartialToolCall', partial]);
    this.overrides.onPartialToolCall?.(partial, context);
  };
  onCompleteToolCall: StreamingChatResponseHandler['onCompleteToolCall'] = (complete) => {
    this.calls.push(['onCompleteToolCall', complete]);
    this.overrides.onCompleteToolCall?.(complete);
  };
  onUnmappedRawEvent: StreamingChatResponseHandler['onUnmappedRawEvent'] = (raw) => {
    this.calls.push(['onUnmappedRawEvent', raw]);
    this.overrides.onUnmappedRawEvent?.(raw);
  };
  onCompleteResponse(response: ChatResponse): void {
    this.calls.push(['onCompleteResponse', response]);
    this.overrides.onCompleteResponse?.(response);
  }
  onError(error: Error): void {
    this.calls.push(['onError', error]);
    this.overrides.onError?.(error);
  }
  bindStreamingHandle(handle: StreamingHandle): void {
    this.handle = handle;
  }
}
