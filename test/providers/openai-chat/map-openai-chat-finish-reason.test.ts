import { expect } from 'chai';
import type { FinishReason } from '../../../lib/handler/types';
import { mapOpenAIChatFinishReason } from '../../../lib/providers/openai-chat/map-openai-chat-finish-reason';

describe('mapOpenAIChatFinishReason', () => {
  const table: Array<[string | null, FinishReason | null]> = [
    ['stop', 'STOP'],
    ['length', 'LENGTH'],
    ['tool_calls', 'TOOL_EXECUTION'],
    ['function_call', 'TOOL_EXECUTION'],
    ['content_filter', 'CONTENT_FILTER'],
    ['insufficient_system_resource', 'OTHER'],
    ['eos', 'OTHER'],
    ['', 'OTHER'],
    [null, null],
  ];
  for (const [raw, expected] of table) {
    it(`maps ${JSON.stringify(raw)} to ${String(expected)}`, () => {
      expect(mapOpenAIChatFinishReason(raw)).to.equal(expected);
    });
  }
});
