import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { WireFormat } from '../../lib/providers/registry';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatStreamEvent } from '../../lib/stream/chat-stream-events';
import { CHAT_STREAM_EVENT_NAMES } from '../../lib/stream/chat-stream-events';
import { OWN_TRANSCRIPTS } from '../support/own-transcripts';
import { FIXTURES_DIR, FIXTURES_MANIFEST, recordedFixturesPresent, recordedSkipNote } from '../support/recorded-fixtures';

/** What a stream must aggregate to. */
interface Expected {
  readonly text: string | null;
  readonly reasoning: string | null;
  readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
}

interface ManifestEntry {
  readonly file: string;
  readonly format: WireFormat;
  readonly expected: Expected;
}

const RECORDED = ['anthropic/thinking-signature.sse', 'openai-chat/parallel-tool-calls.sse', 'gemini/thinking-parallel-partial-args.sse'];

/** Replays `source` into a ChatStream and checks the iterator, the listeners and finalResponse() against `expected`. */
async function expectStreamMatches(source: AsyncIterable<Uint8Array | string>, format: WireFormat, expected: Expected): Promise<void> {
  const stream = new ChatStream();
  const heard: string[] = [];
  for (const name of CHAT_STREAM_EVENT_NAMES) stream.on(name, () => heard.push(name));
  const iterated = (async () => {
    const types: ChatStreamEvent['type'][] = [];
    for await (const event of stream) types.push(event.type);
    return types;
  })();
  const outcome = await consumeStream(source, stream, { format });
  expect(outcome.status).to.equal('completed');
  expect(await iterated).to.deep.equal(heard);
  const final = await stream.finalResponse();
  expect(outcome.status === 'completed' && outcome.response).to.equal(final);
  expect({
    text: final.aiMessage.text,
    reasoning: final.aiMessage.thinking,
    toolCalls: final.aiMessage.toolExecutionRequests,
  }).to.deep.equal({
    text: expected.text,
    reasoning: expected.reasoning,
    toolCalls: expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  });
}

describe(`ChatStream over whole streams${recordedSkipNote('ChatStream over recorded streams')}`, function () {
  for (const transcript of OWN_TRANSCRIPTS.filter((candidate) => candidate.expected.status === 'completed')) {
    it(`${transcript.file}: for await yields what the listeners see, and finalResponse() is the outcome's response`, async () => {
      async function* source(): AsyncGenerator<Uint8Array> {
        yield transcript.bytes;
      }
      await expectStreamMatches(source(), transcript.format, transcript.expected);
    });
  }

  // Without the fixtures folder these cases are left out; the suite's title and a warning say so.
  for (const file of recordedFixturesPresent() ? RECORDED : []) {
    it(`${file}: for await yields what the listeners see, and finalResponse() is the outcome's response`, async () => {
      const manifest = JSON.parse(fs.readFileSync(FIXTURES_MANIFEST, 'utf8')) as ManifestEntry[];
      const entry = manifest.find((candidate) => candidate.file === file);
      expect(entry, `${file} in ${FIXTURES_MANIFEST}`).to.not.equal(undefined);
      await expectStreamMatches(fs.createReadStream(path.join(FIXTURES_DIR, file)), (entry as ManifestEntry).format, (entry as ManifestEntry).expected);
    });
  }
});
