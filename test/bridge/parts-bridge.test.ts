import { expect } from 'chai';
import { PartsBridge } from '../../lib/bridge/parts-bridge';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { StreamController } from '../../lib/driver/stream-controller';
import type { ChatResponse, ChatResponseMetadata } from '../../lib/handler/types';
import { aiMessage, chatResponse, partialResponse, responseMetadata, tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import type { MessagePart } from '../../lib/parts/types';
import { RecordingHandler } from '../handler/recording-handler';
import { buildChain } from './build-chain';

const signature = { provider: 'anthropic', kind: 'signature', data: 'EqQBCgIYAhIM' };
const metadata: Partial<ChatResponseMetadata> = { id: 'msg_01', modelName: 'model-x', tokenUsage: tokenUsage(12, 34), finishReason: 'TOOL_EXECUTION' };

function call(id: string | null, name: string, args: string, payload: MessagePart['payload'] = null): MessagePart {
  return toolCallPart({ id, type: 'function', name, arguments: args }, { payload });
}

/** A tool-call part whose call never completed (marked `incomplete: "true"`). */
function incompleteCall(id: string | null, name: string | null, args: string): MessagePart {
  return toolCallPart({ id, type: 'function', name, arguments: args }, { attributes: { incomplete: 'true' } });
}

function finalOf(user: RecordingHandler): ChatResponse {
  const completions = user.calls.filter(([name]) => name === 'onCompleteResponse');
  expect(completions).to.have.length(1);
  return completions[0][1] as ChatResponse;
}

function expectedResponse(parts: MessagePart[], meta = metadata, attributes: Record<string, string> = {}): ChatResponse {
  return chatResponse(aiMessage(parts, attributes), responseMetadata(meta));
}

describe('PartsBridge', () => {
  describe('final parts, in the order the model produced them', () => {
    it('keeps reasoning → text → tool call → text in order, with the derived views and the provider metadata', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.thinking('Think ');
      s.thinking('more.');
      s.text('Hel');
      s.text('lo');
      s.toolDelta(0, 'call_1', 'get_weather', '{"city":');
      s.toolDelta(0, 'call_1', 'get_weather', '"Paris"}');
      s.toolComplete(0, 'call_1', 'get_weather', '{"city":"Paris"}');
      s.text(' after');
      s.complete(metadata);
      const final = finalOf(user);
      expect(final).to.deep.equal(expectedResponse([reasoningPart('Think more.'), textPart('Hello'), call('call_1', 'get_weather', '{"city":"Paris"}'), textPart(' after')]));
      expect(final.aiMessage).to.deep.include({
        text: 'Hello after',
        thinking: 'Think more.',
        toolExecutionRequests: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      });
    });

    it('continues one reasoning part while tool-call argument deltas arrive between its deltas', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.thinking('I will ');
      s.toolDelta(0, 'call_1', 'search', '{"q":');
      s.thinking('search.');
      s.toolDelta(0, 'call_1', 'search', '"cats"}');
      s.toolComplete(0, 'call_1', 'search', '{"q":"cats"}');
      s.text('Found.');
      s.complete(metadata);
      expect(finalOf(user)).to.deep.equal(expectedResponse([reasoningPart('I will search.'), call('call_1', 'search', '{"q":"cats"}'), textPart('Found.')]));
    });

    it('keeps two parallel tool calls apart when their argument deltas interleave', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolDelta(0, 'call_a', 'add', '{"a":');
      s.toolDelta(1, 'call_b', 'mul', '{"b":');
      s.toolDelta(0, 'call_a', 'add', '1}');
      s.toolDelta(1, 'call_b', 'mul', '2}');
      s.toolComplete(0, 'call_a', 'add', '{"a":1}');
      s.toolComplete(1, 'call_b', 'mul', '{"b":2}');
      s.complete(metadata);
      expect(finalOf(user)).to.deep.equal(expectedResponse([call('call_a', 'add', '{"a":1}'), call('call_b', 'mul', '{"b":2}')]));
    });

    it('keys argument deltas without an id by their tool-call index (Gemini, Ollama)', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolDelta(0, null, 'add', '{"a":');
      s.toolDelta(1, null, 'mul', '{"b":');
      s.toolDelta(0, null, 'add', '1}');
      s.toolDelta(1, null, 'mul', '2}');
      s.toolComplete(0, null, 'add', '{"a":1}');
      s.toolComplete(1, null, 'mul', '{"b":2}');
      s.complete(metadata);
      expect(finalOf(user)).to.deep.equal(expectedResponse([call(null, 'add', '{"a":1}'), call(null, 'mul', '{"b":2}')]));
    });

    it('keeps a part per call when calls share an id, or use an id like a derived key', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolDelta(0, null, 'f', '{"a":1}');
      s.toolComplete(0, null, 'f', '{"a":1}');
      s.toolDelta(1, 'partstream:tool-call#0', 'g', '{}');
      s.toolComplete(1, 'partstream:tool-call#0', 'g', '{}');
      s.toolDelta(2, 'dup', 'h', '{"n":1}');
      s.toolComplete(2, 'dup', 'h', '{"n":1}');
      s.toolComplete(3, 'dup', 'h', '{"n":2}');
      s.complete(metadata);
      expect(finalOf(user)).to.deep.equal(expectedResponse([call(null, 'f', '{"a":1}'), call('partstream:tool-call#0', 'g', '{}'), call('dup', 'h', '{"n":1}'), call('dup', 'h', '{"n":2}')]));
    });

    it('puts a call the adapter gave up on in the place of its deltas, marked incomplete', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolDelta(0, 'call_1', 'f', '{"q":');
      s.text('between');
      s.bridge.keepIncompleteToolCall({ index: 0, id: 'call_1', name: 'f', arguments: '{"q":"ab' });
      s.bridge.keepIncompleteToolCall({ index: 1, id: null, name: null, arguments: '{"x":1}' });
      s.complete(metadata);
      expect(user.names()).to.deep.equal(['onPartialToolCall', 'onPartialResponse', 'onCompleteResponse']);
      expect(finalOf(user)).to.deep.equal(expectedResponse([incompleteCall('call_1', 'f', '{"q":"ab'), textPart('between'), incompleteCall(null, null, '{"x":1}')]));
    });

    it('keeps one slot per call when only the first delta carries the id', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolDelta(0, 'call_a', 'add', '{"a"');
      s.toolDelta(0, null, 'add', ':1}');
      s.text('done');
      s.complete(metadata);
      // No complete call came: the deltas stay one part, marked incomplete.
      expect(finalOf(user)).to.deep.equal(expectedResponse([incompleteCall('call_a', 'add', '{"a":1}'), textPart('done')]));
    });

    it('puts the payload of a signature-only thinking event on the reasoning part', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.thinking('Let me think.');
      s.thinking('', signature);
      s.text('Answer');
      s.complete(metadata);
      expect(finalOf(user)).to.deep.equal(expectedResponse([reasoningPart('Let me think.', { payload: signature }), textPart('Answer')]));
      expect(user.calls[1]).to.deep.equal(['onPartialThinking', { text: '', payload: signature }]);
    });

    it('gives a reasoning part with only a payload null text (encrypted reasoning)', () => {
      const encrypted = { provider: 'openai', kind: 'encrypted_content', data: 'gAAAA' };
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.thinking('', encrypted);
      s.text('Hi');
      s.complete(metadata);
      const final = finalOf(user);
      expect(final.aiMessage.parts).to.deep.equal([reasoningPart(null, { payload: encrypted }), textPart('Hi')]);
      expect(final.aiMessage.thinking).to.equal(null);
    });

    it('carries a payload on a complete tool call (a thought signature on a function call)', () => {
      const thought = { provider: 'gemini', kind: 'thought_signature', data: 'CiQB' };
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.toolComplete(0, null, 'lookup', '', thought);
      s.complete(metadata);
      expect(finalOf(user).aiMessage.parts).to.deep.equal([call(null, 'lookup', '{}', thought)]);
    });

    it('carries the provider message attributes (a refusal) into the final message', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.complete({ ...metadata, finishReason: 'CONTENT_FILTER' }, { refusal: "I can't help with that." });
      expect(finalOf(user)).to.deep.equal(expectedResponse([], { ...metadata, finishReason: 'CONTENT_FILTER' }, { refusal: "I can't help with that." }));
    });

    it('keeps the provider response parts when nothing was streamed', () => {
      const bridge = new PartsBridge(new RecordingHandler());
      const provider = chatResponse(aiMessage([textPart('whole answer')]), responseMetadata(metadata));
      bridge.onCompleteResponse(provider);
      expect(bridge.partialResponse()).to.deep.equal(provider);
    });
  });

  describe('forwarding', () => {
    it('forwards every callback at once, raw events included, and does not aggregate raw events', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.text('a');
      expect(user.names()).to.deep.equal(['onPartialResponse']);
      s.raw({ event: 'ping', data: '{}' });
      expect(user.calls[1]).to.deep.equal(['onUnmappedRawEvent', { event: 'ping', data: '{}' }]);
      s.text('b');
      s.complete(metadata);
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onUnmappedRawEvent', 'onPartialResponse', 'onCompleteResponse']);
      expect(finalOf(user).aiMessage.parts).to.deep.equal([textPart('ab')]);
    });

    it('neither delivers nor aggregates an empty text without payload', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.text('a');
      s.event({ empty: true }, (h) => h.onPartialResponse({ text: '' }, s.context));
      s.text('b');
      s.complete(metadata);
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onPartialResponse', 'onCompleteResponse']);
      expect(finalOf(user).aiMessage.parts).to.deep.equal([textPart('ab')]);
    });

    it('forwards bindStreamingHandle to the wrapped handler', () => {
      const user = new RecordingHandler();
      const handle = new StreamController();
      new PartsBridge(user).bindStreamingHandle(handle);
      expect(user.handle).to.equal(handle);
    });
  });

  describe('#partialResponse', () => {
    it('returns what was aggregated so far with null metadata, then the final response once complete', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.thinking('Hmm');
      s.text('Par');
      expect(s.bridge.partialResponse()).to.deep.equal(expectedResponse([reasoningPart('Hmm'), textPart('Par')], responseMetadata()));
      s.text('is');
      s.complete(metadata);
      expect(s.bridge.partialResponse()).to.deep.equal(finalOf(user));
    });

    it('keeps a tool call whose complete callback never came (stream error)', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.text('Calling.');
      s.toolDelta(0, 'call_1', 'get_weather', '{"city":');
      s.toolDelta(0, 'call_1', 'get_weather', '"Par');
      s.fail(new Error('connection reset'));
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onPartialToolCall', 'onPartialToolCall', 'onError']);
      expect(s.safe.state).to.equal('failed');
      expect(s.bridge.partialResponse()).to.deep.equal(expectedResponse([textPart('Calling.'), incompleteCall('call_1', 'get_weather', '{"city":"Par')], responseMetadata()));
    });

    it('aggregates nothing after a stream error', () => {
      const s = buildChain(new RecordingHandler());
      s.text('a');
      s.fail(new Error('boom'));
      s.text('b');
      expect(s.bridge.partialResponse().aiMessage.text).to.equal('a');
    });
  });

  describe('with throwing handlers', () => {
    it('reports one HandlerCallbackError per throwing partial and still delivers the full completion', () => {
      const boom = (): never => {
        throw new Error('bug');
      };
      const user = new RecordingHandler({ onPartialResponse: boom, onPartialThinking: boom, onPartialToolCall: boom, onCompleteToolCall: boom });
      const s = buildChain(user);
      s.thinking('T');
      s.text('A');
      s.text('B');
      s.toolDelta(0, 'c', 'f', '{}');
      s.toolComplete(0, 'c', 'f', '{}');
      s.complete(metadata);
      const errors = user.calls.filter(([name]) => name === 'onError').map(([, e]) => (e as HandlerCallbackError).callbackName);
      expect(errors).to.deep.equal(['onPartialThinking', 'onPartialResponse', 'onPartialResponse', 'onPartialToolCall', 'onCompleteToolCall']);
      expect(finalOf(user)).to.deep.equal(expectedResponse([reasoningPart('T'), textPart('AB'), call('c', 'f', '{}')]));
      expect(user.names().at(-1)).to.equal('onCompleteResponse');
    });

    it('counts an event whose callback threw as mapped (it is not surfaced raw)', () => {
      const user = new RecordingHandler({
        onPartialResponse: () => {
          throw new Error('bug');
        },
      });
      const s = buildChain(user);
      expect(s.text('x')).to.equal(true);
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onError']);
    });

    it('reports a throwing onCompleteResponse once', () => {
      const user = new RecordingHandler({
        onCompleteResponse: () => {
          throw new Error('late bug');
        },
      });
      const s = buildChain(user);
      s.text('a');
      s.complete(metadata);
      s.complete(metadata);
      s.fail(new Error('after'));
      expect(user.names()).to.deep.equal(['onPartialResponse', 'onCompleteResponse', 'onError']);
      const error = user.calls[2][1] as HandlerCallbackError;
      expect([HandlerCallbackError.isInstance(error), error.callbackName, (error.cause as Error).message]).to.deep.equal([true, 'onCompleteResponse', 'late bug']);
    });

    it('does not call a throwing onError again', () => {
      const user = new RecordingHandler({
        onPartialResponse: () => {
          throw new Error('bug');
        },
        onError: () => {
          throw new Error('onError bug');
        },
      });
      const s = buildChain(user);
      s.text('a');
      s.text('b');
      s.fail(new Error('stream died'));
      expect(user.calls.map(([name, value]) => (name === 'onError' ? [name, (value as Error).name] : [name]))).to.deep.equal([
        ['onPartialResponse'],
        ['onError', 'HandlerCallbackError'],
        ['onPartialResponse'],
        ['onError', 'HandlerCallbackError'],
        ['onError', 'Error'],
      ]);
    });
  });

  describe('cancel', () => {
    it('delivers exactly 5 partials, no completion and no error when the 5th partial cancels', () => {
      let partials = 0;
      const user = new RecordingHandler({
        onPartialResponse: (_p, context) => {
          if (++partials === 5) context.streamingHandle.cancel();
        },
      });
      const s = buildChain(user);
      for (let i = 1; i <= 8; i++) s.text(`t${i} `);
      s.complete(metadata);
      s.fail(new Error('aborted'));
      expect(user.names()).to.deep.equal(Array(5).fill('onPartialResponse'));
      expect(s.safe.state).to.equal('cancelled');
      expect(s.controller.signal.aborted).to.equal(true);
      expect(s.bridge.partialResponse()).to.deep.equal(expectedResponse([textPart('t1 t2 t3 t4 t5 ')], responseMetadata()));
    });

    it('stops even for callbacks the driver still delivers in the same event after the cancel', () => {
      const user = new RecordingHandler({ onPartialThinking: (_p, context) => context.streamingHandle.cancel() });
      const s = buildChain(user);
      s.event({ both: true }, (h) => {
        h.onPartialThinking({ text: 'T' }, s.context);
        h.onPartialResponse(partialResponse('A'), s.context);
      });
      expect(user.names()).to.deep.equal(['onPartialThinking']);
      expect(s.bridge.partialResponse().aiMessage.parts).to.deep.equal([reasoningPart('T')]);
    });

    it('treats cancel() twice as harmless', () => {
      const user = new RecordingHandler();
      const s = buildChain(user);
      s.text('a');
      s.controller.cancel();
      s.controller.cancel();
      s.text('b');
      s.complete(metadata);
      expect([user.names(), s.safe.state, s.bridge.partialResponse().aiMessage.text]).to.deep.equal([['onPartialResponse'], 'cancelled', 'a']);
    });

    it('delivers nothing when the AbortSignal was aborted before the first token', () => {
      const user = new RecordingHandler();
      const s = buildChain(user, AbortSignal.abort());
      s.text('a');
      s.complete(metadata);
      expect([user.names(), s.safe.state, s.bridge.partialResponse().aiMessage.parts]).to.deep.equal([[], 'cancelled', []]);
    });
  });
});
