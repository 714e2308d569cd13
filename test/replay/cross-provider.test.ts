import { expect } from 'chai';
import type { AiMessage } from '../../lib/handler/types';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import type { ChatMessage } from '../../lib/replay/chat-message';
import { toolExecutionResultMessage, userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import { ownTranscripts } from '../support/own-transcripts';
import { finalMessage, sse } from './replay-support';

// A conversation started on one provider (its rich transcript: reasoning with payloads, parallel
// tool calls, blocks no callback models) and continued on another: the request to the second
// provider carries the text and the tool calls and results, and none of the first provider's
// payloads or blocks. One test per ordered pair of the five formats.

// OpenRouter's reasoning_details are the one payload of the Chat format; our Chat transcript has none.
const OPENROUTER_DETAIL = 'b3BlbnJvdXRlci1yZWFzb25pbmc=';
const openRouterTurn = sse(
  [
    {
      id: 'g1',
      object: 'chat.completion.chunk',
      model: 'm',
      choices: [{ index: 0, delta: { role: 'assistant', content: '', reasoning_details: [{ type: 'reasoning.encrypted', data: OPENROUTER_DETAIL, index: 0 }] } }],
    },
    {
      id: 'g1',
      object: 'chat.completion.chunk',
      model: 'm',
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_or', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] } }],
    },
    { id: 'g1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ],
  true,
);

/** What a provider's turn carries that no other provider may be sent: payloads, and its own block and item types. */
const FOREIGN: Readonly<Record<WireFormat, readonly string[]>> = {
  anthropic: ['c2lnbmF0dXJlLW9uZQ==', 'cmVkYWN0ZWQtb25l', 'server_tool_use', 'web_search_tool_result'],
  'openai-responses': ['ZW5jcnlwdGVkLW9uZQ==', 'web_search_call'],
  gemini: ['Z2VtLXNpZy1vbmU=', 'Z2VtLXNpZy10d28=', 'Z2VtLXNpZy10aHJlZQ==', 'executableCode'],
  'openai-chat': [OPENROUTER_DETAIL, 'reasoning.encrypted'],
  ollama: [],
};

const CONVERT: Readonly<Record<WireFormat, (messages: readonly ChatMessage[]) => unknown>> = {
  anthropic: toAnthropicMessages,
  'openai-responses': toOpenAIResponsesInput,
  gemini: toGeminiContents,
  'openai-chat': toOpenAIChatMessages,
  ollama: toOllamaMessages,
};

const FORMATS: readonly WireFormat[] = ['anthropic', 'openai-responses', 'gemini', 'openai-chat', 'ollama'];

async function firstTurns(format: WireFormat): Promise<AiMessage[]> {
  const rich = ownTranscripts(format).find((t) => t.expected.status === 'completed' && !t.file.includes('/small.'))!;
  const turns = [await finalMessage(format, new TextDecoder().decode(rich.bytes))];
  if (format === 'openai-chat') turns.push(await finalMessage(format, openRouterTurn));
  return turns;
}

describe("a conversation continued on another provider sends none of the first provider's payloads", () => {
  for (const from of FORMATS) {
    for (const to of FORMATS) {
      if (from === to) continue;
      it(`${from} → ${to}`, async () => {
        const history: ChatMessage[] = [userMessage('start')];
        const callNames: string[] = [];
        for (const ai of await firstTurns(from)) {
          history.push(ai);
          for (const request of ai.toolExecutionRequests) {
            history.push(toolExecutionResultMessage(request, `result of ${request.name}`));
            callNames.push(request.name);
          }
        }
        history.push(userMessage('continue'));
        const request = JSON.stringify(CONVERT[to](history));
        for (const marker of FOREIGN[from]) expect(request, marker).to.not.contain(marker);
        // The conversation itself goes on: each call and its result are there.
        expect(callNames.length, 'the first provider made tool calls').to.be.greaterThan(0);
        for (const name of callNames) {
          expect(request, name).to.contain(JSON.stringify(name));
          expect(request, `result of ${name}`).to.contain(`result of ${name}`);
        }
      });
    }
  }
});
