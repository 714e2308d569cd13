import { expect } from 'chai';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { consumeStream } from '../../../lib/driver/consume-stream';
import { StreamError } from '../../../lib/handler/stream-error';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../../lib/handler/values';
import type { ProviderDescriptor } from '../../../lib/providers/provider-descriptor';
import type { MapperTarget, StreamMapper } from '../../../lib/providers/stream-mapper';
import { createEventStreamDecoder, eventStreamPreludeVerdict, type EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import type { ByteFrameDecoder } from '../../../lib/wire/frame-decoder';
import { recordingHandler } from '../../support/recording-handler';
import { awsEncode, type Message } from './support/aws-codec';

// The decoder is a ByteFrameDecoder: a descriptor of the `aws-eventstream` framing plugs it into
// the driver's binary path, by name and through `auto`'s prelude check. Proved on a made-up
// provider whose events carry `{"text": …}` and end with a `done` event.

const asByteDecoder: (maxFrameBytes: number) => ByteFrameDecoder<EventStreamFrame> = createEventStreamDecoder;

class BinaryMapper implements StreamMapper<EventStreamFrame> {
  readonly framing = 'aws-eventstream' as const;
  private text = '';
  map(frame: EventStreamFrame, target: MapperTarget): boolean {
    if (frame.eventType === 'contentBlockDelta' && frame.payload.ok) {
      const text = (frame.payload.value as { delta?: { text?: unknown } }).delta?.text;
      if (typeof text === 'string') {
        this.text += text;
        target.handler.onPartialResponse?.(partialResponse(text), { streamingHandle: target.handle });
      }
      return false;
    }
    if (frame.eventType === 'done') {
      target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: 'STOP', providerFinishReason: 'end_turn' })));
      return true;
    }
    return false;
  }
  end(target: MapperTarget): void {
    target.handler.onError(new StreamError('truncated', `ended after ${JSON.stringify(this.text)}`));
  }
}

const SNIFF_ANSWER = { eventstream: 'yes', not: 'no', 'need-more': 'more' } as const;

const binary: ProviderDescriptor<'binary-test', EventStreamFrame> = {
  format: 'binary-test',
  name: 'Binary test',
  expected: 'a binary test stream (event stream)',
  framing: 'aws-eventstream',
  contentType: 'application/vnd.amazon.eventstream',
  sniff: { binaryPrelude: (bytes) => SNIFF_ANSWER[eventStreamPreludeVerdict(bytes)] },
  createMapper: () => new BinaryMapper(),
  createByteDecoder: asByteDecoder,
  finishReason: () => 'STOP',
  client: null,
  replay: null,
  telemetry: { providerName: 'binary-test', operationName: 'chat' },
};

function event(eventType: string, payload: unknown): Message {
  return {
    headers: { ':event-type': { type: 'string', value: eventType }, ':message-type': { type: 'string', value: 'event' } },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  };
}

const BODY = awsEncode([event('contentBlockDelta', { delta: { text: 'Hi' } }), event('contentBlockDelta', { delta: { text: ' there' } }), event('done', {})]);

async function* bytes(body: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.slice(at, at + size);
}

describe('the event-stream decoder in the driver (an aws-eventstream descriptor)', () => {
  it('reads a binary body by name, in any chunk size', async () => {
    for (const size of [1, 5, 13, BODY.length]) {
      const outcome = await consumeStream(bytes(BODY, size), recordingHandler(), { format: binary });
      expect(outcome.status === 'completed' && outcome.response.aiMessage.text, `chunks of ${size}`).to.equal('Hi there');
    }
  });

  it("is recognised by format 'auto' from its prelude, even when it arrives a byte at a time", async () => {
    const outcome = await consumeStream(bytes(BODY, 1), recordingHandler(), { providers: [binary] });
    expect(outcome.status === 'completed' && outcome.response.aiMessage.text).to.equal('Hi there');
  });

  it('fails as malformed on a damaged message, with the text before it delivered', async () => {
    const damaged = BODY.slice();
    damaged[damaged.length - 20] ^= 1;
    const handler = recordingHandler();
    const outcome = await consumeStream(bytes(damaged, 7), handler, { format: binary });
    expect(outcome.status).to.equal('failed');
    expect(outcome.status === 'failed' && (outcome.error as StreamError).kind).to.equal('malformed');
    expect(handler.calls.filter((call) => call.on === 'partialResponse')).to.have.length(2);
  });

  const corpus = path.resolve(__dirname, '../../..', '../shared/corpus/bedrock');
  const file = path.join(corpus, 'streams/test_bedrock_model_stream.bin');
  it('reads a recorded Bedrock file as the replay command opens it (a file stream of Buffers)', async function () {
    // The corpus suite (recorded-bedrock.test.ts) notes its absence and fails under CI=true.
    if (!existsSync(file)) this.skip();
    const outcome = await consumeStream(createReadStream(file, { highWaterMark: 64 }), recordingHandler(), { format: binary });
    // This made-up mapper knows no `messageStop`; it ends the stream when the frames run out.
    expect(outcome.status).to.equal('failed');
    const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { streams: { file: string; expected: { text: string } }[] };
    const expected = manifest.streams.find((stream) => stream.file === path.basename(file))?.expected.text;
    expect(expected).to.be.a('string').and.not.equal('');
    expect(outcome.status === 'failed' && outcome.error.message).to.equal(`ended after ${JSON.stringify(expected)}`);
    expect(outcome.status === 'failed' && (outcome.error as StreamError).kind).to.equal('truncated');
  });
});
