import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapGeminiFinishReason } from '../../../lib/providers/gemini/map-gemini-finish-reason';

describe('mapGeminiFinishReason', () => {
  const table: Array<[string, FinishReason]> = [
    ['STOP', 'STOP'],
    ['MAX_TOKENS', 'LENGTH'],
    ['SAFETY', 'CONTENT_FILTER'],
    ['RECITATION', 'CONTENT_FILTER'],
    ['BLOCKLIST', 'CONTENT_FILTER'],
    ['PROHIBITED_CONTENT', 'CONTENT_FILTER'],
    ['SPII', 'CONTENT_FILTER'],
    ['IMAGE_SAFETY', 'CONTENT_FILTER'],
    ['MALFORMED_FUNCTION_CALL', 'OTHER'],
    ['FINISH_REASON_UNSPECIFIED', 'OTHER'],
    ['OTHER', 'OTHER'],
    ['', 'OTHER'],
  ];
  for (const [raw, expected] of table) {
    it(`maps ${JSON.stringify(raw)} to ${expected}`, () => {
      expect(mapGeminiFinishReason(raw)).to.equal(expected);
    });
  }
});
