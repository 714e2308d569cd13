import type { StreamingHandle, ChatResponseMetadata } from '../../handler/types';
import { aiMessage, chatResponse, partialResponse, partialThinking, responseMetadata } from '../../handler/values';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import { truncatedStreamError } from '../kit/truncated-stream-error';
import { StreamError } from '../../handler/stream-error';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { mapOllamaFinishReason } from './map-ollama-finish-reason';
import { ollamaMetadata } from './ollama-metadata';
import { ollamaProviderUsage, ollamaUsage } from './ollama-usage';
import type { OllamaLine, OllamaMessage, OllamaToolCall } from './ollama-wire';

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A tool call's arguments as JSON text: objects serialised (key order kept, any depth), text kept as is; '' when none. */
function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  return typeof args === 'string' ? args : (stringifyJson(args) ?? '');
}

function errorMessage(error: unknown): string {
  if (typeof error === 'string' && error.trim().length > 0) return error;
  if (isJsonObject(error) && typeof error.message === 'string' && error.message.trim().length > 0) return error.message;
  return 'The provider reported an error';
}

/**
 * Maps Ollama `/api/chat` NDJSON lines (each already parsed) to handler callbacks.
 *
 * - `message.thinking` → partial thinking, then `message.content` → partial response (thinking
 *   first when a line has both); `message.tool_calls` → complete tool calls with a 0-based index
 *   and id null (unless the server sends one), their argument objects serialised to JSON text;
 *   a call without a name is kept incomplete (`ToolCallAccumulator`). A `done_reason` of
 *   `length` finishes LENGTH even when calls were made (they came whole, so they are complete).
 * - The `done: true` line ends the stream with a complete response, delivered while mapping that
 *   line: model; `done_reason` as `providerFinishReason`, mapped by `mapOllamaFinishReason` and
 *   resolved against the completed calls (`resolveFinishReason`: completed tool calls make `stop`
 *   TOOL_EXECUTION); `ollamaUsage` as usage, the line's counts and timings as `providerUsage`
 *   (`ollamaProviderUsage`), its other fields as `providerMetadata` (`ollamaMetadata`). `map`
 *   returns true there, and `end` reports a stream without it as truncated.
 * - A line with `error` ends the stream with one `onError` (a `StreamError` of kind `provider`).
 * - A line that maps nothing (no message, e.g. an `/api/generate` line, or an empty one) surfaces raw.
 */
export class OllamaMapper implements StreamMapper<unknown> {
  /** NDJSON lines, parsed. */
  readonly framing = 'ndjson' as const;
  private context: { readonly streamingHandle: StreamingHandle } | null = null;
  private model: string | null = null;
  /** Ollama sends each call whole: it starts and ends on the line that carries it. */
  private readonly calls = new ToolCallAccumulator<number>();
  private ended = false;

  /** Maps one parsed line; returns true at the `done: true` line or an error line. */
  map(line: unknown, target: MapperTarget): boolean {
    if (this.ended) return true;
    if (!isJsonObject(line)) return false;
    const event = line as OllamaLine;
    if (event.error !== undefined && event.error !== null) {
      this.ended = true;
      target.handler.onError(new StreamError('provider', errorMessage(event.error), { body: line }));
      return true;
    }
    this.model = str(event.model) ?? this.model;
    if (isJsonObject(event.message) && this.mapMessage(event.message as OllamaMessage, target)) {
      // Something mapped, yet a tool call could not be: keep the line, so nothing is lost.
      target.handler.onUnmappedRawEvent?.(line);
    }
    if (event.done !== true) return false;
    const doneReason = str(event.done_reason);
    const metadata = responseMetadata({
      modelName: this.model,
      tokenUsage: ollamaUsage(event),
      finishReason: this.calls.finishReason(mapOllamaFinishReason(doneReason)),
      providerFinishReason: doneReason,
      providerUsage: ollamaProviderUsage(line as JsonObject),
      providerMetadata: ollamaMetadata(line as JsonObject),
    });
    this.ended = true;
    target.handler.onCompleteResponse(chatResponse(aiMessage([]), metadata));
    return true;
  }

  /** The id and model seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return responseMetadata({ id: null, modelName: this.model });
  }

  /** Ends the stream: a truncation error unless the `done: true` line (or an error) was mapped. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (this.ended) return;
    this.ended = true;
    target.handler.onError(truncatedStreamError('the done: true line', truncatedFrame));
  }

  private contextFor(target: MapperTarget): { readonly streamingHandle: StreamingHandle } {
    if (this.context === null || this.context.streamingHandle !== target.handle) {
      this.context = Object.freeze({ streamingHandle: target.handle });
    }
    return this.context;
  }

  /** Maps a line's message; true when it mapped something but had to skip a nameless tool call. */
  private mapMessage(message: OllamaMessage, target: MapperTarget): boolean {
    let mapped = false;
    const thinking = str(message.thinking);
    if (thinking !== null && thinking.length > 0) {
      mapped = true;
      target.handler.onPartialThinking?.(partialThinking(thinking), this.contextFor(target));
    }
    const content = str(message.content);
    if (content !== null && content.length > 0) {
      mapped = true;
      target.handler.onPartialResponse?.(partialResponse(content), this.contextFor(target));
    }
    if (!Array.isArray(message.tool_calls)) return false;
    let skipped = false;
    for (const call of message.tool_calls) {
      if (!isJsonObject(call)) {
        skipped = true;
        continue;
      }
      const fn = (call as OllamaToolCall).function;
      const key = this.calls.callCount;
      this.calls.start(key, str((call as OllamaToolCall).id), isJsonObject(fn) ? (str(fn.name) ?? '') : '');
      // A call without a name cannot complete: it is kept incomplete (if it has arguments).
      if (this.calls.complete(key, target, { arguments: isJsonObject(fn) ? argumentsText(fn.arguments) : '' })) mapped = true;
      else skipped = true;
    }
    return mapped && skipped;
  }
}
