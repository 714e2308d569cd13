import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../kit/provider-fields';
import type { JsonObject } from '../../wire/read-json';

/** Chunk fields kept elsewhere: candidates as parts, `usageMetadata` as providerUsage, the error. */
const NOT_CHUNK_METADATA: ReadonlySet<string> = new Set(['candidates', 'usageMetadata', 'error']);
/** Candidate fields kept elsewhere: content as parts, `finishReason` as providerFinishReason, its index. */
const NOT_CANDIDATE_METADATA: ReadonlySet<string> = new Set(['content', 'finishReason', 'index']);

/**
 * The `providerMetadata` of a Gemini stream, one flat object holding the latest value of each
 * field as sent: every top-level chunk field other than `candidates`, `usageMetadata` and
 * `error` (`responseId`, `modelVersion`, `createTime`, `promptFeedback` …), then every field of
 * the first candidate other than `content`, `finishReason` and `index` (`safetyRatings`,
 * `groundingMetadata`, `urlContextMetadata`, `citationMetadata`, `finishMessage`,
 * `avgLogprobs` …). Values are held by reference per chunk and copied once at the end.
 */
export class GeminiMetadata {
  private readonly fields = new ProviderFields();

  /** Notes the top-level fields of a chunk. */
  noteChunk(chunk: JsonObject): void {
    this.fields.noteAll(chunk, NOT_CHUNK_METADATA);
  }

  /** Notes the fields of the chunk's first candidate. */
  noteCandidate(candidate: JsonObject): void {
    this.fields.noteAll(candidate, NOT_CANDIDATE_METADATA);
  }

  /** The fields noted so far (frozen), or null when none. */
  providerMetadata(): JsonRecord | null {
    return this.fields.record();
  }
}
