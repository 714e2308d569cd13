import { ModelStreamErrorException, ThrottlingException } from '@aws-sdk/client-bedrock-runtime';
import { expect } from 'chai';
import { bedrockFrameFromSdkError, bedrockFrameFromSdkEvent, bedrockFramesFromSdkStream } from '../../../lib/providers/bedrock-converse/bedrock-sdk-events';
import type { EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';

function event(eventType: string | null, value: unknown): EventStreamFrame {
  return { messageType: 'event', eventType, exceptionType: null, errorMessage: null, payload: { ok: true, value } };
}
function exception(type: string, value: unknown): EventStreamFrame {
  return { messageType: 'exception', eventType: null, exceptionType: type, errorMessage: null, payload: { ok: true, value } };
}

describe('bedrockFrameFromSdkEvent', () => {
  it('names the event by its one member and takes the member as the payload, not copied', () => {
    const delta = { contentBlockIndex: 0, delta: { text: 'Hi' } };
    const frame = bedrockFrameFromSdkEvent({ contentBlockDelta: delta });
    expect(frame).to.deep.equal(event('contentBlockDelta', delta));
    expect((frame.payload as { value: unknown }).value).to.equal(delta);
  });

  it('writes a Uint8Array (redacted reasoning) back as the base64 the wire carries', () => {
    const bytes = new TextEncoder().encode('EtkECkgI');
    expect(bedrockFrameFromSdkEvent({ contentBlockDelta: { contentBlockIndex: 2, delta: { reasoningContent: { redactedContent: bytes } } } })).to.deep.equal(
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { redactedContent: 'RXRrRUNrZ0k=' } } }),
    );
  });

  it("writes the SDK's $unknown member back as the member the wire sent", () => {
    expect(bedrockFrameFromSdkEvent({ contentBlockDelta: { contentBlockIndex: 1, delta: { $unknown: ['futureKind', { a: 1 }] } } })).to.deep.equal(
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { futureKind: { a: 1 } } }),
    );
    expect(bedrockFrameFromSdkEvent({ $unknown: ['newEvent', { x: 1 }] })).to.deep.equal(event('newEvent', { x: 1 }));
  });

  it('an exception member is an exception frame with the member as its type', () => {
    expect(bedrockFrameFromSdkEvent({ throttlingException: { message: 'slow' } })).to.deep.equal(exception('throttlingException', { message: 'slow' }));
  });

  it('an object with no member or two is an event without a type', () => {
    expect(bedrockFrameFromSdkEvent({})).to.deep.equal(event(null, {}));
    expect(bedrockFrameFromSdkEvent({ messageStart: {}, messageStop: {} })).to.deep.equal(event(null, { messageStart: {}, messageStop: {} }));
  });

  it('keeps __proto__ a plain own key when it copies', () => {
    const value = JSON.parse('{"contentBlockDelta":{"__proto__":{"x":1},"delta":{}}}') as Record<string, unknown>;
    (value.contentBlockDelta as Record<string, Record<string, unknown>>).delta!.bytes = new Uint8Array([1]);
    const frame = bedrockFrameFromSdkEvent(value);
    const payload = (frame.payload as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(payload)).to.equal(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(payload, '__proto__')).to.equal(true);
    expect(payload.delta).to.deep.equal({ bytes: 'AQ==' });
  });

  it('takes a frame (as bedrockFramesFromSdkStream yields) as it is', () => {
    const frame = exception('throttlingException', { message: 'slow' });
    expect(bedrockFrameFromSdkEvent(frame)).to.equal(frame);
  });

  it('rejects what is not an object with a TypeError', () => {
    expect(() => bedrockFrameFromSdkEvent(null)).to.throw(TypeError, /Expected a ConverseStream event object/);
    expect(() => bedrockFrameFromSdkEvent('contentBlockDelta')).to.throw(TypeError, /Expected a ConverseStream event object/);
  });
});

describe('bedrockFrameFromSdkError', () => {
  it("turns the SDK's exception classes into the exception frame of the wire's type", () => {
    const error = new ThrottlingException({ message: 'Too many requests', $metadata: {} });
    expect(bedrockFrameFromSdkError(error)).to.deep.equal(exception('throttlingException', { message: 'Too many requests' }));
    const stream = new ModelStreamErrorException({ message: 'Broken', originalStatusCode: 500, $metadata: {} });
    expect(bedrockFrameFromSdkError(stream)).to.deep.equal(exception('modelStreamErrorException', { message: 'Broken', originalStatusCode: 500 }));
  });

  it('is null for what is no Bedrock exception (an abort, a network error, a plain Error)', () => {
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(bedrockFrameFromSdkError(abort)).to.equal(null);
    expect(bedrockFrameFromSdkError(new TypeError('fetch failed'))).to.equal(null);
    expect(bedrockFrameFromSdkError('nope')).to.equal(null);
  });

  it('takes any service error the SDK marks with $fault, its name as the type', () => {
    const error = Object.assign(new Error('new kind'), { name: 'QuotaExceededException', $fault: 'client' });
    expect(bedrockFrameFromSdkError(error)).to.deep.equal(exception('QuotaExceededException', { message: 'new kind' }));
  });
});

describe('bedrockFramesFromSdkStream', () => {
  async function collect(source: AsyncIterable<unknown>): Promise<EventStreamFrame[]> {
    const frames: EventStreamFrame[] = [];
    for await (const frame of bedrockFramesFromSdkStream(source)) frames.push(frame);
    return frames;
  }

  it('ends with the exception frame of a Bedrock exception the iterator throws', async () => {
    async function* source(): AsyncGenerator<unknown> {
      yield { messageStart: { role: 'assistant' } };
      throw new ThrottlingException({ message: 'slow', $metadata: {} });
    }
    expect(await collect(source())).to.deep.equal([event('messageStart', { role: 'assistant' }), exception('throttlingException', { message: 'slow' })]);
  });

  it('passes any other throw on as it is', async () => {
    const failure = new Error('socket hang up');
    async function* source(): AsyncGenerator<unknown> {
      yield { messageStart: {} };
      throw failure;
    }
    let caught: unknown = null;
    await collect(source()).catch((error: unknown) => {
      caught = error;
    });
    expect(caught).to.equal(failure);
  });
});
