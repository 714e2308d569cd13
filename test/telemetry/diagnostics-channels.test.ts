import { expect } from 'chai';
import diagnostics from 'node:diagnostics_channel';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { ChatModelErrorContext } from '../../lib/telemetry/chat-model-listener';
import { CHAT_CHANNEL, channelListener, type ChatChannelMessage } from '../../lib/telemetry/diagnostics-channels';
import { trackedSource } from '../support/chunk-sources';
import { TRANSCRIPTS } from '../support/transcripts';
import { loggingHandler } from './ends';

// SPEC §14 (design notes 14.4): a stream's start and end are published on the diagnostics_channel
// channel `partstream:chat`, only while it has a subscriber; an APM agent needs no dependency.

describe('diagnostics_channel (partstream:chat)', () => {
  const heard: ChatChannelMessage[] = [];
  const subscriber = (message: unknown): void => void heard.push(message as ChatChannelMessage);
  afterEach(() => {
    diagnostics.unsubscribe('partstream:chat', subscriber);
    heard.length = 0;
  });

  it('names its channel as the design notes do', () => {
    expect(CHAT_CHANNEL).to.equal('partstream:chat');
  });

  it('publishes start and end of a completed stream, the listener contexts as messages', async () => {
    diagnostics.subscribe('partstream:chat', subscriber);
    await consumeStream(trackedSource([TRANSCRIPTS.anthropic]), loggingHandler([]), { format: 'anthropic' });
    expect(heard.map((message) => message.type)).to.deep.equal(['start', 'end']);
    const [start, end] = heard;
    expect([start?.context.format, start?.context.provider, start?.context.operation]).to.deep.equal(['anthropic', 'anthropic', 'chat']);
    expect(end?.type === 'end' && [end.context.streamId, end.context.outcome.status]).to.deep.equal([start?.context.streamId, 'completed']);
  });

  it('publishes one end for a failed stream and one for a cancelled one, their outcome saying how', async () => {
    diagnostics.subscribe('partstream:chat', subscriber);
    await consumeStream(trackedSource([TRANSCRIPTS.gemini.slice(0, 40)]), loggingHandler([]), { format: 'gemini' });
    const abort = new AbortController();
    abort.abort();
    await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini', signal: abort.signal });
    expect(heard.map((message) => message.type)).to.deep.equal(['start', 'end', 'start', 'end']);
    const failed = heard[1]?.context as ChatModelErrorContext;
    expect([failed.outcome.status, failed.error.name, (failed.error as { kind?: string }).kind]).to.deep.equal(['failed', 'StreamError', 'truncated']);
    expect(heard[3]?.type === 'end' && heard[3].context.outcome.status).to.equal('cancelled');
  });

  it('observes nothing while the channel has no subscriber', async () => {
    expect(channelListener()).to.equal(null);
    diagnostics.subscribe('partstream:chat', subscriber);
    expect(channelListener()).not.to.equal(null);
    diagnostics.unsubscribe('partstream:chat', subscriber);
    expect(channelListener()).to.equal(null);
    await consumeStream(trackedSource([TRANSCRIPTS.ollama]), loggingHandler([]), { format: 'ollama' });
    expect(heard).to.deep.equal([]);
  });
});
