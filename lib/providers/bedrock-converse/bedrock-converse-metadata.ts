import type { JsonRecord } from '../../handler/types';
import type { JsonObject } from '../../wire/read-json';
import { ProviderFields } from '../kit/provider-fields';

/** `messageStart` fields kept elsewhere or meaning nothing: the role (always `assistant`) and the padding `p`. */
const NOT_START_METADATA: ReadonlySet<string> = new Set(['role', 'p']);
/** `messageStop` fields kept elsewhere: the stop reason (`providerFinishReason`), and the padding. */
const NOT_STOP_METADATA: ReadonlySet<string> = new Set(['stopReason', 'p']);
/** `metadata` fields kept elsewhere: the usage (`providerUsage`), and the padding. */
const NOT_EVENT_METADATA: ReadonlySet<string> = new Set(['usage', 'p']);

/**
 * The `providerMetadata` of a Converse stream, the latest value of each field as sent:
 * `messageStart`'s fields other than `role`; `messageStop`'s other than `stopReason`
 * (`additionalModelResponseFields`, the fields asked for by `additionalModelResponseFieldPaths`);
 * `metadata`'s other than `usage` (`metrics` with `latencyMs`, `trace`, `performanceConfig`,
 * `serviceTier`). The padding field `p` of every event is never kept.
 */
export class BedrockConverseMetadata {
  private readonly fields = new ProviderFields();

  /** Notes the fields of `messageStart`. */
  noteStart(event: JsonObject): void {
    this.fields.noteAll(event, NOT_START_METADATA);
  }

  /** Notes the fields of `messageStop`. */
  noteStop(event: JsonObject): void {
    this.fields.noteAll(event, NOT_STOP_METADATA);
  }

  /** Notes the fields of `metadata`. */
  noteMetadata(event: JsonObject): void {
    this.fields.noteAll(event, NOT_EVENT_METADATA);
  }

  /** The fields noted so far (frozen), or null when none. */
  providerMetadata(): JsonRecord | null {
    return this.fields.record();
  }
}
