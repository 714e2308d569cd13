import { expect } from 'chai';
import fc from 'fast-check';
import { PartsBridge } from '../../lib/bridge/parts-bridge';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import type { ChatResponse, StreamingHandle } from '../../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { RecordingHandler } from '../handler/recording-handler';

/** A handle of the caller's own (no driver): counts how often it is asked whether it was cancelled. */
class CountingHandle implements StreamingHandle {
  asked = 0;
  private cancelled = false;
  cancel(): void {
    this.cancelled = true;
  }
  isCancelled(): boolean {
    this.asked++;
    return this.cancelled;
  }
}

const signature = { provider: 'anthropic', kind: 'signature', data: 'EqQBCgIYAhIM' };

function provider(id: string): ChatResponse {
  return chatResponse(aiMessage([]), responseMetadata({ id }));
}

/** Drives every kind of callback once, with `handle` in the contexts. */
function everyCallback(bridge: PartsBridge, handle: StreamingHandle): void {
  const context = { streamingHandle: handle };
  bridge.onPartialThinking(partialThinking('hmm'), context);
  bridge.onPartialResponse(partialResponse('Hi'), context);
  bridge.onPartialToolCall(partialToolCall(0, 'c1', 'f', '{}'), context);
  bridge.onCompleteToolCall(completeToolCall(0, { id: 'c1', name: 'f', arguments: '{}' }));
  bridge.onUnmappedRawEvent({ type: 'ping' });
}

