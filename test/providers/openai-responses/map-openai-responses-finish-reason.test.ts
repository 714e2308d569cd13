import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapOpenAIResponsesFinishReason } from '../../../lib/providers/openai-responses/map-openai-responses-finish-reason';

describe('mapOpenAIResponsesFinishReason', () => {
  // The reason as `providerFinishReason` reports it: `incomplete_details.reason`, else the status.
  const table: Array<[string | null, FinishReason | null]> = [
    ['completed', 'STOP'],
    ['max_output_tokens', 'LENGTH'],
    ['content_filter', 'CONTENT_FILTER'],
    ['something_new', 'OTHER'],
    ['incomplete', 'OTHER'],
    ['failed', 'OTHER'],
    ['cancelled', 'OTHER'],
    [null, null],
  ];
  for (const [reason, expected] of table) {
    it(`maps ${JSON.stringify(reason)} to ${expected}`, () => {
      expect(mapOpenAIResponsesFinishReason(reason)).to.equal(expected);
    });
  }
});
