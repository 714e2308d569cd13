import { expect } from 'chai';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';

describe('HandlerCallbackError', () => {
  it('names the callback and keeps what it threw as cause', () => {
    const cause = new RangeError('boom');
    const error = new HandlerCallbackError('onPartialResponse', cause);
    expect({ name: error.name, callbackName: error.callbackName, cause: error.cause, message: error.message }).to.deep.equal({
      name: 'HandlerCallbackError',
      callbackName: 'onPartialResponse',
      cause,
      message: 'Handler callback onPartialResponse threw: boom',
    });
    expect(error).to.be.instanceOf(Error);
  });

  it('describes a thrown non-Error value in its message', () => {
    expect(new HandlerCallbackError('onError', 'plain string').message).to.equal('Handler callback onError threw: plain string');
  });

  it('is recognised by isInstance across copies of the class, and nothing else is', () => {
    const foreign = Object.assign(new Error('x'), { name: 'HandlerCallbackError', callbackName: 'onCompleteResponse' });
    expect(HandlerCallbackError.isInstance(new HandlerCallbackError('onCompleteToolCall', 1))).to.equal(true);
    expect(HandlerCallbackError.isInstance(foreign)).to.equal(true);
    expect(HandlerCallbackError.isInstance(new Error('x'))).to.equal(false);
    expect(HandlerCallbackError.isInstance({ name: 'HandlerCallbackError', callbackName: 'onError' })).to.equal(false);
    expect(HandlerCallbackError.isInstance(null)).to.equal(false);
  });
});
