import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapAnthropicStopReason } from '../../../lib/providers/anthropic/map-anthropic-stop-reason';

describe('mapAnthropicStopReason', () => {
  const table: Array<[string | null, FinishReason | null]> = [
    ['end_turn', 'STOP'],
    ['stop_sequence', 'STOP'],
    ['max_tokens', 'LENGTH'],
    ['model_context_window_exceeded', 'LENGTH'],
    ['tool_use', 'TOOL_EXECUTION'],
    ['refusal', 'CONTENT_FILTER'],
    ['pause_turn', 'OTHER'],
    ['something_new', 'OTHER'],
    [null, null],
  ];
  for (const [raw, expected] of table) {
    it(`maps ${JSON.stringify(raw)} to ${String(expected)}`, () => {
      expect(mapAnthropicStopReason(raw)).to.equal(expected);
    });
  }
});
