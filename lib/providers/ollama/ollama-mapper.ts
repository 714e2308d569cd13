import type { ChatResponseMetadata } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import { isJsonObject, nonEmptyString, stringOrNull, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';
import { MapperOutput } from '../kit/mapper-output';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { mapOllamaFinishReason } from './map-ollama-finish-reason';
import { ollamaMetadata } from './ollama-metadata';
import { ollamaProviderUsage, ollamaUsage } from './ollama-usage';
import type { OllamaLine, OllamaMessage, OllamaToolCall } from './ollama-wire';

/** A tool call's arguments as JSON text: objects serialised (key order kept, any depth), text kept as is; '' when none. */
function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  return typeof args === 'string' ? args : (stringifyJson(args) ?? '');
}

/**
 * Maps Ollama `/api/chat` NDJSON lines (each already parsed) to handler callbacks.
 *
 * - `message.thinking` → partial thinking, then `message.content` → partial response (thinking
 *   first when a line has both); `message.tool_calls` → complete tool calls with a 0-based index
 *   and id null (unless the server sends one), their argument objects serialised to JSON text;
 *   a call without a name is kept incomplete (`ToolCallAccumulator`), and its line surfaces raw
 *   too (`MapperTarget.surfaceRaw`). A `done_reason` of `length` finishes LENGTH even when calls
 *   were made (they came whole, so they are complete).
 * - The `done: true` line ends the stream with a complete response, delivered while mapping that
 *   line: model (the last non-blank one); `done_reason` as `providerFinishReason`, mapped by
 *   `mapOllamaFinishReason` and resolved against the completed calls (`resolveFinishReason`:
 *   completed tool calls make `stop` TOOL_EXECUTION); `ollamaUsage` as usage, the line's counts
 *   and timings as `providerUsage` (`ollamaProviderUsage`), its other fields as
 *   `providerMetadata` (`ollamaMetadata`). `map` returns true there, and `end` reports a stream
 *   without it as truncated.
 * - A line with `error` ends the stream with one `onError` (a `provider` `StreamError` read by
 *   `providerStreamError`; its body is the `error` as sent).
 * - A line that maps nothing (no message, e.g. an `/api/generate` line, or an empty one) surfaces raw.
 */
export class OllamaMapper implements StreamMapper<unknown> {
  readonly framing = 'ndjson';
  private readonly out = new MapperOutput();
  /** Ollama sends each call whole: it starts and ends on the line that carries it. */
  private readonly calls = new ToolCallAccumulator<number>();

  /** Maps one parsed line; returns true at the `done: true` line or an error line. */
  map(line: unknown, target: MapperTarget): boolean {
    if (!isJsonObject(line)) return false;
    const event = line as OllamaLine;
    if (event.error !== undefined && event.error !== null) {
      this.out.fail(target, line);
      return true;
    }
    this.out.noteModel(event.model);
    if (isJsonObject(event.message)) this.mapMessage(event.message as OllamaMessage, target);
    if (event.done !== true) return false;
    const doneReason = stringOrNull(event.done_reason);
    this.out.complete(target, {
      tokenUsage: ollamaUsage(event),
      finishReason: this.calls.finishReason(mapOllamaFinishReason(doneReason)),
      providerFinishReason: doneReason,
      providerUsage: ollamaProviderUsage(line as JsonObject),
      providerMetadata: ollamaMetadata(line as JsonObject),
    });
    return true;
  }

  /** The model seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ providerMetadata: null });
  }

  /** Ends a stream without its `done: true` line: it was truncated. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    this.out.truncated(target, 'the done: true line', truncatedFrame);
  }

  /** Maps a line's message; a tool call that cannot be mapped has the line surface raw too. */
  private mapMessage(message: OllamaMessage, target: MapperTarget): void {
    const thinking = nonEmptyString(message.thinking);
    if (thinking !== null) target.handler.onPartialThinking?.(partialThinking(thinking), this.out.contextOf(target));
    const content = nonEmptyString(message.content);
    if (content !== null) target.handler.onPartialResponse?.(partialResponse(content), this.out.contextOf(target));
    if (!Array.isArray(message.tool_calls)) return;
    for (const call of message.tool_calls as readonly unknown[]) {
      if (!isJsonObject(call)) {
        target.surfaceRaw?.();
        continue;
      }
      const fn = (call as OllamaToolCall).function;
      const key = this.calls.callCount;
      this.calls.start(key, stringOrNull((call as OllamaToolCall).id), isJsonObject(fn) ? (stringOrNull(fn.name) ?? '') : '');
      // A call without a name cannot complete: it is kept incomplete (if it has arguments).
      if (!this.calls.complete(key, target, { arguments: isJsonObject(fn) ? argumentsText(fn.arguments) : '' })) target.surfaceRaw?.();
    }
  }
}
