import { expect } from 'chai';
import { StreamController } from '../../lib/driver/stream-controller';

describe('StreamController', () => {
  it('starts open and aborts its signal on cancel()', () => {
    const controller = new StreamController();
    expect([controller.isCancelled(), controller.signal.aborted]).to.deep.equal([false, false]);
    controller.cancel();
    expect([controller.isCancelled(), controller.signal.aborted]).to.deep.equal([true, true]);
  });

  it('treats a second cancel() as harmless: one abort event, the first reason kept', () => {
    const controller = new StreamController();
    let aborts = 0;
    controller.signal.addEventListener('abort', () => aborts++);
    controller.cancel('first');
    controller.cancel('second');
    expect([aborts, controller.signal.reason]).to.deep.equal([1, 'first']);
  });

  it("gives a signal first read after the cancel already aborted, with the cancel's reason", () => {
    const controller = new StreamController();
    controller.cancel('done with it');
    expect([controller.signal.aborted, controller.signal.reason]).to.deep.equal([true, 'done with it']);
    expect(controller.signal).to.equal(controller.signal);
  });

  it('tells its listener of a cancel once, and at once when the stream is already cancelled', () => {
    const controller = new StreamController();
    const stops: string[] = [];
    controller.listen({ stop: () => stops.push('first') });
    controller.cancel();
    controller.cancel();
    controller.listen({ stop: () => stops.push('late') });
    controller.listen(null);
    expect(stops).to.deep.equal(['first', 'late']);
  });

  it('is cancelled at once by an external signal that is already aborted', () => {
    const external = AbortSignal.abort('caller gave up');
    const controller = new StreamController(external);
    expect([controller.isCancelled(), controller.signal.reason]).to.deep.equal([true, 'caller gave up']);
  });

  it('follows an external signal aborted later', () => {
    const external = new AbortController();
    const controller = new StreamController(external.signal);
    external.abort('later');
    expect([controller.isCancelled(), controller.signal.reason]).to.deep.equal([true, 'later']);
  });

  it('stops following the external signal after dispose()', () => {
    const external = new AbortController();
    const controller = new StreamController(external.signal);
    controller.dispose();
    external.abort();
    expect(controller.isCancelled()).to.equal(false);
  });

  it('removes its listener from the external signal on dispose()', () => {
    const external = new AbortController();
    const signal = external.signal;
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const add = signal.addEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      added.push(args[1]);
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
      removed.push(args[1]);
    };
    const controller = new StreamController(signal);
    controller.dispose();
    expect(added).to.have.length(1);
    expect(removed).to.deep.equal(added);
  });

  it('rejects something that is not an AbortSignal', () => {
    expect(() => new StreamController({} as AbortSignal)).to.throw(TypeError, 'Expected an AbortSignal, got object');
  });
});
