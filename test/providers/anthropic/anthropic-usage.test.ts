import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { AnthropicUsageTracker } from '../../../lib/providers/anthropic/anthropic-usage';

describe('AnthropicUsageTracker', () => {
  it('merges message_start and message_delta usage, a later count replacing an earlier one', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge({ input_tokens: 43, cache_read_input_tokens: 0, output_tokens: 1 });
    usage.merge({ input_tokens: 61, output_tokens: 2 });
    expect(usage.tokenUsage()).to.deep.equal(tokenUsage(61, 2, 63));
  });

  it('keeps a count that a later usage leaves out or nulls', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge({ input_tokens: 450, output_tokens: 3 });
    usage.merge({ output_tokens: 124 });
    usage.merge({ input_tokens: null });
    expect(usage.tokenUsage()).to.deep.equal(tokenUsage(450, 124, 574));
  });

  it('is null until a count is reported, and ignores values that are not usage objects', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge(undefined);
    usage.merge('12');
    usage.merge({ server_tool_use: { web_search_requests: 1 } });
    expect(usage.tokenUsage()).to.equal(null);
  });
});
