import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapOllamaFinishReason } from '../../../lib/providers/ollama/map-ollama-finish-reason';

describe('mapOllamaFinishReason', () => {
  const table: Array<[string | null, FinishReason]> = [
    ['stop', 'STOP'],
    [null, 'STOP'],
    ['length', 'LENGTH'],
    ['load', 'OTHER'],
    ['unload', 'OTHER'],
    ['', 'OTHER'],
  ];
  for (const [raw, expected] of table) {
    it(`maps ${JSON.stringify(raw)} to ${expected}`, () => {
      expect(mapOllamaFinishReason(raw)).to.equal(expected);
    });
  }
});
