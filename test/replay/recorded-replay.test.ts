import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AiMessage } from '../../lib/handler/types';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { WireFormat } from '../../lib/providers/registry';
import { userMessage } from '../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../lib/providers/anthropic/to-anthropic-messages';
import { toGeminiContents } from '../../lib/providers/gemini/to-gemini-contents';
import { toOllamaMessages } from '../../lib/providers/ollama/to-ollama-messages';
import { toOpenAIChatMessages } from '../../lib/providers/openai-chat/to-openai-chat-messages';
import { toOpenAIResponsesInput } from '../../lib/providers/openai-responses/to-openai-responses-input';
import type { FixtureEntry } from '../providers/shared/fixture-support';
import { FIXTURES_DIR, fixtureEntries } from '../providers/shared/fixture-support';
import { recordedSkipNote } from '../support/recorded-fixtures';

type Json = Record<string, unknown>;

// What the replayed assistant turn holds, read back in a provider-neutral form: the opaque
// reasoning values in order, and each tool call as (id, name, arguments as a JSON value or text).
interface Replayed {
  readonly signatures: string[];
  readonly calls: Array<{ id: string | null; name: string; args: unknown }>;
}

const parseArgs = (text: string): unknown => (text.trim() === '' ? {} : JSON.parse(text));

function replay(format: WireFormat, ai: AiMessage): Replayed {
  const signatures: string[] = [];
  const calls: Replayed['calls'] = [];
  switch (format) {
    case 'anthropic':
      for (const b of (toAnthropicMessages([userMessage('q'), ai]).messages[1]?.content ?? []) as Json[]) {
        if (b.type === 'thinking') signatures.push(b.signature as string);
        if (b.type === 'tool_use') calls.push({ id: b.id as string, name: b.name as string, args: b.input });
      }
      break;
    case 'gemini':
      for (const p of toGeminiContents([userMessage('q'), ai]).contents[1]?.parts ?? []) {
        if (typeof p.thoughtSignature === 'string') signatures.push(p.thoughtSignature);
        const call = p.functionCall as Json | undefined;
        if (call !== undefined) calls.push({ id: (call.id as string | undefined) ?? null, name: call.name as string, args: call.args });
      }
      break;
    case 'openai-responses':
      for (const item of toOpenAIResponsesInput([userMessage('q'), ai]).input.slice(1)) {
        if (item.type === 'reasoning' && typeof item.encrypted_content === 'string') signatures.push(item.encrypted_content);
        if (item.type === 'function_call') calls.push({ id: item.call_id as string, name: item.name as string, args: item.arguments });
        if (item.type === 'custom_tool_call') calls.push({ id: item.call_id as string, name: item.name as string, args: item.input });
      }
      break;
    case 'openai-chat': {
      const msg = toOpenAIChatMessages([userMessage('q'), ai]).messages[1] as Json;
      for (const c of (msg.tool_calls as Json[] | undefined) ?? []) {
        const fn = c.function as Json;
        calls.push({ id: c.id as string, name: fn.name as string, args: fn.arguments });
      }
      break;
    }
    case 'ollama': {
      const msg = toOllamaMessages([userMessage('q'), ai]).messages[1]!;
      for (const c of (msg.tool_calls as Json[] | undefined) ?? []) {
        const fn = c.function as Json;
        calls.push({ id: null, name: fn.name as string, args: fn.arguments });
      }
      break;
    }
  }
  return { signatures, calls };
}

// Chat and Responses take the arguments string as sent (compared byte for byte); the others an
// object (compared as the JSON value the recorded text denotes).
function expectedCalls(format: WireFormat, entry: FixtureEntry): Replayed['calls'] {
  const asText = format === 'openai-chat' || format === 'openai-responses';
  return entry.expected.toolCalls.filter((c) => c.blockNotStopped !== true).map((c) => ({ id: format === 'ollama' ? null : c.id, name: c.name, args: asText ? c.arguments : parseArgs(c.arguments) }));
}

// SPEC §10 takes a Responses reasoning item's encrypted content from its output_item.done (the
// manifest records response.completed's, which a recording may hold re-encrypted): read those
// straight from the recorded events.
function encryptedAtItemDone(wire: string): string[] {
  const out: string[] = [];
  for (const line of wire.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6)) as { type?: string; item?: { type?: string; encrypted_content?: string } };
    if (event.type === 'response.output_item.done' && event.item?.type === 'reasoning' && typeof event.item.encrypted_content === 'string') {
      out.push(event.item.encrypted_content);
    }
  }
  return out;
}

const FORMATS: readonly WireFormat[] = ['anthropic', 'gemini', 'openai-responses', 'openai-chat', 'ollama'];

describe(`replay of the recorded streams${recordedSkipNote('replay of the recorded streams')}`, () => {
  for (const format of FORMATS) {
    for (const entry of fixtureEntries(format)) {
      if (entry.expected.terminal === null || entry.expected.terminal === 'response.failed') continue;
      it(`${entry.file}: the replayed turn carries the recorded signatures byte for byte and the tool calls as the same JSON values`, async () => {
        const bytes = fs.readFileSync(path.join(FIXTURES_DIR, entry.file));
        async function* source(): AsyncIterable<Uint8Array> {
          yield bytes;
        }
        const outcome = await consumeStream(source(), { onCompleteResponse() {}, onError() {} }, { format });
        const ai = outcome.status === 'completed' ? outcome.response.aiMessage : outcome.partial.aiMessage;
        const replayed = replay(format, ai);
        const signatures = format === 'openai-responses' ? encryptedAtItemDone(bytes.toString('utf8')) : [...entry.expected.reasoningSignatures];
        expect(replayed).to.deep.equal({ signatures, calls: expectedCalls(format, entry) });
      });
    }
  }
});
