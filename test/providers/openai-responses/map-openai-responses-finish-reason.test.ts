import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapOpenAIResponsesFinishReason } from '../../../lib/providers/openai-responses/map-openai-responses-finish-reason';

describe('mapOpenAIResponsesFinishReason', () => {
  const table: Array<[string | null, string | null, FinishReason]> = [
    ['completed', null, 'STOP'],
    ['incomplete', 'max_output_tokens', 'LENGTH'],
    ['incomplete', 'content_filter', 'CONTENT_FILTER'],
    ['incomplete', 'something_new', 'OTHER'],
    ['incomplete', null, 'OTHER'],
    ['failed', null, 'OTHER'],
    ['cancelled', null, 'OTHER'],
    [null, null, 'OTHER'],
  ];
  for (const [status, reason, expected] of table) {
    it(`maps status ${JSON.stringify(status)} with reason ${JSON.stringify(reason)} to ${expected}`, () => {
      expect(mapOpenAIResponsesFinishReason(status, reason)).to.equal(expected);
    });
  }
});
