import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { openAIResponsesUsage } from '../../../lib/providers/openai-responses/openai-responses-usage';

describe('openAIResponsesUsage', () => {
  it('reads input, output and total tokens', () => {
    const usage = { input_tokens: 134, input_tokens_details: { cached_tokens: 0 }, output_tokens: 28, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 162 };
    expect(openAIResponsesUsage(usage)).to.deep.equal({
      inputTokenCount: 134,
      outputTokenCount: 28,
      totalTokenCount: 162,
      cacheReadInputTokenCount: 0,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: 0,
    });
  });

  it('derives the total when it is missing', () => {
    expect(openAIResponsesUsage({ input_tokens: 3, output_tokens: 4 })).to.deep.equal(tokenUsage(3, 4, 7));
  });

  it('reads a count that is not an integer ≥ 0 as not reported', () => {
    expect(openAIResponsesUsage({ input_tokens: -1, output_tokens: '4', total_tokens: 9 })).to.deep.equal(tokenUsage(null, null, 9));
  });

  it('returns null for a missing usage or one without counts', () => {
    expect([openAIResponsesUsage(null), openAIResponsesUsage(undefined), openAIResponsesUsage({})]).to.deep.equal([null, null, null]);
  });
});
