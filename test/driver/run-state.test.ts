import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { handlerChain } from '../../lib/driver/handler-chain';
import { RunState } from '../../lib/driver/run-state';
import { StreamController } from '../../lib/driver/stream-controller';
import { StreamError } from '../../lib/handler/stream-error';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../lib/handler/values';
import type { StreamMapper } from '../../lib/providers/stream-mapper';
import type { SseFrame } from '../../lib/wire/types';
import { RecordingHandler } from '../handler/recording-handler';

describe('RunState', () => {
  it('is open until a terminal callback is decided, then says which', () => {
    const state = new RunState();
    expect([state.open, state.status]).to.deep.equal([true, 'open']);
    const failure = new Error('died');
    state.end('failed', failure, false);
    expect([state.open, state.status, state.failure]).to.deep.equal([false, 'failed', failure]);
    // A cancel after the terminal callback was delivered changes nothing.
    state.cancel();
    expect([state.status, state.failure]).to.deep.equal(['failed', failure]);
  });

  it('is cancelled when the cancel comes while the terminal callback still waits in the queue', () => {
    const state = new RunState();
    state.end('completed', null, true);
    expect(state.status).to.equal('completed');
    expect(state.cancel()).to.equal(true);
    expect([state.status, state.failure, state.cancel()]).to.deep.equal(['cancelled', null, false]);
  });

  it('is the state the controller marks: one record for the controller and whoever holds the state', () => {
    const state = new RunState();
    const controller = new StreamController(undefined, state);
    controller.cancel('stop');
    expect([state.cancelled, state.open, state.status, controller.isCancelled(), controller.signal.aborted]).to.deep.equal([true, false, 'cancelled', true, true]);
    const aborted = new StreamController(AbortSignal.abort(), new RunState());
    expect([aborted.state.cancelled, aborted.state.open]).to.deep.equal([true, false]);
  });
});

/**
 * One record of the run in a driven stream: the bridge consults the driver's run state and keeps
 * no gate of its own. Each test decides the end in the run state without passing the bridge (as
 * the safe handler does when it takes the terminal callback); a bridge with a record of its own
 * would still be open and would aggregate — and complete with — what follows.
 */
describe('one run record in a driven stream', () => {
  const providerResponse = chatResponse(aiMessage([]), responseMetadata({ id: 'late-id' }));

  it('handlerChain: the bridge stops aggregating and passes no terminal once the safe handler ended the run', () => {
    const controller = new StreamController();
    const user = new RecordingHandler();
    const { safe, bridge, tracker } = handlerChain(user, controller);
    const context = { streamingHandle: controller };
    tracker.onPartialResponse(partialResponse('kept'), context);
    // The terminal callback reaches the safe handler straight (the bridge never sees it).
    safe.onError(new StreamError('network', 'gone'));
    tracker.onPartialResponse(partialResponse(' late'), context);
    tracker.onCompleteResponse(providerResponse);
    tracker.onError(new StreamError('provider', 'late'));
    expect(user.names()).to.deep.equal(['onPartialResponse', 'onError']);
    const partial = bridge.partialResponse();
    expect([partial.aiMessage.text, partial.metadata.id, controller.state.status]).to.deep.equal(['kept', null, 'failed']);
  });

  it('consumeStream: the bridge stops aggregating where the run state ended, though the mapper goes on', async () => {
    const adapter = (): StreamMapper<SseFrame> => ({
      framing: 'sse',
      map(frame, target) {
        const context = { streamingHandle: target.handle };
        target.handler.onPartialResponse?.(partialResponse(frame.data), context);
        if (frame.data !== 'b') return false;
        // The run's one record, reached through the stream's handle: ended here, past the bridge;
        // the mapper goes on within the event.
        (target.handle as StreamController).state.end('failed', new StreamError('network', 'ended in the run state'), false);
        target.handler.onPartialResponse?.(partialResponse(' late'), context);
        target.handler.onCompleteResponse(providerResponse);
        return false;
      },
      end() {},
    });
    const user = new RecordingHandler();
    async function* body(): AsyncGenerator<string> {
      yield ['a', 'b', 'c'].map((data) => `data: ${data}\n\n`).join('');
    }
    const outcome = await consumeStream(body(), user, { format: 'sse', adapter });
    expect(user.names()).to.deep.equal(['onPartialResponse', 'onPartialResponse']);
    expect(outcome.status).to.equal('failed');
    const partial = outcome.status === 'failed' ? outcome.partial : null;
    expect([partial?.aiMessage.text, partial?.metadata.id]).to.deep.equal(['ab', null]);
  });
});
