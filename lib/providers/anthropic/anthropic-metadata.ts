import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../kit/provider-fields';
import { isJsonObject, type JsonObject } from '../../wire/read-json';

/** `message_start.message` fields kept elsewhere: content as parts, usage, id, model, stop_reason. */
const NOT_MESSAGE_METADATA: ReadonlySet<string> = new Set(['id', 'type', 'role', 'model', 'content', 'usage', 'stop_reason']);
/** `message_delta.delta` fields kept elsewhere: the stop reason (`providerFinishReason`). */
const NOT_DELTA_METADATA: ReadonlySet<string> = new Set(['stop_reason']);
/** `message_delta` event fields kept elsewhere or read above: type, delta, usage. */
const NOT_EVENT_METADATA: ReadonlySet<string> = new Set(['type', 'delta', 'usage']);

/**
 * The `providerMetadata` of a Messages stream, the latest value of each field as sent:
 * `message_start.message`'s fields other than `id`, `type`, `role`, `model`, `content`, `usage`
 * and `stop_reason`; then each `message_delta`'s `delta` fields other than `stop_reason`, and
 * its own fields other than `type`, `delta` and `usage` — e.g. `stop_sequence`, `stop_details`
 * (a refusal's category and explanation), `container`, `context_management`. Usage (with its
 * `service_tier`, `server_tool_use`, `iterations` …) is `providerUsage`, not metadata.
 */
export class AnthropicMetadata {
  private readonly fields = new ProviderFields();

  /** Notes the fields of `message_start.message`. */
  noteMessage(message: JsonObject): void {
    this.fields.noteAll(message, NOT_MESSAGE_METADATA);
  }

  /** Notes the fields of a `message_delta` event and of its `delta`. */
  noteMessageDelta(event: JsonObject): void {
    if (isJsonObject(event.delta)) this.fields.noteAll(event.delta, NOT_DELTA_METADATA);
    this.fields.noteAll(event, NOT_EVENT_METADATA);
  }

  /** The fields noted so far (frozen), or null when none. */
  providerMetadata(): JsonRecord | null {
    return this.fields.record();
  }
}
