import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeBedrockStream } from '../providers/bedrock-converse/bedrock-event-stream';
import { metadata, start, stop, text } from '../providers/bedrock-converse/bedrock-transcripts';
import { jsonEvents, runCli } from './run-cli';

// `partstream replay` reads a binary Bedrock ConverseStream body from a file: named with
// --format bedrock-converse, and recognised by its prelude with the default --format auto.

describe('partstream replay of a binary Bedrock ConverseStream body', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'partstream-bedrock-replay-'));
  const file = path.join(dir, 'answer.bin');
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    file,
    encodeBedrockStream([
      start,
      text(0, 'Paris'),
      text(0, ' is the capital.'),
      { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      stop('end_turn'),
      metadata({ inputTokens: 9, outputTokens: 5, totalTokens: 14 }),
    ]),
  );

  for (const format of ['bedrock-converse', 'auto']) {
    it(`--format ${format}: the text as it streamed, then the final response, exit 0`, async () => {
      const run = await runCli(['replay', file, '--format', format, '--json']);
      expect(run.status, run.stderr).to.equal(0);
      const events = jsonEvents(run.stdout) as { event?: string; text?: string; response?: { aiMessage?: { text?: string }; metadata?: { finishReason?: string } } }[];
      expect(events.filter((event) => event.event === 'partialResponse').map((event) => event.text)).to.deep.equal(['Paris', ' is the capital.']);
      const final = events.find((event) => event.event === 'completeResponse');
      expect([final?.response?.aiMessage?.text, final?.response?.metadata?.finishReason]).to.deep.equal(['Paris is the capital.', 'STOP']);
    });
  }
});
