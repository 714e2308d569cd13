import { expect } from 'chai';
import { RunState } from '../../lib/driver/run-state';
import { StreamController } from '../../lib/driver/stream-controller';

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
