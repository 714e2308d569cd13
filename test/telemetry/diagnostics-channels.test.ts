import { expect } from 'chai';
import diagnostics from 'node:diagnostics_channel';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { ChatModelEndContext, ChatModelErrorContext, ChatModelFirstChunkContext, ChatModelRequestContext } from '../../lib/telemetry/chat-model-listener';
import { channelListener, STREAM_CHANNELS } from '../../lib/telemetry/diagnostics-channels';
import { trackedSource } from '../support/chunk-sources';
import { TRANSCRIPTS } from '../support/transcripts';
import { loggingHandler } from './ends';

// SPEC §14 (design notes 14.4): a stream's listener calls are published on diagnostics_channel,
// only while a channel has a subscriber; an APM agent needs no dependency to see them.

const NAMES = ['partstream:stream:start', 'partstream:stream:firstChunk', 'partstream:stream:response', 'partstream:stream:error', 'partstream:stream:cancel'];

describe('diagnostics_channel (partstream:stream:*)', () => {
  const heard: [string, unknown][] = [];
  const subscribers = NAMES.map((name) => [name, (message: unknown) => void heard.push([name, message])] as const);
  const subscribe = (): void => subscribers.forEach(([name, subscriber]) => diagnostics.subscribe(name, subscriber));
  const unsubscribe = (): void => void subscribers.forEach(([name, subscriber]) => diagnostics.unsubscribe(name, subscriber));
  afterEach(() => {
    unsubscribe();
    heard.length = 0;
  });

  it('names its channels as documented', () => {
    expect(Object.values(STREAM_CHANNELS)).to.deep.equal(NAMES);
  });

  it('publishes start, firstChunk and response of a completed stream, the listener contexts as messages', async () => {
    subscribe();
    await consumeStream(trackedSource([TRANSCRIPTS.anthropic]), loggingHandler([]), { format: 'anthropic' });
    expect(heard.map(([name]) => name)).to.deep.equal(['partstream:stream:start', 'partstream:stream:firstChunk', 'partstream:stream:response']);
    const [start, first, end] = heard.map(([, message]) => message) as [ChatModelRequestContext, ChatModelFirstChunkContext, ChatModelEndContext];
    expect([start.format, start.provider, start.operation]).to.deep.equal(['anthropic', 'anthropic', 'chat']);
    expect(first.streamId).to.equal(start.streamId);
    expect(first.timeToFirstChunkMs).to.be.a('number');
    expect([end.streamId, end.outcome.status, end.timings.timeToFirstChunkMs]).to.deep.equal([start.streamId, 'completed', first.timeToFirstChunkMs]);
  });

  it('publishes error for a failed stream and cancel for a cancelled one', async () => {
    subscribe();
    await consumeStream(trackedSource([TRANSCRIPTS.gemini.slice(0, 40)]), loggingHandler([]), { format: 'gemini' });
    const abort = new AbortController();
    abort.abort();
    await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini', signal: abort.signal });
    expect(heard.map(([name]) => name)).to.deep.equal(['partstream:stream:start', 'partstream:stream:error', 'partstream:stream:start', 'partstream:stream:cancel']);
    const failed = heard[1]![1] as ChatModelErrorContext;
    expect([failed.outcome.status, failed.error.name, (failed.error as { kind?: string }).kind]).to.deep.equal(['failed', 'StreamError', 'truncated']);
    expect((heard[3]![1] as ChatModelEndContext).outcome.status).to.equal('cancelled');
  });

  it('publishes on a channel only while it has a subscriber, and observes nothing when none has one', async () => {
    expect(channelListener()).to.equal(null);
    const only = (message: unknown): void => void heard.push(['response only', message]);
    diagnostics.subscribe('partstream:stream:response', only);
    try {
      expect(channelListener()).not.to.equal(null);
      await consumeStream(trackedSource([TRANSCRIPTS.ollama]), loggingHandler([]), { format: 'ollama' });
      expect(heard.map(([name]) => name)).to.deep.equal(['response only']);
    } finally {
      diagnostics.unsubscribe('partstream:stream:response', only);
    }
    expect(channelListener()).to.equal(null);
  });
});
