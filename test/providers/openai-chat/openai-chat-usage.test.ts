import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { openAIChatTokenUsage } from '../../../lib/providers/openai-chat/openai-chat-usage';

describe('openAIChatTokenUsage', () => {
  it('reads prompt, completion and total tokens', () => {
    expect(openAIChatTokenUsage({ prompt_tokens: 16, completion_tokens: 300, total_tokens: 316, prompt_tokens_details: { cached_tokens: 0 } })).to.deep.equal({
      inputTokenCount: 16,
      outputTokenCount: 300,
      totalTokenCount: 316,
      cacheReadInputTokenCount: 0,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: null,
    });
  });

  it('reads cached and reasoning tokens from the details objects', () => {
    const usage = { prompt_tokens: 2100, completion_tokens: 900, total_tokens: 3000, prompt_tokens_details: { cached_tokens: 1920 }, completion_tokens_details: { reasoning_tokens: 640 } };
    expect(openAIChatTokenUsage(usage)).to.deep.equal({
      inputTokenCount: 2100,
      outputTokenCount: 900,
      totalTokenCount: 3000,
      cacheReadInputTokenCount: 1920,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: 640,
    });
  });

  it('adds up the total when the server leaves it out', () => {
    expect(openAIChatTokenUsage({ prompt_tokens: 5, completion_tokens: 7 })).to.deep.equal(tokenUsage(5, 7, 12));
  });

  it('keeps a count the server did not report as null', () => {
    expect(openAIChatTokenUsage({ completion_tokens: 7 })).to.deep.equal(tokenUsage(null, 7, null));
  });

  it('is null for no usage, or a usage without any count', () => {
    expect([openAIChatTokenUsage(null), openAIChatTokenUsage(undefined), openAIChatTokenUsage({}), openAIChatTokenUsage({ prompt_tokens: -1 })]).to.deep.equal([null, null, null, null]);
  });
});
