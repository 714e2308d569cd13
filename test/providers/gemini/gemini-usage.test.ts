import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { geminiUsage } from '../../../lib/providers/gemini/gemini-usage';

describe('geminiUsage', () => {
  it('counts thoughts as output tokens and takes the reported total', () => {
    expect(geminiUsage({ promptTokenCount: 9, candidatesTokenCount: 23, thoughtsTokenCount: 302, totalTokenCount: 334 })).to.deep.equal(tokenUsage(9, 325, 334));
  });

  it('reads usage without thoughts', () => {
    expect(geminiUsage({ promptTokenCount: 7, candidatesTokenCount: 153, totalTokenCount: 160 })).to.deep.equal(tokenUsage(7, 153, 160));
  });

  it('returns null for metadata without counts (e.g. only trafficType) and for none at all', () => {
    expect([geminiUsage({ trafficType: 'ON_DEMAND' } as never), geminiUsage(undefined), geminiUsage(null)]).to.deep.equal([null, null, null]);
  });
});
