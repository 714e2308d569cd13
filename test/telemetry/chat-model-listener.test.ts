import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { ChatModelEndContext, ChatModelErrorContext, ChatModelFirstChunkContext, ChatModelListener, ChatModelRequestContext } from '../../lib/telemetry/chat-model-listener';
import { addChatModelListener } from '../../lib/telemetry/listener-registry';
import { trackedSource } from '../support/chunk-sources';
import { TRANSCRIPTS } from '../support/transcripts';
import { END_CASES, loggingHandler } from './ends';
import { expectRejection } from '../support/rejection';

/** A listener that logs each call (and keeps its contexts). */
function recorder(log: string[], contexts: ChatModelRequestContext[] = []): ChatModelListener {
  const record = (name: string) => (context: ChatModelRequestContext) => {
    log.push(name);
    contexts.push(context);
  };
  return { onRequest: record('onRequest'), onFirstChunk: record('onFirstChunk'), onResponse: record('onResponse'), onError: record('onError'), onCancel: record('onCancel') };
}

const TERMINALS = ['onResponse', 'onError', 'onCancel'];

describe('ChatModelListener', () => {
  for (const end of END_CASES) {
    it(`calls onRequest, then exactly one ${end.terminal} before the handler's terminal callback and the promise: ${end.name}`, async () => {
      const log: string[] = [];
      const contexts: ChatModelRequestContext[] = [];
      const outcome = await end.run([recorder(log, contexts)], log);
      log.push('settled');
      const listenerCalls = log.filter((entry) => entry.startsWith('on'));
      expect(listenerCalls[0]).to.equal('onRequest');
      expect(listenerCalls.filter((entry) => entry === 'onRequest')).to.have.length(1);
      expect(listenerCalls.filter((entry) => entry === 'onFirstChunk').length).to.be.at.most(1);
      expect(listenerCalls.filter((entry) => TERMINALS.includes(entry))).to.deep.equal([end.terminal]);
      const terminalAt = log.indexOf(end.terminal);
      const handlerTerminal = log.findIndex((entry) => entry === 'handler.onCompleteResponse' || entry === 'handler.onError:StreamError');
      if (handlerTerminal >= 0) expect(terminalAt).to.be.below(handlerTerminal);
      expect(terminalAt).to.be.below(log.indexOf('settled'));
      const endContext = contexts[contexts.length - 1] as ChatModelEndContext;
      expect(endContext.outcome.status).to.equal({ onResponse: 'completed', onError: 'failed', onCancel: 'cancelled' }[end.terminal]);
      expect(endContext.outcome.status).to.equal(outcome.status);
      if (!('http' in outcome)) expect(endContext.outcome).to.equal(outcome);
      if (end.kind !== undefined) {
        expect((endContext as ChatModelErrorContext).error).to.have.property('kind', end.kind);
        expect((endContext as ChatModelErrorContext).error).to.equal(outcome.status === 'failed' ? outcome.error : null);
      }
      expect(endContext.timings.durationMs).to.be.at.least(0);
      expect(contexts.every((context) => context.streamId === contexts[0]?.streamId && context.attributes === contexts[0]?.attributes)).to.equal(true);
    });
  }

  it('fills the request context from the client: format, provider, operation, model, request body, server', async () => {
    const contexts: ChatModelRequestContext[] = [];
    const log: string[] = [];
    await (END_CASES.find((end) => end.name === 'a retry that later succeeds') as (typeof END_CASES)[number]).run([recorder(log, contexts)], log);
    const start = contexts[0] as ChatModelRequestContext;
    expect({ format: start.format, provider: start.provider, operation: start.operation, requestModel: start.requestModel, server: start.server }).to.deep.equal({
      format: 'openai-chat',
      provider: 'openai',
      operation: 'chat',
      requestModel: 'gpt-test',
      server: { address: 'api.openai.com', port: 443 },
    });
    expect(start.request).to.have.property('model', 'gpt-test');
    const end = contexts[contexts.length - 1] as ChatModelEndContext;
    expect(end.retries).to.equal(1);
    expect(end.http).to.have.property('status', 200);
    expect(end.timings.timeToHeadersMs).to.be.a('number');
    expect(end.timings.timeToFirstChunkMs).to.be.at.least(end.timings.timeToHeadersMs as number);
    expect(end.timings.durationMs).to.be.at.least(end.timings.timeToFirstChunkMs as number);
  });

  it('counts handler errors and unmapped events, and gives partial() and the first chunk time', async () => {
    const contexts: ChatModelRequestContext[] = [];
    const log: string[] = [];
    await consumeStream(
      trackedSource([TRANSCRIPTS.anthropic]),
      loggingHandler(log, {
        onPartialResponse: () => {
          throw new Error('bug');
        },
      }),
      { format: 'anthropic', listeners: [recorder(log, contexts)], telemetry: { conversationId: 'conv-1', requestModel: 'claude-test' } },
    );
    const end = contexts[contexts.length - 1] as ChatModelEndContext;
    // Two text deltas threw. Surfaced raw (no typed callback fires for them): message_start, both
    // content_block_start, ping, the text block's content_block_stop, message_delta, message_stop
    // (the tool block's stop fires onCompleteToolCall).
    expect([end.handlerErrors, end.unmappedEvents]).to.deep.equal([2, 7]);
    expect(end.conversationId).to.equal('conv-1');
    expect(end.provider).to.equal('anthropic');
    expect(log.slice(0, 2)).to.deep.equal(['onRequest', 'onFirstChunk']);
    expect((contexts[1] as ChatModelFirstChunkContext).timeToFirstChunkMs).to.equal(end.timings.timeToFirstChunkMs);
    expect(end.partial().aiMessage.text).to.equal('Hello from Köln ☕');
  });

  it('gives no onFirstChunk to a stream whose frames produced no content', async () => {
    const log: string[] = [];
    const contexts: ChatModelRequestContext[] = [];
    const roleOnly = TRANSCRIPTS['openai-chat'].split('\n\n')[0] as string;
    await consumeStream(trackedSource([`${roleOnly}\n\n`]), loggingHandler(log), { format: 'openai-chat', listeners: [recorder(log, contexts)] });
    expect(log.filter((entry) => entry.startsWith('on'))).to.deep.equal(['onRequest', 'onError']);
    expect((contexts[1] as ChatModelEndContext).timings.timeToFirstChunkMs).to.equal(null);
  });

  it('isolates a throwing or rejecting listener: same callbacks and outcome, other listeners still called, one warning each', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }): void => {
      if (warning.code === 'PARTSTREAM_LISTENER_ERROR') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const thrower: ChatModelListener = {
        onRequest: () => {
          throw new Error('listener bug');
        },
        onFirstChunk: () => {
          throw new Error('listener bug');
        },
        onResponse: () => {
          throw new Error('listener bug');
        },
      };
      const rejecter: ChatModelListener = { onRequest: () => Promise.reject(new Error('async listener bug')) };
      const plainLog: string[] = [];
      const plain = await consumeStream(trackedSource([TRANSCRIPTS['openai-chat']]), loggingHandler(plainLog), { format: 'openai-chat' });
      const log: string[] = [];
      const observed = await consumeStream(trackedSource([TRANSCRIPTS['openai-chat']]), loggingHandler(log), { format: 'openai-chat', listeners: [thrower, rejecter, recorder(log)] });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(log.filter((entry) => entry.startsWith('handler'))).to.deep.equal(plainLog);
      expect(observed).to.deep.equal(plain);
      expect(log.filter((entry) => entry.startsWith('on'))).to.deep.equal(['onRequest', 'onFirstChunk', 'onResponse']);
      expect(warnings).to.have.length(2);
      expect(warnings[0]).to.include('listener bug');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('calls process-wide listeners for every stream until removed, before the per-call ones', async () => {
    const log: string[] = [];
    const remove = addChatModelListener({ onRequest: () => void log.push('global') });
    try {
      await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini', listeners: [{ onRequest: () => void log.push('own') }] });
    } finally {
      remove();
      remove();
    }
    await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini' });
    expect(log).to.deep.equal(['global', 'own']);
    const registry = (globalThis as unknown as Record<symbol, { listeners: unknown[] }>)[Symbol.for('partstream.listeners.v1')];
    expect(registry?.listeners).to.deep.equal([]);
  });

  it('shares one registry between two copies of partstream (the built package and these sources), and the root entry loads no OpenTelemetry', async function () {
    this.timeout(120_000);
    // A plain CommonJS script, hence require.
    const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };
    const repo = path.resolve(__dirname, '../..');
    ensureBuild(repo);
    const built = require(path.join(repo, 'dist/cjs/index.cjs')) as typeof import('../../lib/index');
    expect(built.addChatModelListener).not.to.equal(addChatModelListener);
    const log: string[] = [];
    const remove = built.addChatModelListener({ onResponse: () => void log.push('built copy heard it') });
    try {
      await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini' });
    } finally {
      remove();
    }
    expect(log).to.deep.equal(['built copy heard it']);
    const bundle = readFileSync(path.join(repo, 'dist/node/index.js'), 'utf8');
    expect(bundle).not.to.include('@opentelemetry');
  });

  it('refuses listeners and telemetry of the wrong kind with a TypeError, through the promise', async () => {
    const source = () => trackedSource([]);
    await expectRejection(() => consumeStream(source(), loggingHandler([]), { format: 'gemini', listeners: {} as never }), TypeError, 'Expected listeners to be an array');
    await expectRejection(() => consumeStream(source(), loggingHandler([]), { format: 'gemini', listeners: [null as never] }), TypeError, 'Expected listeners[0] to be a ChatModelListener');
    await expectRejection(() => consumeStream(source(), loggingHandler([]), { format: 'gemini', telemetry: { serverPort: '443' as never } }), TypeError, 'Expected telemetry.serverPort');
    expect(() => addChatModelListener(undefined as never)).to.throw(TypeError, 'Expected listener to be a ChatModelListener');
    // A handler without onError is refused as it is without listeners.
    await expectRejection(
      () => consumeStream(source(), { onCompleteResponse: () => undefined } as never, { format: 'gemini', listeners: [{}] }),
      TypeError,
      'Expected a handler with onCompleteResponse and onError',
    );
  });
});
