import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking, PartialToolCall, StreamingChatResponseHandler } from '../handler/types';
import { partsToJSON } from '../parts/json';
import { stringifyJsonLine } from './escape-control';

/** Where a view writes: a function taking one chunk of output text. */
export type WriteText = (text: string) => void;

/**
 * The JSON form of a `ChatResponse`: the response with its parts in their `partToJSON` form
 * (media bytes as base64), everything else as it is.
 */
function chatResponseToJSON(response: ChatResponse): Record<string, unknown> {
  const { aiMessage, metadata } = response;
  return {
    aiMessage: {
      parts: partsToJSON(aiMessage.parts),
      text: aiMessage.text,
      thinking: aiMessage.thinking,
      toolExecutionRequests: aiMessage.toolExecutionRequests,
      attributes: aiMessage.attributes,
    },
    metadata,
  };
}

/**
 * The `--json` view of `partstream replay`: one JSON object per callback, in order, one per line
 * (`{"event":"partialResponse","text":…}`, …, `{"event":"completeResponse","response":…}`,
 * `{"event":"error","message":…}`). Each line is `stringifyJsonLine` output: DEL, C1 and bidi
 * characters are `\u` escapes, as JSON already does for C0, so a line is safe on a terminal.
 */
export class JsonView implements StreamingChatResponseHandler {
  constructor(private readonly write: WriteText) {}

  onPartialResponse(partial: PartialResponse): void {
    this.line({ event: 'partialResponse', text: partial.text });
  }

  onPartialThinking(partial: PartialThinking): void {
    this.line({ event: 'partialThinking', text: partial.text });
  }

  onPartialToolCall(partial: PartialToolCall): void {
    this.line({
      event: 'partialToolCall',
      index: partial.index,
      id: partial.id,
      name: partial.name,
      partialArguments: partial.partialArguments,
    });
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    const request = complete.toolExecutionRequest;
    this.line({ event: 'completeToolCall', index: complete.index, id: request.id, name: request.name, arguments: request.arguments });
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    this.line({ event: 'unmappedRawEvent', raw: rawEvent });
  }

  onCompleteResponse(response: ChatResponse): void {
    this.line({ event: 'completeResponse', response: chatResponseToJSON(response) });
  }

  onError(error: Error): void {
    this.line({ event: 'error', message: error.message });
  }

  private line(value: Record<string, unknown>): void {
    this.write(`${stringifyJsonLine(value)}\n`);
  }
}
