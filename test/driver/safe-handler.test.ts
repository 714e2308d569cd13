import { expect } from 'chai';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { SafeHandler } from '../../lib/driver/safe-handler';
import { StreamController } from '../../lib/driver/stream-controller';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall } from '../../lib/handler/values';
import { RecordingHandler } from '../handler/recording-handler';

const response = chatResponse(aiMessage([]));
const signature = { provider: 'anthropic', kind: 'signature', data: 'sig' };

function setup(overrides: Partial<StreamingChatResponseHandler> = {}, signal?: AbortSignal) {
  const controller = new StreamController(signal);
  const user = new RecordingHandler(overrides);
  const safe = new SafeHandler(user, controller);
  const context = { streamingHandle: controller };
  return { controller, user, safe, context };
}

/** The recorded calls with errors reduced to comparable data. */
function summary(user: RecordingHandler): unknown[] {
  return user.calls.map(([name, value]) =>
    value instanceof Error ? [name, HandlerCallbackError.isInstance(value) ? { handlerCallbackError: value.callbackName, cause: (value.cause as Error).message } : value.message] : [name, value],
  );
}

describe('SafeHandler', () => {
  it('delivers every callback in order, passing the context through', () => {
    const { user, safe, context } = setup();
    const seen: unknown[] = [];
    const probe = new SafeHandler({ onPartialResponse: (_p, c) => seen.push(c), onCompleteResponse() {}, onError() {} }, context.streamingHandle);
    probe.onPartialResponse(partialResponse('x'), context);
    safe.onPartialThinking(partialThinking('t'), context);
    safe.onPartialResponse(partialResponse('a'), context);
    safe.onPartialToolCall(partialToolCall(0, 'c', 'f', '{}'), context);
    safe.onCompleteToolCall(completeToolCall(0, { id: 'c', name: 'f', arguments: '{}' }));
    safe.onUnmappedRawEvent({ event: 'ping', data: '' });
    safe.onCompleteResponse(response);
    expect(seen).to.deep.equal([context]);
    expect(summary(user)).to.deep.equal([
      ['onPartialThinking', { text: 't' }],
      ['onPartialResponse', { text: 'a' }],
      ['onPartialToolCall', { index: 0, id: 'c', name: 'f', partialArguments: '{}' }],
      ['onCompleteToolCall', { index: 0, toolExecutionRequest: { id: 'c', name: 'f', arguments: '{}' } }],
      ['onUnmappedRawEvent', { event: 'ping', data: '' }],
      ['onCompleteResponse', response],
    ]);
    expect(safe.state).to.equal('completed');
  });

  it('skips empty fragments but keeps an empty text that carries a payload', () => {
    const { user, safe, context } = setup();
    safe.onPartialResponse({ text: '' }, context);
    safe.onPartialThinking({ text: '' }, context);
    safe.onPartialToolCall({ index: 0, id: 'c', name: 'f', partialArguments: '' }, context);
    safe.onPartialThinking({ text: '', payload: signature }, context);
    expect(summary(user)).to.deep.equal([['onPartialThinking', { text: '', payload: signature }]]);
  });

  it('works with a handler that has only the two required callbacks', () => {
    const calls: string[] = [];
    const controller = new StreamController();
    const safe = new SafeHandler({ onCompleteResponse: () => calls.push('complete'), onError: () => calls.push('error') }, controller);
    safe.onPartialResponse(partialResponse('a'), { streamingHandle: controller });
    safe.onUnmappedRawEvent({});
    safe.onCompleteResponse(response);
    expect(calls).to.deep.equal(['complete']);
  });

  it('reports each throwing partial as one HandlerCallbackError and still delivers the full completion', () => {
    const boom = (): never => {
      throw new Error('listener bug');
    };
    const { user, safe, context } = setup({ onPartialResponse: boom, onPartialThinking: boom, onPartialToolCall: boom });
    safe.onPartialThinking(partialThinking('t'), context);
    safe.onPartialResponse(partialResponse('a'), context);
    safe.onPartialToolCall(partialToolCall(0, 'c', 'f', '{}'), context);
    safe.onCompleteResponse(response);
    expect(summary(user)).to.deep.equal([
      ['onPartialThinking', { text: 't' }],
      ['onError', { handlerCallbackError: 'onPartialThinking', cause: 'listener bug' }],
      ['onPartialResponse', { text: 'a' }],
      ['onError', { handlerCallbackError: 'onPartialResponse', cause: 'listener bug' }],
      ['onPartialToolCall', { index: 0, id: 'c', name: 'f', partialArguments: '{}' }],
      ['onError', { handlerCallbackError: 'onPartialToolCall', cause: 'listener bug' }],
      ['onCompleteResponse', response],
    ]);
    expect([safe.state, safe.failure]).to.deep.equal(['completed', null]);
  });

  it('reports a throwing onCompleteResponse once, and nothing after it', () => {
    const { user, safe, context } = setup({
      onCompleteResponse: () => {
        throw new Error('late bug');
      },
    });
    safe.onCompleteResponse(response);
    safe.onPartialResponse(partialResponse('late'), context);
    safe.onCompleteResponse(response);
    safe.onError(new Error('after the end'));
    expect(summary(user)).to.deep.equal([
      ['onCompleteResponse', response],
      ['onError', { handlerCallbackError: 'onCompleteResponse', cause: 'late bug' }],
    ]);
  });

  it('swallows a throwing onError and never calls it again for that throw', () => {
    const { user, safe, context } = setup({
      onPartialResponse: () => {
        throw new Error('partial bug');
      },
      onError: () => {
        throw new Error('onError bug');
      },
    });
    safe.onPartialResponse(partialResponse('a'), context);
    safe.onError(new Error('connection reset'));
    expect(summary(user)).to.deep.equal([
      ['onPartialResponse', { text: 'a' }],
      ['onError', { handlerCallbackError: 'onPartialResponse', cause: 'partial bug' }],
      ['onError', 'connection reset'],
    ]);
    expect(safe.state).to.equal('failed');
  });

  it('ends the stream on a stream error: one onError, nothing after, the failure exposed', () => {
    const { user, safe, context } = setup();
    const failure = new Error('HTTP 500');
    safe.onPartialResponse(partialResponse('a'), context);
    safe.onError(failure);
    safe.onPartialResponse(partialResponse('b'), context);
    safe.onError(new Error('second'));
    safe.onCompleteResponse(response);
    expect(summary(user)).to.deep.equal([
      ['onPartialResponse', { text: 'a' }],
      ['onError', 'HTTP 500'],
    ]);
    expect(safe.state).to.equal('failed');
    expect(safe.failure).to.equal(failure);
  });

  it('forwards a HandlerCallbackError given to onError without ending the stream', () => {
    const { user, safe } = setup();
    safe.onError(new HandlerCallbackError('onPartialResponse', new Error('downstream')));
    safe.onCompleteResponse(response);
    expect(summary(user)).to.deep.equal([
      ['onError', { handlerCallbackError: 'onPartialResponse', cause: 'downstream' }],
      ['onCompleteResponse', response],
    ]);
  });

  it('delivers exactly 5 partials and no terminal callback when the 5th partial cancels', () => {
    let count = 0;
    const { user, safe, context, controller } = setup({
      onPartialResponse: (_partial, ctx) => {
        if (++count === 5) ctx.streamingHandle.cancel();
      },
    });
    for (let i = 0; i < 8; i++) safe.onPartialResponse(partialResponse(`t${i}`), context);
    safe.onCompleteResponse(response);
    safe.onError(new Error('aborted'));
    expect(user.names()).to.deep.equal(Array(5).fill('onPartialResponse'));
    expect([safe.state, controller.isCancelled()]).to.deep.equal(['cancelled', true]);
  });

  it('delivers nothing when the callback that cancels also throws', () => {
    const { user, safe, context } = setup({
      onPartialResponse: (_partial, ctx) => {
        ctx.streamingHandle.cancel();
        throw new Error('after cancel');
      },
    });
    safe.onPartialResponse(partialResponse('a'), context);
    expect(user.names()).to.deep.equal(['onPartialResponse']);
  });

  it('treats cancel() twice as harmless', () => {
    const { user, safe, context, controller } = setup();
    safe.onPartialResponse(partialResponse('a'), context);
    controller.cancel();
    controller.cancel();
    safe.onPartialResponse(partialResponse('b'), context);
    expect([user.names(), safe.state]).to.deep.equal([['onPartialResponse'], 'cancelled']);
  });

  it('delivers nothing when an AbortSignal was aborted before the first token', () => {
    const { user, safe, context } = setup({}, AbortSignal.abort());
    safe.onPartialResponse(partialResponse('a'), context);
    safe.onCompleteResponse(response);
    expect([user.names(), safe.state]).to.deep.equal([[], 'cancelled']);
  });

  it('keeps the completed state when cancel() comes after the completion', () => {
    const { safe, controller } = setup();
    safe.onCompleteResponse(response);
    controller.cancel();
    expect(safe.state).to.equal('completed');
  });

  it('binds the controller to a handler that takes a streaming handle, in the constructor', () => {
    const { user, controller } = setup();
    expect(user.handle).to.equal(controller);
  });

  it('reports a throwing bindStreamingHandle as a HandlerCallbackError', () => {
    const errors: Error[] = [];
    new SafeHandler(
      {
        bindStreamingHandle: () => {
          throw new Error('bind bug');
        },
        onCompleteResponse() {},
        onError: (e) => errors.push(e),
      },
      new StreamController(),
    );
    expect(errors.map((e) => [e.name, (e as HandlerCallbackError).callbackName])).to.deep.equal([['HandlerCallbackError', 'bindStreamingHandle']]);
  });

  it('rejects a handler without onCompleteResponse/onError', () => {
    expect(() => new SafeHandler({ onError() {} } as never, new StreamController())).to.throw(TypeError, 'Expected a handler with onCompleteResponse and onError methods, got object');
  });
});
