import { expect } from 'chai';
import { tokenUsage } from '../../../lib/handler/values';
import { AnthropicUsageTracker } from '../../../lib/providers/anthropic/anthropic-usage';

describe('AnthropicUsageTracker', () => {
  it('merges message_start and message_delta usage, a later count replacing an earlier one', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge({ input_tokens: 43, cache_read_input_tokens: 0, output_tokens: 1 });
    usage.merge({ input_tokens: 61, output_tokens: 2 });
    expect(usage.tokenUsage()).to.deep.equal({
      inputTokenCount: 61,
      outputTokenCount: 2,
      totalTokenCount: 63,
      cacheReadInputTokenCount: 0,
      cacheWriteInputTokenCount: null,
      reasoningTokenCount: null,
    });
  });

  it('counts cache reads and writes as input, and reads thinking_tokens as reasoning', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30000, output_tokens: 1 });
    usage.merge({ output_tokens: 410, output_tokens_details: { thinking_tokens: 250 } });
    expect(usage.tokenUsage()).to.deep.equal({
      inputTokenCount: 32060,
      outputTokenCount: 410,
      totalTokenCount: 32470,
      cacheReadInputTokenCount: 30000,
      cacheWriteInputTokenCount: 2048,
      reasoningTokenCount: 250,
    });
  });

  it('keeps the usage object as sent: a shallow merge, later values (null included) replacing earlier ones', () => {
    const usage = new AnthropicUsageTracker();
    usage.merge({ input_tokens: 5, output_tokens: 1, service_tier: 'standard', cache_creation: { ephemeral_5m_input_tokens: 0 } });
    usage.merge({ output_tokens: 9, service_tier: null, server_tool_use: { web_search_requests: 2 } });
    const sent = usage.providerUsage();
    expect(sent).to.deep.equal({
      input_tokens: 5,
      output_tokens: 9,
      service_tier: null,
      cache_creation: { ephemeral_5m_input_tokens: 0 },
      server_tool_use: { web_search_requests: 2 },
    });
    expect(Object.isFrozen(sent) && Object.isFrozen(sent?.server_tool_use)).to.equal(true);
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
