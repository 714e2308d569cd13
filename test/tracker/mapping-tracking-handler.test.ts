import { expect } from 'chai';
import { MappingTrackingHandler } from '../../lib/tracker/mapping-tracking-handler';
import { StreamController } from '../../lib/driver/stream-controller';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall } from '../../lib/handler/values';
import { RecordingHandler } from '../handler/recording-handler';

const handle = new StreamController();
const context = { streamingHandle: handle };
const response = chatResponse(aiMessage([]));

const typedCallbacks: Record<string, (tracker: MappingTrackingHandler) => void> = {
  onPartialResponse: (t) => t.onPartialResponse(partialResponse('a'), context),
  onPartialThinking: (t) => t.onPartialThinking(partialThinking('b'), context),
  onPartialToolCall: (t) => t.onPartialToolCall(partialToolCall(0, 'c', 'f', '{'), context),
  onCompleteToolCall: (t) => t.onCompleteToolCall(completeToolCall(0, { id: 'c', name: 'f', arguments: '{}' })),
  onCompleteResponse: (t) => t.onCompleteResponse(response),
  onError: (t) => t.onError(new Error('x')),
};

describe('MappingTrackingHandler', () => {
  it('starts unmapped', () => {
    expect(new MappingTrackingHandler(new RecordingHandler()).wasMapped()).to.equal(false);
  });

  for (const [name, call] of Object.entries(typedCallbacks)) {
    it(`sets the flag on ${name} and delegates it`, () => {
      const delegate = new RecordingHandler();
      const tracker = new MappingTrackingHandler(delegate);
      call(tracker);
      expect([tracker.wasMapped(), delegate.names()]).to.deep.equal([true, [name]]);
    });

    it(`counts ${name} as mapped even when the delegate throws`, () => {
      const throwing: StreamingChatResponseHandler = {
        [name]: () => {
          throw new Error('callback failed');
        },
        onCompleteResponse: () => {
          throw new Error('callback failed');
        },
        onError: () => {
          throw new Error('callback failed');
        },
      };
      const tracker = new MappingTrackingHandler(throwing);
      expect(() => call(tracker)).to.throw('callback failed');
      expect(tracker.wasMapped()).to.equal(true);
    });
  }

  it('clears the flag on resetMappingTracking()', () => {
    const tracker = new MappingTrackingHandler(new RecordingHandler());
    tracker.onPartialResponse(partialResponse('a'), context);
    tracker.resetMappingTracking();
    expect(tracker.wasMapped()).to.equal(false);
  });

  it('forwards a raw event without setting the flag', () => {
    const delegate = new RecordingHandler();
    const tracker = new MappingTrackingHandler(delegate);
    const raw = { event: 'ping', data: '{}' };
    tracker.onUnmappedRawEvent(raw);
    expect([tracker.wasMapped(), delegate.calls]).to.deep.equal([false, [['onUnmappedRawEvent', raw]]]);
  });

  it('keeps the flag set by an earlier typed callback of the same event when a raw event follows', () => {
    const tracker = new MappingTrackingHandler(new RecordingHandler());
    tracker.onPartialThinking(partialThinking('b'), context);
    tracker.onUnmappedRawEvent({ event: null, data: 'x' });
    expect(tracker.wasMapped()).to.equal(true);
  });

  it('still sets the flag when the delegate lacks the optional callback', () => {
    const tracker = new MappingTrackingHandler({ onCompleteResponse() {}, onError() {} });
    tracker.onPartialToolCall(partialToolCall(0, null, 'f', '{'), context);
    expect(tracker.wasMapped()).to.equal(true);
  });

  it('rejects a null raw event', () => {
    const tracker = new MappingTrackingHandler(new RecordingHandler());
    expect(() => tracker.onUnmappedRawEvent(null)).to.throw(TypeError, 'Expected a raw provider event, got null');
  });

  it('forwards bindStreamingHandle to a delegate that takes one', () => {
    const delegate = new RecordingHandler();
    new MappingTrackingHandler(delegate).bindStreamingHandle(handle);
    expect(delegate.handle).to.equal(handle);
  });
});
