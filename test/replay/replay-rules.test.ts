import { expect } from 'chai';
import type { AiMessage } from '../../lib/handler/types';
import { aiMessage, toolExecutionRequest } from '../../lib/handler/values';
import { INCOMPLETE_ATTRIBUTES } from '../../lib/parts/incomplete-tool-call';
import { mediaPart, reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import type { ChatMessage } from '../../lib/replay/chat-message';
import { toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';

// One assistant turn holding every provider's payloads and unknown parts, each marked so that a
// leak into another provider's request is found by a text search of the request.
const PAYLOADS = {
  anthropic: 'LEAK-ANTHROPIC-SIG',
  anthropicRedacted: 'LEAK-ANTHROPIC-REDACTED',
  openai: 'LEAK-OPENAI-ENC',
  google: 'LEAK-GOOGLE-SIG',
  openrouter: 'LEAK-OPENROUTER',
};
const UNKNOWN = { anthropic: 'LEAK-ANTHROPIC-UNKNOWN', openai: 'LEAK-OPENAI-UNKNOWN', google: 'LEAK-GOOGLE-UNKNOWN' };

function mixedTurn(): AiMessage {
  return aiMessage([
    reasoningPart('a-think', { payload: { provider: 'anthropic', kind: 'signature', data: PAYLOADS.anthropic } }),
    reasoningPart('', { payload: { provider: 'anthropic', kind: 'redacted_thinking', data: PAYLOADS.anthropicRedacted } }),
    reasoningPart('o-think', { payload: { provider: 'openai', kind: 'encrypted_content', data: PAYLOADS.openai }, attributes: { itemId: 'rs_1' } }),
    reasoningPart('g-think', { payload: { provider: 'google', kind: 'thought_signature', data: PAYLOADS.google } }),
    reasoningPart('', { payload: { provider: 'openrouter', kind: 'reasoning_details', data: JSON.stringify({ type: 'reasoning.encrypted', data: PAYLOADS.openrouter }) } }),
    unknownPart('anthropic', 'server_tool_use', JSON.stringify({ type: 'server_tool_use', id: UNKNOWN.anthropic })),
    unknownPart('openai', 'web_search_call', JSON.stringify({ type: 'web_search_call', id: UNKNOWN.openai })),
    unknownPart('google', 'executableCode', JSON.stringify({ executableCode: { code: UNKNOWN.google } })),
    textPart('answer', { payload: { provider: 'google', kind: 'thought_signature', data: PAYLOADS.google } }),
    toolCallPart({ id: 'c1', type: 'function', name: 'f', arguments: '{"x":1}' }),
  ]);
}

const CONVERTERS: ReadonlyArray<[string, (m: readonly ChatMessage[]) => unknown, readonly string[]]> = [
  ['toAnthropicMessages', toAnthropicMessages, [PAYLOADS.anthropic, PAYLOADS.anthropicRedacted, UNKNOWN.anthropic]],
  ['toOpenAIResponsesInput', toOpenAIResponsesInput, [PAYLOADS.openai, UNKNOWN.openai]],
  ['toGeminiContents', toGeminiContents, [PAYLOADS.google, UNKNOWN.google]],
  ['toOpenAIChatMessages', toOpenAIChatMessages, [PAYLOADS.openrouter]],
  ['toOllamaMessages', toOllamaMessages, []],
];
const ALL = [...Object.values(PAYLOADS), ...Object.values(UNKNOWN)];

describe('replay across providers', () => {
  for (const [name, convert, own] of CONVERTERS) {
    it(`${name} sends its own payloads and unknown parts and no other provider's`, () => {
      const request = JSON.stringify(convert([userMessage('q'), mixedTurn()]));
      for (const marker of own) expect(request, marker).to.contain(marker);
      for (const marker of ALL.filter((m) => !own.includes(m))) expect(request, marker).to.not.contain(marker);
    });
  }

  it('recognises a payload by its provider and kind together, not by the kind alone', () => {
    const kinds = ['signature', 'redacted_thinking', 'citations', 'encrypted_content', 'annotations', 'thought_signature', 'reasoning_details'];
    const parts = kinds.flatMap((kind) => [
      reasoningPart('r', { payload: { provider: 'other', kind, data: 'LEAK-OTHER' }, attributes: { itemId: 'rs_x' } }),
      textPart('t', { payload: { provider: 'other', kind, data: '"LEAK-OTHER"' } }),
    ]);
    for (const [name, convert] of CONVERTERS) {
      expect(JSON.stringify(convert([aiMessage(parts)])), name).to.not.contain('LEAK-OTHER');
    }
  });

  it('Anthropic and Gemini skip an assistant turn left with nothing to send (their APIs reject empty content)', () => {
    const foreign = aiMessage([reasoningPart('o', { payload: { provider: 'openai', kind: 'encrypted_content', data: 'e' } })]);
    expect(toAnthropicMessages([userMessage('a'), foreign, userMessage('b')]).messages).to.deep.equal([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
    expect(toGeminiContents([userMessage('a'), foreign]).contents).to.deep.equal([{ role: 'user', parts: [{ text: 'a' }] }]);
  });

  it('Gemini leaves out reasoning without a Gemini payload (DeepSeek, Ollama thinking), and a turn left empty by it', () => {
    const signed = reasoningPart('g', { payload: { provider: 'google', kind: 'thought_signature', data: 'sig' } });
    const { contents } = toGeminiContents([userMessage('a'), aiMessage([reasoningPart('plain'), signed, reasoningPart(null, { summary: 'sum' }), textPart('t')])]);
    expect(contents).to.deep.equal([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'model', parts: [{ text: 'g', thought: true, thoughtSignature: 'sig' }, { text: 't' }] },
    ]);
    expect(toGeminiContents([userMessage('a'), aiMessage([reasoningPart('only thinking')])]).contents).to.deep.equal([{ role: 'user', parts: [{ text: 'a' }] }]);
  });

  it('Anthropic leaves out reasoning without an Anthropic signature (the API would reject it)', () => {
    const { messages } = toAnthropicMessages([aiMessage([reasoningPart('plain'), reasoningPart('o', { payload: { provider: 'openai', kind: 'encrypted_content', data: 'e' } }), textPart('t')])]);
    expect(messages).to.deep.equal([{ role: 'assistant', content: [{ type: 'text', text: 't' }] }]);
  });
});

describe('replay rules every converter keeps', () => {
  const incomplete = aiMessage([textPart('t'), toolCallPart({ id: 'c9', type: 'function', name: 'g', arguments: '{"a":' }, { attributes: INCOMPLETE_ATTRIBUTES })]);
  const badArgs = (args: string): AiMessage => aiMessage([toolCallPart({ id: 'call_7', type: 'function', name: 'lookup', arguments: args })]);

  for (const [name, convert] of CONVERTERS) {
    it(`${name} leaves out a tool call marked incomplete`, () => {
      const request = JSON.stringify(convert([incomplete]));
      expect(request).to.not.contain('c9');
      expect(request).to.not.contain('"g"');
    });
  }

  for (const [name, convert] of [
    ['toAnthropicMessages', toAnthropicMessages],
    ['toGeminiContents', toGeminiContents],
    ['toOllamaMessages', toOllamaMessages],
  ] as const) {
    it(`${name} throws a TypeError naming the call when the arguments are not a JSON object`, () => {
      for (const args of ['[1,2]', '"s"', '{"a":', 'nope']) {
        expect(() => convert([badArgs(args)]), args).to.throw(TypeError, /tool call "lookup" \(id "call_7"\).*JSON object/);
      }
    });
  }

  it('parses empty arguments to {} where an object is wanted', () => {
    const { messages } = toAnthropicMessages([badArgs('')]);
    expect(messages).to.deep.equal([{ role: 'assistant', content: [{ type: 'tool_use', id: 'call_7', name: 'lookup', input: {} }] }]);
  });

  it('keeps a __proto__ key of the arguments as a plain own key', () => {
    const { contents } = toGeminiContents([badArgs('{"__proto__":{"polluted":1}}')]);
    const args = (contents[0]!.parts[0]!.functionCall as { args: Record<string, unknown> }).args;
    expect(Object.getPrototypeOf(args)).to.equal(Object.prototype);
    expect(Object.keys(args)).to.deep.equal(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("sends user media in each provider's shape", () => {
    const png = mediaPart({ id: null, mimeType: 'image/png', name: null, dataKind: 'bytes', data: new Uint8Array([1, 2, 3]) });
    const messages = [userMessage([textPart('see'), png])];
    expect(toAnthropicMessages(messages).messages[0]!.content).to.deep.equal([
      { type: 'text', text: 'see' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID' } },
    ]);
    expect(toOpenAIChatMessages(messages).messages[0]!.content).to.deep.equal([
      { type: 'text', text: 'see' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
    ]);
    expect((toOpenAIResponsesInput(messages).input[0] as { content: unknown }).content).to.deep.equal([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image_url: 'data:image/png;base64,AQID', detail: 'auto' },
    ]);
    expect(toGeminiContents(messages).contents[0]!.parts).to.deep.equal([{ text: 'see' }, { inlineData: { mimeType: 'image/png', data: 'AQID' } }]);
    expect(toOllamaMessages(messages).messages[0]).to.deep.equal({ role: 'user', content: 'see', images: ['AQID'] });
  });

  it('rejects a value that is not a message list with a TypeError naming the function', () => {
    for (const [name, convert] of CONVERTERS) {
      expect(() => convert({} as never), name).to.throw(TypeError, new RegExp(name));
      expect(() => convert([{ type: 'bot' }] as never), name).to.throw(TypeError, /messages\[0\]\.type/);
    }
  });

  it('a tool result with an error marks it where the provider has a way to', () => {
    const request = toolExecutionRequest({ id: 'c1', name: 'f', arguments: '{}' });
    const failed = toolExecutionResultMessage(request, 'boom', { isError: true });
    expect(toGeminiContents([failed]).contents).to.deep.equal([{ role: 'user', parts: [{ functionResponse: { name: 'f', id: 'c1', response: { error: 'boom' } } }] }]);
    expect(toOpenAIChatMessages([failed]).messages).to.deep.equal([{ role: 'tool', tool_call_id: 'c1', content: 'boom' }]);
  });
});
