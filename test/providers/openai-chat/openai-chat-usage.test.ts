import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { openAIChatTokenUsage } from '../../../lib/providers/openai-chat/openai-chat-usage';

describe('openAIChatTokenUsage', () => {
  it('reads prompt, completion and total tokens', () => {
    expect(openAIChatTokenUsage({ prompt_tokens: 16, completion_tokens: 300, total_tokens: 316, prompt_tokens_details: { cached_tokens: 0 } })).to.deep.equal(
      tokenUsage(16, 300, 316),
    );
  });

  it('adds up the total when the server leaves it out', () => {
    expect(openAIChatTokenUsage({ prompt_tokens: 5, completion_tokens: 7 })).to.deep.equal(tokenUsage(5, 7, 12));
  });

  it('keeps a count the server did not report as null', () => {
    expect(openAIChatTokenUsage({ completion_tokens: 7 })).to.deep.equal(tokenUsage(null, 7, null));
  });

  it('is null for no usage, or a usage without any count', () => {
    expect([openAIChatTokenUsage(null), openAIChatTokenUsage(undefined), openAIChatTokenUsage({}), openAIChatTokenUsage({ prompt_tokens: -1 })]).to.deep.equal([
      null,
      null,
      null,
      null,
    ]);
  });
});
