import { expect } from 'chai';
import { describeError } from '../../lib/handler/describe-error';

describe('describeError', () => {
  it('adds the message of the cause', () => {
    expect(describeError(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') }))).to.equal('fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
  });

  it('describes a value that is not an Error', () => {
    expect([describeError('boom'), describeError(42)]).to.deep.equal(['boom', '42']);
  });

  it('never throws for a value that resists reading', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const bad = new Error('x');
    Object.defineProperty(bad, 'message', {
      get() {
        throw new Error('no message');
      },
    });
    expect([describeError(proxy), describeError(bad)]).to.deep.equal(['an error that could not be described', 'an error that could not be described']);
  });
});