describe('PartsBridge on its own (SPEC §7, no driver)', () => {
  describe('one terminal callback', () => {
    it('forwards the first onCompleteResponse only', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      bridge.onPartialResponse(partialResponse('Hi'), { streamingHandle: new CountingHandle() });
      bridge.onCompleteResponse(provider('first'));
      bridge.onCompleteResponse(provider('second'));
      bridge.onError(new Error('late'));
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onCompleteResponse']);
      expect((user.calls[1][1] as ChatResponse).metadata.id).to.equal('first');
      expect(bridge.partialResponse().metadata.id).to.equal('first');
    });

    it('forwards the first onError only, and no completion after it', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      bridge.onError(new Error('first'));
      bridge.onError(new Error('second'));
      bridge.onCompleteResponse(provider('r'));
      expect(user.calls.map(([name, value]) => [name, (value as Error).message])).to.deep.equal([['onError', 'first']]);
    });

    it('drops a completion the wrapped handler sends back in from its own onCompleteResponse', () => {
      let bridge: PartsBridge | null = null;
      const user = new RecordingHandler({ onCompleteResponse: (response) => bridge?.onCompleteResponse(response) });
      bridge = new PartsBridge(user);
      bridge.onCompleteResponse(provider('r'));
      expect(user.names()).to.deep.equal(['onCompleteResponse']);
    });

    it('forwards a HandlerCallbackError while open and lets the stream complete after it', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      bridge.onError(new HandlerCallbackError('onPartialResponse', new Error('boom')));
      bridge.onCompleteResponse(provider('r'));
      bridge.onError(new HandlerCallbackError('onCompleteResponse', new Error('late')));
      expect(user.names()).to.deep.equal(['onError', 'onCompleteResponse']);
    });

    it('drops every other callback after the terminal one, and aggregates none of them', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      bridge.onError(new Error('failed'));
      everyCallback(bridge, new CountingHandle());
      expect(user.names()).to.deep.equal(['onError']);
      expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([]);
    });
  });

  describe('cancel', () => {
    it('forwards nothing after a cancel through the bound handle, and keeps what came before', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      const bound = new CountingHandle();
      bridge.bindStreamingHandle(bound);
      // The contexts carry another handle, never cancelled: the bound one decides.
      bridge.onPartialResponse(partialResponse('kept'), { streamingHandle: new CountingHandle() });
      bound.cancel();
      everyCallback(bridge, new CountingHandle());
      bridge.onCompleteResponse(provider('r'));
      bridge.onError(new Error('aborted'));
      expect(user.names()).to.deep.equal(['onPartialResponse']);
      expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([textPart('kept')]);
    });

    it('forwards nothing after a cancel through the contexts’ handle when none is bound', () => {
      const user = new RecordingHandler({ onPartialThinking: (_partial, context) => context.streamingHandle.cancel() });
      const bridge = new PartsBridge(user);
      everyCallback(bridge, new CountingHandle());
      bridge.onCompleteResponse(provider('r'));
      expect(user.names()).to.deep.equal(['onPartialThinking']);
      // The callback that cancelled still finds its own fragment.
      expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([reasoningPart('hmm')]);
    });

    it('does not forward the handle of a stream already cancelled', () => {
      const user = new RecordingHandler();
      const bridge = new PartsBridge(user);
      const handle = new CountingHandle();
      handle.cancel();
      bridge.bindStreamingHandle(handle);
      expect(user.handle).to.equal(null);
      const open = new CountingHandle();
      new PartsBridge(user).bindStreamingHandle(open);
      expect(user.handle).to.equal(open);
    });

    it('asks the handle once per callback, and never again once it saw the cancel', () => {
      const bridge = new PartsBridge(new RecordingHandler());
      const handle = new CountingHandle();
      bridge.bindStreamingHandle(handle);
      handle.asked = 0;
      everyCallback(bridge, handle); // five callbacks
      expect(handle.asked).to.equal(5);
      handle.cancel();
      everyCallback(bridge, handle);
      bridge.onCompleteResponse(provider('r'));
      expect(handle.asked).to.equal(6);
    });
  });

  it('keeps reasoning text that follows a signature-only delta, with the signature', () => {
    const user = new RecordingHandler();
    const bridge = new PartsBridge(user);
    const context = { streamingHandle: new CountingHandle() };
    bridge.onPartialThinking(partialThinking('', signature), context);
    bridge.onPartialThinking(partialThinking('after'), context);
    bridge.onPartialThinking(partialThinking(' more'), context);
    bridge.onPartialToolCall(partialToolCall(3, null, 'f', '{"a":'), context);
    bridge.onPartialToolCall(partialToolCall(3, null, 'f', '1}'), context);
    bridge.onCompleteResponse(provider('r'));
    expect((user.calls.at(-1)?.[1] as ChatResponse).aiMessage.parts).to.deep.equal([
      reasoningPart('after more', { payload: signature }),
      toolCallPart({ id: null, type: 'function', name: 'f', arguments: '{"a":1}' }, { attributes: { incomplete: 'true' } }),
    ]);
  });

  it('forwards, for any order of callbacks, cancels and terminal callbacks, exactly what came before the first terminal callback or visible cancel', () => {
    type Step = 'text' | 'thinking' | 'toolDelta' | 'toolComplete' | 'raw' | 'complete' | 'error' | 'callbackError' | 'cancel';
    const FORWARDED: Record<Step, string | null> = {
      text: 'onPartialResponse',
      thinking: 'onPartialThinking',
      toolDelta: 'onPartialToolCall',
      toolComplete: 'onCompleteToolCall',
      raw: 'onUnmappedRawEvent',
      complete: 'onCompleteResponse',
      error: 'onError',
      callbackError: 'onError',
      cancel: null,
    };
    const steps = fc.array(fc.constantFrom<Step>('text', 'thinking', 'toolDelta', 'toolComplete', 'raw', 'complete', 'error', 'callbackError', 'cancel'), { maxLength: 25 });
    fc.assert(
      fc.property(steps, fc.boolean(), (sequence, bind) => {
        const user = new RecordingHandler();
        const bridge = new PartsBridge(user);
        const handle = new CountingHandle();
        if (bind) bridge.bindStreamingHandle(handle);
        const context = { streamingHandle: handle };
        // The model: everything is forwarded until the stream ends or a cancel the bridge can
        // see — through the bound handle, or, unbound, once a callback's context showed it the
        // handle; a HandlerCallbackError ends nothing.
        const expected: string[] = [];
        let ended = false;
        let cancelled = false;
        let known = bind;
        sequence.forEach((step, i) => {
          if (step === 'text' || step === 'thinking' || step === 'toolDelta') known = true;
          if (cancelled && known) ended = true;
          if (!ended && FORWARDED[step] !== null) expected.push(FORWARDED[step] as string);
          if (step === 'complete' || step === 'error') ended = true;
          if (step === 'cancel') cancelled = true;
          switch (step) {
            case 'text':
              return bridge.onPartialResponse(partialResponse(`t${i}`), context);
            case 'thinking':
              return bridge.onPartialThinking(partialThinking(`r${i}`), context);
            case 'toolDelta':
              return bridge.onPartialToolCall(partialToolCall(i % 2, null, 'f', `a${i}`), context);
            case 'toolComplete':
              return bridge.onCompleteToolCall(completeToolCall(i % 2, { id: null, name: 'f', arguments: '{}' }));
            case 'raw':
              return bridge.onUnmappedRawEvent({ i });
            case 'complete':
              return bridge.onCompleteResponse(provider(`r${i}`));
            case 'error':
              return bridge.onError(new Error(`e${i}`));
            case 'callbackError':
              return bridge.onError(new HandlerCallbackError('onPartialResponse', new Error(`c${i}`)));
            default:
              return handle.cancel();
          }
        });
        expect(user.names()).to.deep.equal(expected);
      }),
      { seed: 7303, numRuns: 300 },
    );
  });
});
