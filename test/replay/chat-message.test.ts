import { expect } from 'chai';
import { aiMessage, toolExecutionRequest } from '../../lib/handler/values';
import { mediaPart, reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import { messagesFromJSON, messagesToJSON, systemMessage, toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';

describe('chat messages', () => {
  it('are frozen and discriminated on type', () => {
    const request = toolExecutionRequest({ id: 'c1', name: 'f', arguments: '' });
    const messages = [systemMessage('S'), userMessage([textPart('hi')]), aiMessage([textPart('yo')]), toolExecutionResultMessage(request, 'r')];
    expect(messages.map((m) => m.type)).to.deep.equal(['system', 'user', 'ai', 'tool_execution_result']);
    for (const m of messages) expect(Object.isFrozen(m), m.type).to.equal(true);
    expect(Object.isFrozen((messages[1] as { content: unknown }).content)).to.equal(true);
    expect(toolExecutionResultMessage(request, 'r')).to.deep.equal({ type: 'tool_execution_result', request: { id: 'c1', name: 'f', arguments: '{}' }, content: 'r', isError: false });
  });

  it('reject wrong fields with a TypeError naming the field', () => {
    expect(() => systemMessage(1 as unknown as string)).to.throw(TypeError, /systemMessage text/);
    expect(() => userMessage(5 as unknown as string)).to.throw(TypeError, /userMessage content/);
    expect(() => userMessage([reasoningPart('x')] as never)).to.throw(TypeError, /userMessage content\[0\].*text or media.*reasoning/);
    expect(() => userMessage([{ type: 'text' }] as never)).to.throw(TypeError, /userMessage content\[0\]/);
    const request = toolExecutionRequest({ id: 'c1', name: 'f', arguments: '{}' });
    expect(() => toolExecutionResultMessage(request, 3 as unknown as string)).to.throw(TypeError, /toolExecutionResultMessage result/);
    expect(() => toolExecutionResultMessage(request, 'r', { isError: 'yes' as unknown as boolean })).to.throw(TypeError, /options\.isError/);
    expect(() => toolExecutionResultMessage({ id: 'c1' } as never, 'r')).to.throw(TypeError, /tool execution request/);
  });

  it('round-trip through JSON text to equal messages', () => {
    const bytes = new Uint8Array([0, 255, 1, 2, 0x7f]);
    const messages = [
      systemMessage('Be brief.'),
      userMessage([textPart('Look:'), mediaPart({ id: null, mimeType: 'image/png', name: 'a.png', dataKind: 'bytes', data: bytes })]),
      aiMessage(
        [
          reasoningPart('hmm', { payload: { provider: 'anthropic', kind: 'signature', data: 'sig+/=' } }),
          textPart('ok', { attributes: { itemId: 'msg_1' } }),
          toolCallPart({ id: 'c1', type: 'function', name: 'f', arguments: '{"a":1}' }),
          unknownPart('anthropic', 'server_tool_use', '{"type":"server_tool_use","id":"s"}'),
        ],
        { refusal: 'r' },
      ),
      toolExecutionResultMessage(toolExecutionRequest({ id: 'c1', name: 'f', arguments: '{"a":1}' }), [textPart('done')], { isError: true }),
      userMessage('thanks'),
    ];
    const back = messagesFromJSON(JSON.parse(JSON.stringify(messagesToJSON(messages))));
    expect(back).to.deep.equal(messages);
    expect(back.every((m) => Object.isFrozen(m))).to.equal(true);
  });

  it('reads a message of an unknown type or a non-array as a TypeError naming it', () => {
    expect(() => messagesFromJSON({})).to.throw(TypeError, /array/);
    expect(() => messagesFromJSON([{ type: 'assistant' }])).to.throw(TypeError, /messages\[0\]\.type/);
    expect(() => messagesFromJSON([{ type: 'system', text: 1 }])).to.throw(TypeError, /messages\[0\]\.text/);
    expect(() => messagesFromJSON([{ type: 'ai', parts: 'x' }])).to.throw(TypeError, /messages\[0\]\.parts/);
  });
});
