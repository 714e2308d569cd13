import { expect } from 'chai';
import { aiMessage } from '../../lib/handler/values';
import { textPart, toolCallPart } from '../../lib/parts/factories';
import type { ChatMessage } from '../../lib/replay/chat-message';
import { systemMessage, toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';

// Messages built by hand (or read from a store) reach the converters without their factories'
// checks: every converter refuses a malformed one with a TypeError naming the message index and
// the field, before it reads anything (SPEC §3, §12).

const CONVERTERS: ReadonlyArray<readonly [string, (messages: readonly ChatMessage[]) => unknown]> = [
  ['toOpenAIChatMessages', toOpenAIChatMessages],
  ['toOpenAIResponsesInput', toOpenAIResponsesInput],
  ['toAnthropicMessages', toAnthropicMessages],
  ['toGeminiContents', toGeminiContents],
  ['toOllamaMessages', toOllamaMessages],
];

const text = (value: unknown) => ({ type: 'text', text: value, payload: null, attributes: {} });
const ai = (parts: unknown, attributes: unknown = {}) => ({ type: 'ai', parts, attributes });
const request = { id: 'c1', name: 'f', arguments: '{}' };
const result = (fields: Record<string, unknown>) => ({ type: 'tool_execution_result', request, content: 'ok', isError: false, ...fields });

// [what is wrong, the conversation (valid messages before the bad one), the message after "Expected <converter> "].
const CASES: ReadonlyArray<readonly [string, readonly unknown[], string]> = [
  ['a message that is null', [null], 'messages[0] to be a chat message, got null'],
  ['an unknown message type', [systemMessage('s'), { type: 'assistant', content: 'x' }], "messages[1].type to be 'system', 'user', 'ai' or 'tool_execution_result', got string \"assistant\""],
  ['a system text that is no string', [{ type: 'system', text: 5 }], 'messages[0].text to be a string, got number 5'],
  ['user content that is neither a string nor parts', [{ type: 'user', content: { text: 'q' } }], 'messages[0].content to be a string or an array of parts, got an object'],
  ['a user part that is null', [{ type: 'user', content: [null] }], 'messages[0].content[0] to be a message part, got null'],
  [
    'a user part of a type a user turn cannot hold',
    [{ type: 'user', content: [toolCallPart({ id: 'c', name: 'f', arguments: '{}' })] }],
    'messages[0].content[0] to be a text or media part, got a tool_call part',
  ],
  [
    'user media with an unknown data kind',
    [{ type: 'user', content: [{ type: 'media', media: { id: null, mimeType: 'image/png', name: null, dataKind: 'file', data: 'x' }, payload: null, attributes: {} }] }],
    "messages[0].content[0].media.dataKind to be 'bytes', 'string' or 'url', got string \"file\"",
  ],
  [
    'user media bytes that are no Uint8Array',
    [{ type: 'user', content: [{ type: 'media', media: { id: null, mimeType: 'image/png', name: null, dataKind: 'bytes', data: [1, 2] }, payload: null, attributes: {} }] }],
    'messages[0].content[0].media.data to be a Uint8Array, got an array',
  ],
  ['an ai message without attributes', [userMessage('q'), { type: 'ai', parts: [] }], 'messages[1].attributes to be an object of strings, got undefined'],
  ['an ai message attribute that is no string', [ai([], { refusal: 1 })], 'messages[0].attributes.refusal to be a string, got number 1'],
  ['ai message parts that are no array', [userMessage('q'), ai('hello')], 'messages[1].parts to be an array of parts, got string "hello"'],
  ['an ai message part that is null', [userMessage('q'), userMessage('r'), ai([textPart('a'), null])], 'messages[2].parts[1] to be a message part, got null'],
  [
    'a part of an unknown type',
    [ai([{ type: 'image', payload: null, attributes: {} }])],
    'messages[0].parts[0].type to be one of text, reasoning, tool_call, tool_result, media, unknown, got string "image"',
  ],
  ['a part without attributes', [ai([{ type: 'text', text: 'a', payload: null }])], 'messages[0].parts[0].attributes to be an object of strings, got undefined'],
  ['a part attribute that is no string', [ai([{ ...text('a'), attributes: { incomplete: true } }])], 'messages[0].parts[0].attributes.incomplete to be a string, got boolean true'],
  ['a part without a payload field', [ai([{ type: 'text', text: 'a', attributes: {} }])], 'messages[0].parts[0].payload to be {provider, kind, data} or null, got undefined'],
  ['a payload that is no object', [ai([{ ...text('a'), payload: 'sig' }])], 'messages[0].parts[0].payload to be {provider, kind, data} or null, got string "sig"'],
  [
    'a payload whose data is no string',
    [ai([{ ...text('a'), payload: { provider: 'google', kind: 'thought_signature', data: 7 } }])],
    'messages[0].parts[0].payload.data to be a string, got number 7',
  ],
  ['a text part whose text is no string', [ai([text(5)])], 'messages[0].parts[0].text to be a string, got number 5'],
  ['a reasoning summary that is no string', [ai([{ type: 'reasoning', text: 'r', summary: 5, payload: null, attributes: {} }])], 'messages[0].parts[0].summary to be a string or null, got number 5'],
  [
    'a tool-call part without its call',
    [ai([{ type: 'tool_call', toolCall: null, payload: null, attributes: {} }])],
    'messages[0].parts[0].toolCall to be an object {id, type, name, arguments}, got null',
  ],
  [
    'tool-call arguments that are an object',
    [ai([{ type: 'tool_call', toolCall: { id: 'c', type: 'function', name: 'f', arguments: { a: 1 } }, payload: null, attributes: {} }])],
    'messages[0].parts[0].toolCall.arguments to be a string or null, got an object',
  ],
  [
    'an unknown part whose rawJson is no string',
    [ai([{ type: 'unknown', provider: 'openai', kind: 'x', rawJson: {}, payload: null, attributes: {} }])],
    'messages[0].parts[0].rawJson to be a string, got an object',
  ],
  ['a tool result without its request', [result({ request: undefined })], 'messages[0].request to be a tool execution request {id, name, arguments}, got undefined'],
  ['a tool result whose request name is no string', [result({ request: { id: 'c1', name: 3, arguments: '{}' } })], 'messages[0].request.name to be a string, got number 3'],
  ['a tool result whose content holds null', [userMessage('q'), result({ content: [textPart('ok'), null] })], 'messages[1].content[1] to be a message part, got null'],
  ['a tool result without isError', [result({ isError: undefined })], 'messages[0].isError to be a boolean, got undefined'],
];

describe('replay converters refuse hand-made messages that break their types', () => {
  for (const [name, convert] of CONVERTERS) {
    describe(name, () => {
      for (const [what, messages, message] of CASES) {
        it(`${what}: a TypeError naming the message and the field`, () => {
          expect(() => convert(messages as ChatMessage[])).to.throw(TypeError, `Expected ${name} ${message}`);
        });
      }

      it('still takes the messages the factories make', () => {
        const messages: ChatMessage[] = [
          systemMessage('s'),
          userMessage([textPart('q')]),
          aiMessage([textPart('a'), toolCallPart({ id: 'c1', type: 'function', name: 'f', arguments: '{}' })]),
          toolExecutionResultMessage(request, [textPart('ok')]),
        ];
        expect(() => convert(messages)).to.not.throw();
      });
    });
  }
});
