import { ConverseStreamCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { expect } from 'chai';
import { loopbackBedrockClient } from './bedrock-sdk-client';
import { consumeStream, type StreamOutcome } from '../../../lib/driver/consume-stream';
import { StreamError } from '../../../lib/handler/stream-error';
import type { StreamSource } from '../../../lib/transport/byte-source';
import { partToJSON } from '../../../lib/parts/json';
import { bedrockConverseProvider } from '../../../lib/providers/bedrock-converse/bedrock-converse-descriptor';
import { bedrockFramesFromSdkStream } from '../../../lib/providers/bedrock-converse/bedrock-sdk-events';
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server';
import { codecByteDecoder, encodeBedrockStream } from './bedrock-event-stream';
import { expectResult, type BedrockRun } from './bedrock-harness';
import { TRANSCRIPTS } from './bedrock-transcripts';

// The Bedrock descriptor driven by consumeStream, as a stream would be: binary bodies in chunks,
// and the AWS SDK's decoded events. Until partstream's own event-stream decoder is the
// descriptor's `createByteDecoder`, the AWS codec stands in for it here.
const BEDROCK = { ...bedrockConverseProvider, createByteDecoder: codecByteDecoder };

/** The outcome as the harness's run, so that a transcript's expectations compare alike. */
function asRun(outcome: StreamOutcome): BedrockRun {
  const response = outcome.status === 'completed' ? outcome.response : null;
  const error = outcome.status === 'failed' && StreamError.isInstance(outcome.error) ? outcome.error : null;
  const message = response?.aiMessage ?? (outcome.status === 'completed' ? null : (outcome.partial?.aiMessage ?? null));
  return { steps: [], returns: [], response, error, parts: (message?.parts ?? []).map((part) => partToJSON(part)) };
}

/** `bytes` in pieces of 1 to 17 bytes (seeded), as a network may deliver them. */
async function* pieces(bytes: Uint8Array, seed: number): AsyncGenerator<Uint8Array> {
  let state = seed;
  for (let at = 0; at < bytes.length;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % 17);
    yield bytes.slice(at, at + size);
    at += size;
  }
}

const handler = { onCompleteResponse() {}, onError() {} };

/** A source of event objects, which the driver reads (`readObject`) though `StreamSource` names only bytes and text so far. */
function objects(source: AsyncIterable<unknown>): StreamSource {
  return source as StreamSource;
}

describe("consumeStream with the Bedrock descriptor (format: the descriptor; its byte decoder the AWS codec's stand-in)", () => {
  describe('binary bodies in pieces of 1 to 17 bytes (seed 7)', () => {
    for (const transcript of TRANSCRIPTS) {
      it(transcript.name, async () => {
        const outcome = await consumeStream(pieces(encodeBedrockStream(transcript.messages), 7), handler, { format: BEDROCK });
        expectResult(asRun(outcome), transcript.expected);
      });
    }

    it('a body cut in the middle of a frame fails truncated', async () => {
      const body = encodeBedrockStream(TRANSCRIPTS[0]!.messages);
      const outcome = await consumeStream(pieces(body.subarray(0, body.length - 3), 7), handler, { format: BEDROCK });
      expect(outcome.status).to.equal('failed');
      expect(outcome.status === 'failed' && StreamError.isInstance(outcome.error) && outcome.error.kind).to.equal('truncated');
    });

    it('a frame the mapper cannot read surfaces raw as the frame itself', async () => {
      const raw: unknown[] = [];
      const body = encodeBedrockStream([{ event: 'somethingNew', payload: { x: 1 } }, ...TRANSCRIPTS[0]!.messages]);
      await consumeStream(pieces(body, 7), { ...handler, onUnmappedRawEvent: (event) => raw.push(event) }, { format: BEDROCK });
      expect(raw[0]).to.deep.equal({ messageType: 'event', eventType: 'somethingNew', exceptionType: null, errorMessage: null, payload: { ok: true, value: { x: 1, p: 'a' } } });
    });
  });

  describe("the AWS SDK's decoded events (readObject), from a loopback server", () => {
    let body: Uint8Array = new Uint8Array(0);
    let server: LoopbackServer;
    before(async () => {
      server = await startLoopbackServer(() => ({ status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body }), { maxRequests: 1000 });
    });
    after(async () => {
      await server.close();
    });

    async function sdkStream(): Promise<{ stream: AsyncIterable<unknown>; client: BedrockRuntimeClient }> {
      const client = loopbackBedrockClient(server.url);
      const response = await client.send(new ConverseStreamCommand({ modelId: 'amazon.nova-lite-v1:0', messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }));
      if (response.stream === undefined) throw new Error('Expected the SDK to hand out a stream');
      return { stream: response.stream, client };
    }

    for (const transcript of TRANSCRIPTS.filter((each) => !each.messages.some((message) => 'error' in message))) {
      it(`${transcript.name} (the SDK's stream through bedrockFramesFromSdkStream)`, async () => {
        body = encodeBedrockStream(transcript.messages);
        const { stream, client } = await sdkStream();
        try {
          const outcome = await consumeStream(objects(bedrockFramesFromSdkStream(stream)), handler, { format: BEDROCK });
          const run = asRun(outcome);
          // The SDK writes a block's keys in its model's order, not the wire's: unknown parts are compared as values.
          const parsed = (part: unknown): unknown => {
            const fields = part as { type?: unknown; rawJson?: unknown };
            return fields.type === 'unknown' ? { ...fields, rawJson: JSON.parse(fields.rawJson as string) as unknown } : part;
          };
          expectResult({ ...run, parts: run.parts.map(parsed) }, { ...transcript.expected, parts: transcript.expected.parts.map(parsed) });
        } finally {
          client.destroy();
        }
      });
    }

    it("the SDK's stream itself: events map, and an exception it throws fails the source (so pass it through bedrockFramesFromSdkStream)", async () => {
      body = encodeBedrockStream(TRANSCRIPTS.find((each) => each.name.startsWith('exception throttlingException'))!.messages);
      const { stream, client } = await sdkStream();
      try {
        const outcome = await consumeStream(objects(stream), handler, { format: BEDROCK });
        expect(outcome.status).to.equal('failed');
        const error = outcome.status === 'failed' ? outcome.error : null;
        expect(StreamError.isInstance(error) && error.kind).to.not.equal('provider');
        expect(outcome.status === 'failed' ? outcome.partial?.aiMessage.text : null).to.equal('partial');
      } finally {
        client.destroy();
      }
    });
  });
});
