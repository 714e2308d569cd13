import type { ChatResponseMetadata } from '../../handler/types';
import { partialResponse, partialThinking } from '../../handler/values';
import type { OpaquePayload } from '../../parts/types';
import { isJsonObject, nonBlankString, stringOrNull, type JsonObject } from '../../wire/read-json';
import type { SseFrame } from '../../wire/types';
import { MapperOutput } from '../kit/mapper-output';
import { checkSseFrame } from '../kit/sse-event';
import { ToolCallAccumulator } from '../kit/tool-call-accumulator';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import { GeminiMetadata } from './gemini-metadata';
import { geminiPartOf } from './gemini-part-of';
import { geminiUsage } from './gemini-usage';
import type { GeminiCandidate, GeminiChunk, GeminiFunctionCall, GeminiPart } from './gemini-wire';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { PartialArgsAssembler } from './partial-args-assembler';
import { GeminiChunkReader } from './parse-gemini-chunk';

/** Candidate fields that are mapped or carry nothing a caller could miss. */
const KNOWN_CANDIDATE_FIELDS: ReadonlySet<string> = new Set(['content', 'finishReason', 'finishMessage', 'index', 'safetyRatings', 'tokenCount', 'avgLogprobs']);

/** A function call whose arguments are still streaming. */
interface StreamingCall {
  readonly key: number;
  readonly args: PartialArgsAssembler;
  payload: OpaquePayload | undefined;
}

function signatureOf(part: GeminiPart): OpaquePayload | undefined {
  const signature = stringOrNull(part.thoughtSignature);
  return signature === null || signature.length === 0 ? undefined : { provider: 'google', kind: 'thought_signature', data: signature };
}

/** The first candidate (index 0, or no index); other candidates are not mapped. */
function firstCandidate(candidates: unknown): GeminiCandidate | null {
  if (!Array.isArray(candidates)) return null;
  for (const candidate of candidates) {
    if (isJsonObject(candidate) && (candidate.index === undefined || candidate.index === 0)) return candidate as GeminiCandidate;
  }
  return null;
}

/**
 * Maps Gemini `streamGenerateContent?alt=sse` chunks to handler callbacks.
 *
 * - Text parts → partial response; `thought: true` parts → partial thinking. A part's
 *   `thoughtSignature` rides along as payload `google`/`thought_signature` on the callback of the
 *   part that carried it — an empty text part with a signature becomes a signature-only partial.
 * - `functionCall` parts → complete tool calls with a 0-based index (id: the call's `id`, else
 *   null; payload: its thought signature). A call streamed as `partialArgs` (`willContinue`)
 *   yields partial tool calls whose fragments concatenate to its JSON arguments, and completes
 *   at an empty `functionCall {}` or at the first chunk without `willContinue` — unless the
 *   response stops for `MAX_TOKENS` while it still streams: then it never completes and is kept
 *   incomplete with the arguments streamed so far. A streamed value
 *   whose path the `PartialArgsAssembler` refuses (unreadable, an index that skips ahead of its
 *   array, a member already set) is left out of the arguments and its chunk surfaces raw.
 * - `finishReason` (the last one wins; a stream may carry several) and the last `usageMetadata`
 *   with counts go into the metadata: `providerFinishReason` as sent, the finish reason mapped
 *   by `mapGeminiFinishReason` and resolved by `resolveFinishReason` (completed function calls
 *   make `STOP` TOOL_EXECUTION; `MAX_TOKENS` stays LENGTH), `geminiUsage` of the usage and the
 *   object as sent in `providerUsage`, `providerMetadata` as `GeminiMetadata` describes (a
 *   prompt blocked without any `finishReason` has `providerFinishReason` null; its reason is in
 *   `providerMetadata.promptFeedback`). The stream completes when the bytes end after a finish
 *   reason (or after a `promptFeedback.blockReason`: `CONTENT_FILTER`), and is reported as
 *   truncated otherwise. A chunk with an `error` object (or an `event: error` frame that is not
 *   JSON) ends it with one `onError` (`providerStreamError`). Id and model: the last non-blank
 *   `responseId` and `modelVersion`.
 * - Parts of other kinds (`toolCall`, `toolResponse`, `executableCode`, `codeExecutionResult`,
 *   `functionResponse`, a thought signature alone …) are handed over whole as `unknown` parts,
 *   `inlineData` as `media` parts (`geminiPartOf`, through `MapperTarget.completeBlock`), at
 *   their place in the stream; a signature they carry stays on them.
 * - Chunks that map nothing (usage-only, finish-only, `functionResponse` …) surface raw; a chunk
 *   that maps something and also carries other parts or candidate fields (grounding, citations)
 *   is surfaced raw as well (`MapperTarget.surfaceRaw`), once, after its callbacks.
 */
