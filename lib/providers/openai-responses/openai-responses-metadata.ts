import type { JsonRecord } from '../../handler/types';
import { ProviderFields } from '../kit/provider-fields';
import { isJsonObject } from '../../wire/read-json';

/** Response fields kept elsewhere: `output` as parts, `usage` as providerUsage, id and model. */
const NOT_METADATA: ReadonlySet<string> = new Set(['output', 'usage', 'id', 'model', 'object']);

/**
 * The `providerMetadata` of a Responses stream: every field of the final response object
 * (`response.completed` / `response.incomplete`) other than `output`, `usage`, `id`, `model` and
 * `object` — e.g. `status`, `incomplete_details`, `created_at`, `completed_at`, `service_tier`,
 * `background`, `previous_response_id`, `conversation`, `metadata`, and the request settings the
 * server echoes (`instructions`, `tools`, `reasoning`, `text`, `temperature` …), all as sent.
 * For a stream that has not finished, the fields of the last response snapshot seen
 * (`response.created` / `response.in_progress`). Null when there is none.
 */
export function openAIResponsesMetadata(response: unknown): JsonRecord | null {
  if (!isJsonObject(response)) return null;
  const fields = new ProviderFields();
  fields.noteAll(response, NOT_METADATA);
  return fields.record();
}
