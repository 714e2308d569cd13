import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { ollamaUsage } from '../../../lib/providers/ollama/ollama-usage';

describe('ollamaUsage', () => {
  it('reads prompt_eval_count as input and eval_count as output, totalling them', () => {
    expect(ollamaUsage({ prompt_eval_count: 152, eval_count: 22 })).to.deep.equal(tokenUsage(152, 22, 174));
  });

  it('keeps a missing count null', () => {
    expect(ollamaUsage({ eval_count: 5 })).to.deep.equal(tokenUsage(null, 5, null));
  });

  it('returns null when neither count is reported', () => {
    expect(ollamaUsage({ done: true })).to.equal(null);
  });
});
