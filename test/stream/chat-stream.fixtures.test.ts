import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { consumeStream } from '../../lib/providers/consume-stream';
import type { WireFormat } from '../../lib/providers/types';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatStreamEvent } from '../../lib/stream/chat-stream-events';
import { CHAT_STREAM_EVENT_NAMES } from '../../lib/stream/chat-stream-events';

const fixtures = path.resolve(__dirname, '../..', '../shared/fixtures');

interface ManifestEntry {
  readonly file: string;
  readonly format: WireFormat;
  readonly expected: {
    readonly text: string | null;
    readonly reasoning: string | null;
    readonly toolCalls: readonly { readonly id: string | null; readonly name: string; readonly arguments: string }[];
  };
}

const FILES = ['anthropic/thinking-signature.sse', 'openai-chat/parallel-tool-calls.sse', 'gemini/thinking-parallel-partial-args.sse'];

describe('ChatStream over recorded streams', function () {
  let manifest: ManifestEntry[] = [];
  before(function () {
    if (!fs.existsSync(path.join(fixtures, 'manifest.json'))) {
      console.warn(`Skipping ChatStream fixture tests: ${fixtures} is absent`);
      this.skip();
    }
    manifest = JSON.parse(fs.readFileSync(path.join(fixtures, 'manifest.json'), 'utf8')) as ManifestEntry[];
  });

  for (const file of FILES) {
    it(`${file}: for await yields what the listeners see, and finalResponse() is the outcome's response`, async () => {
      const entry = manifest.find((candidate) => candidate.file === file) as ManifestEntry;
      const stream = new ChatStream();
      const heard: string[] = [];
      for (const name of CHAT_STREAM_EVENT_NAMES) stream.on(name, () => heard.push(name));
      const iterated = (async () => {
        const types: ChatStreamEvent['type'][] = [];
        for await (const event of stream) types.push(event.type);
        return types;
      })();
      const outcome = await consumeStream(fs.createReadStream(path.join(fixtures, file)), stream, { format: entry.format });
      expect(outcome.status).to.equal('completed');
      expect(await iterated).to.deep.equal(heard);
      const final = await stream.finalResponse();
      expect(outcome.status === 'completed' && outcome.response).to.equal(final);
      expect({
        text: final.aiMessage.text,
        reasoning: final.aiMessage.thinking,
        toolCalls: final.aiMessage.toolExecutionRequests,
      }).to.deep.equal({
        text: entry.expected.text,
        reasoning: entry.expected.reasoning,
        toolCalls: entry.expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      });
    });
  }
});
