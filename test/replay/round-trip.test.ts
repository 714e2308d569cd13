import { expect } from 'chai';
import type { AiMessage } from '../../lib/handler/types';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import { fixtureEntries, readFixture } from '../providers/shared/fixture-support';
import { OWN_TRANSCRIPTS } from '../support/own-transcripts';
import { recordedSkipNote } from '../support/recorded-fixtures';
import { requestTurn, wireTurn } from './provider-turns';
import { noteSkipped } from '../support/skips';

type Json = Record<string, unknown>;

// Final message → request → assistant turn: for every recorded fixture and every transcript of
// our own, the replayed turn is the provider's own representation of what was streamed (read
// from the wire by provider-turns.ts): the same blocks or items in the same order, payloads byte
// for byte, arguments as the same JSON value.

async function finalOf(format: WireFormat, bytes: Uint8Array): Promise<AiMessage | null> {
  async function* source(): AsyncIterable<Uint8Array> {
    yield bytes;
  }
  const outcome = await consumeStream(source(), { onCompleteResponse() {}, onError() {} }, { format });
  return outcome.status === 'completed' ? outcome.response.aiMessage : null;
}

/** The assistant turn of the request that replays `ai` after one user message. */
function replayedTurn(format: WireFormat, ai: AiMessage): Json[] {
  const history = [userMessage('q'), ai];
  switch (format) {
    case 'anthropic':
      return (toAnthropicMessages(history).messages[1]?.content ?? []) as unknown as Json[];
    case 'openai-responses':
      return toOpenAIResponsesInput(history).input.slice(1) as unknown as Json[];
    case 'gemini':
      return (toGeminiContents(history).contents[1]?.parts ?? []) as unknown as Json[];
    case 'openai-chat':
      return [toOpenAIChatMessages(history).messages[1] as unknown as Json];
    case 'ollama':
      return [toOllamaMessages(history).messages[1] as unknown as Json];
  }
}

const FORMATS: readonly WireFormat[] = ['anthropic', 'openai-responses', 'gemini', 'openai-chat', 'ollama'];

describe(`round trip of the recorded streams${recordedSkipNote('round trip of the recorded streams')}`, () => {
  for (const format of FORMATS) {
    for (const entry of fixtureEntries(format)) {
      it(`${entry.file}: the replayed turn is the streamed turn as the provider represents it`, async function () {
        const bytes = readFixture(entry.file);
        const ai = await finalOf(format, bytes);
        if (ai === null) {
          noteSkipped('a recorded stream that failed has no final message to send back', `round trip of ${entry.file}`);
          this.skip();
        }
        const stated = entry.expected.toolCalls.map((c) => c.arguments);
        expect(requestTurn(format, replayedTurn(format, ai!))).to.deep.equal(wireTurn(format, bytes, stated));
      });
    }
  }
});

describe('round trip of our own transcripts', () => {
  for (const transcript of OWN_TRANSCRIPTS) {
    if (transcript.expected.status !== 'completed') continue;
    it(`${transcript.file}: the replayed turn is the streamed turn as the provider represents it`, async () => {
      const ai = await finalOf(transcript.format, transcript.bytes);
      expect(ai, 'a completed stream').to.not.equal(null);
      const stated = transcript.expected.toolCalls.map((c) => c.arguments);
      expect(requestTurn(transcript.format, replayedTurn(transcript.format, ai!))).to.deep.equal(wireTurn(transcript.format, transcript.bytes, stated));
    });
  }
});
