import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { geminiUsage } from '../../../lib/providers/gemini/gemini-usage';

describe('geminiUsage', () => {
  it('counts thoughts as output tokens and takes the reported total', () => {
    expect(geminiUsage({ promptTokenCount: 9, candidatesTokenCount: 23, thoughtsTokenCount: 302, totalTokenCount: 334 })).to.deep.equal({
      inputTokenCount: 9,
      outputTokenCount: 325,
      totalTokenCount: 334,
      cacheReadInputTokenCount: null,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: 302,
    });
  });

  it('counts the tool-use prompt as input and reads cached content as cache reads', () => {
    expect(geminiUsage({ promptTokenCount: 40, toolUsePromptTokenCount: 160, cachedContentTokenCount: 32, candidatesTokenCount: 8, totalTokenCount: 208 })).to.deep.equal({
      inputTokenCount: 200,
      outputTokenCount: 8,
      totalTokenCount: 208,
      cacheReadInputTokenCount: 32,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: null,
    });
  });

  it('reads usage without thoughts', () => {
    expect(geminiUsage({ promptTokenCount: 7, candidatesTokenCount: 153, totalTokenCount: 160 })).to.deep.equal(tokenUsage(7, 153, 160));
  });

  it('returns null for metadata without counts (e.g. only trafficType) and for none at all', () => {
    expect([geminiUsage({ trafficType: 'ON_DEMAND' } as never), geminiUsage(undefined), geminiUsage(null)]).to.deep.equal([null, null, null]);
  });
});
