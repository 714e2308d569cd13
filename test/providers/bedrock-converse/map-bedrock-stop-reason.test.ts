import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapBedrockStopReason } from '../../../lib/providers/bedrock-converse/map-bedrock-stop-reason';

describe('mapBedrockStopReason', () => {
  const table: Array<[string | null, FinishReason | null]> = [
    ['end_turn', 'STOP'],
    ['stop_sequence', 'STOP'],
    ['max_tokens', 'LENGTH'],
    ['model_context_window_exceeded', 'LENGTH'],
    ['tool_use', 'TOOL_EXECUTION'],
    ['guardrail_intervened', 'CONTENT_FILTER'],
    ['content_filtered', 'CONTENT_FILTER'],
    ['malformed_model_output', 'OTHER'],
    ['malformed_tool_use', 'OTHER'],
    ['something_new', 'OTHER'],
    [null, null],
  ];
  for (const [raw, expected] of table) {
    it(`maps ${JSON.stringify(raw)} to ${String(expected)}`, () => {
      expect(mapBedrockStopReason(raw)).to.equal(expected);
    });
  }
});