export class GeminiMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse';
  private readonly out = new MapperOutput();
  private readonly chunks = new GeminiChunkReader();
  private readonly calls = new ToolCallAccumulator<number>();
  private streaming: StreamingCall | null = null;
  private readonly metadata = new GeminiMetadata();
  private finishReason: string | null = null;
  private blocked = false;
  /** The usageMetadata object read last: a chunk reader hands the same one while it repeats. */
  private usageRead: unknown = undefined;

  /** Maps one SSE frame; returns true only after an error chunk (finish reasons may repeat). */
  map(frame: SseFrame, target: MapperTarget): boolean {
    checkSseFrame(frame);
    const chunk = this.chunks.read(frame.data) as GeminiChunk | undefined;
    if (chunk === undefined) return this.out.unreadable(target, frame);
    if (chunk.error !== undefined && chunk.error !== null) {
      this.out.fail(target, chunk, frame.data);
      return true;
    }
    this.out.noteId(chunk.responseId);
    this.out.noteModel(chunk.modelVersion);
    this.metadata.noteChunk(chunk as JsonObject);
    // Noting the object noted just before changes nothing: it is read once while it repeats.
    if (chunk.usageMetadata !== this.usageRead && isJsonObject(chunk.usageMetadata)) {
      this.usageRead = chunk.usageMetadata;
      this.out.noteUsage(geminiUsage(chunk.usageMetadata), chunk.usageMetadata);
    }
    if (isJsonObject(chunk.promptFeedback) && stringOrNull(chunk.promptFeedback.blockReason) !== null) this.blocked = true;
    const candidate = firstCandidate(chunk.candidates);
    if (candidate === null) return false;
    this.metadata.noteCandidate(candidate as JsonObject);
    let unmapped = false;
    const parts = isJsonObject(candidate.content) ? candidate.content.parts : undefined;
    if (Array.isArray(parts)) {
      for (const part of parts as readonly unknown[]) {
        if (!isJsonObject(part) || !this.mapPart(part as GeminiPart, target)) unmapped = true;
      }
    }
    for (const field of Object.keys(candidate)) if (!KNOWN_CANDIDATE_FIELDS.has(field)) unmapped = true;
    const finishReason = stringOrNull(candidate.finishReason);
    if (finishReason !== null) this.finishReason = finishReason;
    // Content no callback took (other parts, grounding, citations): the chunk surfaces raw too.
    if (unmapped) target.surfaceRaw?.();
    return false;
  }

  /** The id, model, usage and fields seen so far, for the partial response of a failed or cancelled stream. */
  metadataSoFar(): ChatResponseMetadata {
    return this.out.metadata({ providerMetadata: this.metadata.providerMetadata() });
  }

  /**
   * Ends the stream: completes a call still streaming and the response when a finish reason (or
   * a prompt block) was seen and no frame was cut; otherwise reports a truncated stream.
   */
  end(target: MapperTarget, truncatedFrame: boolean): void {
    if (truncatedFrame || (this.finishReason === null && !this.blocked)) {
      this.out.truncated(target, 'a chunk with a finishReason', truncatedFrame);
      return;
    }
    const mapped = mapGeminiFinishReason(this.finishReason) ?? 'CONTENT_FILTER';
    // A call still streaming when the response stopped for MAX_TOKENS was cut off.
    if (mapped === 'LENGTH') this.abandonStreamingCall(target);
    else this.completeStreamingCall(target);
    this.out.complete(target, {
      finishReason: this.calls.finishReason(mapped),
      providerFinishReason: this.finishReason,
      providerMetadata: this.metadata.providerMetadata(),
    });
  }

  /**
   * Maps one part by what it holds — a function call, text (thought text when `thought` is true),
   * a thought signature on a thought, or anything else — never taking a signature alone for
   * text. False when the part is not mapped to a callback (its chunk then surfaces raw): a part
   * of another kind is handed over whole (`geminiPartOf`) at its place in the stream.
   */
  private mapPart(part: GeminiPart, target: MapperTarget): boolean {
    if (isJsonObject(part.functionCall)) return this.mapFunctionCall(part.functionCall as GeminiFunctionCall, signatureOf(part), target);
    const text = stringOrNull(part.text);
    const payload = signatureOf(part);
    if (text === null && (payload === undefined || part.thought !== true)) {
      const whole = geminiPartOf(part as JsonObject, payload);
      if (whole !== null) {
        this.completeStreamingCall(target);
        target.completeBlock?.(whole);
      }
      return false;
    }
    if ((text === null || text.length === 0) && payload === undefined) return true;
    this.completeStreamingCall(target);
    if (part.thought === true) target.handler.onPartialThinking?.(partialThinking(text ?? '', payload), this.out.contextOf(target));
    else target.handler.onPartialResponse?.(partialResponse(text ?? '', payload), this.out.contextOf(target));
    return true;
  }

  /** Maps a functionCall part; false when one of its streamed values could not be placed (the chunk then surfaces raw). */
  private mapFunctionCall(call: GeminiFunctionCall, payload: OpaquePayload | undefined, target: MapperTarget): boolean {
    const name = nonBlankString(call.name);
    if (name !== null) {
      // A named functionCall always starts a new call.
      this.completeStreamingCall(target);
      const key = this.calls.callCount;
      this.calls.start(key, stringOrNull(call.id), name);
      const args = new PartialArgsAssembler();
      if (isJsonObject(call.args)) args.seed(call.args);
      this.streaming = { key, args, payload };
    } else if (this.streaming === null) {
      return true;
    } else if (payload !== undefined) {
      this.streaming.payload ??= payload;
    }
    const streaming = this.streaming!;
    let placed = true;
    if (Array.isArray(call.partialArgs)) {
      for (const arg of call.partialArgs as readonly unknown[]) {
        const fragment = streaming.args.apply(arg);
        if (fragment === null) placed = false;
        else this.deliverFragment(streaming.key, fragment, target);
      }
    }
    if (call.willContinue !== true) this.completeStreamingCall(target);
    return placed;
  }

  private deliverFragment(key: number, fragment: string, target: MapperTarget): void {
    if (fragment.length > 0) this.out.toolCall(target, this.calls.append(key, fragment));
  }

  private completeStreamingCall(target: MapperTarget): void {
    const streaming = this.streaming;
    if (streaming === null) return;
    this.streaming = null;
    this.deliverFragment(streaming.key, streaming.args.close(), target);
    this.calls.complete(streaming.key, target, { arguments: streaming.args.toJson(), payload: streaming.payload });
  }

  /**
   * Ends the call still streaming as cut off: kept incomplete with the fragments delivered so far
   * (the text as cut), or, when none were (arguments sent whole), the arguments assembled.
   */
  private abandonStreamingCall(target: MapperTarget): void {
    const streaming = this.streaming;
    if (streaming === null) return;
    this.streaming = null;
    const streamed = this.calls.argumentsOf(streaming.key).length > 0;
    this.calls.abandon(streaming.key, target, streamed ? {} : { arguments: streaming.args.toJson(), payload: streaming.payload });
  }
}
