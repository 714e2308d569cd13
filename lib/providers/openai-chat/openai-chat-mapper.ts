import type { FinishReason, ChatResponseMetadata } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import { isJsonObject, nonBlankString, nonEmptyString, type JsonObject } from '../../wire/read-json';
import type { SseFrame } from '../../wire/types';
import { MapperOutput } from '../kit/mapper-output';
import { checkSseFrame } from '../kit/sse-event';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { OpenAIChatMetadata } from './openai-chat-metadata';
import { openAIChatTokenUsage } from './openai-chat-usage';
import { deliverReasoningDetails } from './openrouter-reasoning-details';
import { OpenAIChatChunkReader } from './parse-openai-chat-chunk';
import type { ChatChoiceDelta, ChatCompletionChunk, ChatDelta, ChatToolCallDelta } from './openai-chat-wire';

/** The aiMessage attribute that carries a refusal's text. */
export const REFUSAL_ATTRIBUTE = 'refusal';

/** The accumulator key of a deprecated `function_call` delta (tool-call keys are call numbers ≥ 0). */
const FUNCTION_CALL_KEY = -1;

/**
 * Maps an OpenAI Chat Completions stream (and compatible servers': DeepSeek, vLLM, OpenRouter,
 * Azure, Ollama's OpenAI endpoint) to handler callbacks.
 *
 * - Only choice 0 is mapped; chunks for other choices surface raw. A choice without an `index`
 *   counts as choice 0 (single-choice servers that omit it).
 * - `reasoning_content` (or `reasoning`) → partial thinking, delivered before the chunk's
 *   `content` → partial response. OpenRouter's `reasoning_details[]`, when a chunk has it, is
 *   read instead (`deliverReasoningDetails`: text, summaries, and replay payloads); the plain
 *   `reasoning` of that chunk repeats its text and is then skipped.
 * - `tool_calls[]` deltas → partial tool calls. A delta belongs to the call of its `index`; a
 *   delta without one belongs to the last call unless it brings a new id. A call completes when a
 *   new call starts, at choice 0's finish chunk, or at the end of a complete stream; a delta for a
 *   call that has completed maps nothing.
 * - `delta.refusal` is not answer text: it maps nothing (surfaces raw); the final response gets
 *   `finishReason: 'CONTENT_FILTER'` and the concatenated refusal in
 *   `aiMessage.attributes.refusal`.
 * - Role-only, finish-only and usage-only chunks map nothing; their id, model, usage and finish
 *   reason land in the final metadata (the last non-blank id/model and the last usage that
 *   reports a count win).
 * - An `error` object (or a flat `{"object": "error"}` body, or an `event: error` frame whose
 *   data is not JSON) → `onError` with a `provider` `StreamError` (`providerStreamError`).
 *   Any other frame that is not a JSON object surfaces raw.
 * - Terminal event: `data: [DONE]` (`map` returns true), or choice 0's finish chunk (the stream
 *   may still end without `[DONE]`). Ending without either, or mid-frame, fails with `truncated`.
 * - A finish reason of `length` cuts the calls still open: they never complete and are kept
 *   incomplete (`ToolCallAccumulator`); so is a call that never got a name.
 * - Finish reason: CONTENT_FILTER after a refusal, else choice 0's `finish_reason` mapped by
 *   `mapOpenAIChatFinishReason`, then resolved against the completed calls
 *   (`resolveFinishReason`: LENGTH stays LENGTH, else TOOL_EXECUTION once a call completed, and a
 *   `tool_calls` finish with no call completed is OTHER); `providerFinishReason` is that
 *   `finish_reason` as sent. Usage: the last `usage` object with counts (`openAIChatTokenUsage`),
 *   kept as sent in `providerUsage`; `providerMetadata` as `OpenAIChatMetadata` describes.
 */
