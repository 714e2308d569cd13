import { expect } from 'chai';
import { JsonView } from '../../lib/cli/json-view';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata, tokenUsage } from '../../lib/handler/values';
import { mediaPart, reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';

describe('JsonView', () => {
  it('writes one JSON object per callback, in order, each on its own line, with the fields SPEC §9 names', () => {
    const out: string[] = [];
    const view = new JsonView((text) => out.push(text));
    const signature = { provider: 'anthropic', kind: 'signature', data: 'sig' };
    view.onPartialThinking(partialThinking('Hmm'));
    view.onPartialThinking(partialThinking('', signature));
    view.onPartialResponse(partialResponse('Hi'));
    view.onPartialToolCall(partialToolCall(0, 'call_1', 'f', '{"a"'));
    view.onCompleteToolCall(completeToolCall(0, { id: 'call_1', name: 'f', arguments: '{"a":1}' }));
    view.onUnmappedRawEvent({ event: 'ping', data: '{"type":"ping"}' });
    view.onError(new Error('boom\nsecond line'));

    expect(out.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).to.equal(true);
    expect(out.map((line) => JSON.parse(line))).to.deep.equal([
      { event: 'partialThinking', text: 'Hmm' },
      { event: 'partialThinking', text: '' },
      { event: 'partialResponse', text: 'Hi' },
      { event: 'partialToolCall', index: 0, id: 'call_1', name: 'f', partialArguments: '{"a"' },
      { event: 'completeToolCall', index: 0, id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { event: 'unmappedRawEvent', raw: { event: 'ping', data: '{"type":"ping"}' } },
      { event: 'error', message: 'boom\nsecond line' },
    ]);
  });

  it('writes the final response with its parts in JSON form (media bytes as base64)', () => {
    const out: string[] = [];
    const view = new JsonView((text) => out.push(text));
    const parts = [
      reasoningPart('Think', { payload: { provider: 'anthropic', kind: 'signature', data: 'sig' } }),
      textPart('Hello'),
      toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{}' }),
      mediaPart({ id: null, mimeType: 'image/png', name: null, dataKind: 'bytes', data: new Uint8Array([1, 2, 3]) }),
    ];
    const metadata = responseMetadata({ id: 'msg_1', modelName: 'm', tokenUsage: tokenUsage(3, 4), finishReason: 'TOOL_EXECUTION' });
    view.onCompleteResponse(chatResponse(aiMessage(parts, { refusal: 'no' }), metadata));

    expect(out.map((line) => JSON.parse(line))).to.deep.equal([
      {
        event: 'completeResponse',
        response: {
          aiMessage: {
            parts: [
              { type: 'reasoning', text: 'Think', summary: null, payload: { provider: 'anthropic', kind: 'signature', data: 'sig' }, attributes: {} },
              { type: 'text', text: 'Hello', payload: null, attributes: {} },
              { type: 'tool_call', toolCall: { id: 'call_1', type: 'function', name: 'f', arguments: '{}' }, payload: null, attributes: {} },
              { type: 'media', media: { id: null, mimeType: 'image/png', name: null, dataKind: 'bytes', data: 'AQID' }, payload: null, attributes: {} },
            ],
            text: 'Hello',
            thinking: 'Think',
            toolExecutionRequests: [{ id: 'call_1', name: 'f', arguments: '{}' }],
            attributes: { refusal: 'no' },
          },
          metadata: {
            id: 'msg_1',
            modelName: 'm',
            tokenUsage: {
              inputTokenCount: 3,
              outputTokenCount: 4,
              totalTokenCount: 7,
              cacheReadInputTokenCount: null,
              cacheWriteInputTokenCount: null,
              reasoningTokenCount: null,
            },
            finishReason: 'TOOL_EXECUTION',
            providerFinishReason: null,
            providerUsage: null,
            providerMetadata: null,
          },
        },
      },
    ]);
  });
});