export class OpenAIChatMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse';
  private readonly out = new MapperOutput();
  private readonly chunks = new OpenAIChatChunkReader();
  private readonly toolCalls = new ToolCallAccumulator<number>();
  /** The latest call key of each wire `tool_calls[].index`; made at the first indexed call delta. */
  private keyByWireIndex: Map<number, number> | null = null;
  /** The call the last tool-call delta went to (for deltas without an index). */
  private lastKey: number | null = null;
  private readonly refusal: string[] = [];
  private readonly envelope = new OpenAIChatMetadata();
  private firstNoted = false;
  private finishNoted = false;
  private finishReason: string | null = null;
  private finishSeen = false;
  private doneSeen = false;

  /** Maps one SSE frame; returns true at `[DONE]` and after an error (nothing more is read). */
  map(frame: SseFrame, target: MapperTarget): boolean {
    checkSseFrame(frame);
    const chunk = this.chunks.read(frame.data) as (ChatCompletionChunk & JsonObject) | undefined;
    if (chunk === undefined) {
      if (frame.data !== '[DONE]') return this.out.unreadable(target, frame);
      this.doneSeen = true;
      return true;
    }
    if ((chunk.error !== undefined && chunk.error !== null) || chunk.object === 'error') {
      this.out.fail(target, chunk, frame.data);
      return true;
    }
    this.noteEnvelope(chunk);
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (const choice of choices as readonly unknown[]) {
        if (isJsonObject(choice) && (choice.index === 0 || choice.index === undefined)) this.mapChoice(choice as ChatChoiceDelta, target);
      }
    }
    if (this.finishSeen && !this.finishNoted) {
      this.finishNoted = true;
      this.envelope.noteFinish(chunk);
    }
    return false;
  }

  /** The id, model, usage and fields seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ providerMetadata: this.envelope.providerMetadata() });
  }

  /** Completes pending tool calls and the response, or fails a stream that did not finish. */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (truncatedFrame || !(this.doneSeen || this.finishSeen)) {
      this.out.truncated(target, 'data: [DONE] or a finish chunk', truncatedFrame);
      return;
    }
    this.endToolCalls(target);
    let finishReason: FinishReason | null = mapOpenAIChatFinishReason(this.finishReason);
    const attributes: Record<string, string> = {};
    if (this.refusal.length > 0) {
      attributes[REFUSAL_ATTRIBUTE] = this.refusal.join('');
      finishReason = 'CONTENT_FILTER';
    }
    this.out.complete(target, {
      finishReason: this.toolCalls.finishReason(finishReason),
      providerFinishReason: this.finishReason,
      providerMetadata: this.envelope.providerMetadata(),
      attributes,
    });
  }

  private noteEnvelope(chunk: ChatCompletionChunk & JsonObject): void {
    this.out.noteId(chunk.id);
    this.out.noteModel(chunk.model);
    if (!this.firstNoted) {
      this.firstNoted = true;
      this.envelope.noteFirst(chunk);
    }
    if (chunk.usage === undefined || chunk.usage === null) return;
    // Only a usage that reports a count is kept (some servers send empty ones on every chunk).
    const usage = openAIChatTokenUsage(chunk.usage);
    if (usage === null) return;
    this.out.noteUsage(usage, chunk.usage as JsonObject);
    this.envelope.noteUsage(chunk);
  }

  private mapChoice(choice: ChatChoiceDelta, target: MapperTarget): void {
    const delta = choice.delta;
    if (isJsonObject(delta)) this.mapDelta(delta as ChatDelta, target);
    const finishReason = nonEmptyString(choice.finish_reason);
    if (finishReason !== null) {
      this.finishReason = finishReason;
      this.finishSeen = true;
      this.endToolCalls(target);
    }
  }

  private mapDelta(delta: ChatDelta, target: MapperTarget): void {
    // OpenRouter sends its thinking twice, as `reasoning_details` and as plain `reasoning`: the
    // details win (they carry the signatures and encrypted entries to replay).
    const details = delta.reasoning_details;
    const thought = Array.isArray(details) && details.length > 0 && deliverReasoningDetails(details, target.handler, this.out.contextOf(target));
    const reasoning = thought ? null : (nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning));
    if (reasoning !== null) target.handler.onPartialThinking?.(partialThinking(reasoning), this.out.contextOf(target));
    const content = nonEmptyString(delta.content);
    if (content !== null) target.handler.onPartialResponse?.(partialResponse(content), this.out.contextOf(target));
    const refusal = nonEmptyString(delta.refusal);
    if (refusal !== null) this.refusal.push(refusal);
    if (Array.isArray(delta.tool_calls)) {
      for (const toolCall of delta.tool_calls as readonly unknown[]) {
        if (isJsonObject(toolCall)) this.mapToolCallDelta(toolCall as ChatToolCallDelta, target);
      }
    }
    if (isJsonObject(delta.function_call)) this.mapFunctionCallDelta(delta.function_call, target);
  }

  private mapToolCallDelta(delta: ChatToolCallDelta, target: MapperTarget): void {
    const id = nonEmptyString(delta.id);
    const fn = isJsonObject(delta.function) ? delta.function : undefined;
    const name = nonBlankString(fn?.name);
    const wireIndex = typeof delta.index === 'number' ? delta.index : null;
    let key = wireIndex === null ? this.lastKey : (this.keyByWireIndex?.get(wireIndex) ?? null);
    if (key !== null && id !== null) {
      const knownId = this.toolCalls.idOf(key);
      if (knownId !== null && knownId !== undefined && knownId !== id) key = null;
    }
    if (key === null) {
      // A new call starts: the calls before it are complete.
      this.toolCalls.endAll(target, null);
      key = this.toolCalls.callCount;
      this.toolCalls.start(key, id, name ?? '');
      if (wireIndex !== null) (this.keyByWireIndex ??= new Map<number, number>()).set(wireIndex, key);
    } else {
      this.toolCalls.identify(key, id, name);
    }
    this.lastKey = key;
    this.appendArguments(key, fn?.arguments, target);
  }

  private mapFunctionCallDelta(delta: JsonObject, target: MapperTarget): void {
    if (!this.toolCalls.has(FUNCTION_CALL_KEY)) {
      this.toolCalls.endAll(target, null);
      this.toolCalls.start(FUNCTION_CALL_KEY, null, nonBlankString(delta.name) ?? '');
    } else {
      this.toolCalls.identify(FUNCTION_CALL_KEY, null, nonBlankString(delta.name));
    }
    this.appendArguments(FUNCTION_CALL_KEY, delta.arguments, target);
  }

  private appendArguments(key: number, fragment: unknown, target: MapperTarget): void {
    if (typeof fragment === 'string') this.out.toolCall(target, this.toolCalls.append(key, fragment));
  }

  /** Ends the open calls at the finish: complete, or cut off when the finish reason is `length`. */
  private endToolCalls(target: MapperTarget): void {
    this.toolCalls.endAll(target, mapOpenAIChatFinishReason(this.finishReason));
  }
}
