import { ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { expect } from 'chai';
import { loopbackBedrockClient } from './bedrock-sdk-client';
import { bedrockFramesFromSdkStream } from '../../../lib/providers/bedrock-converse/bedrock-sdk-events';
import type { EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server';
import { decodeBedrockBody, encodeBedrockStream, type WireMessage } from './bedrock-event-stream';
import { expectResult, runBedrock } from './bedrock-harness';
import { start, TRANSCRIPTS } from './bedrock-transcripts';

// The real AWS SDK reads partstream's own binary transcripts from a loopback server: its decoded
// events, through `bedrockFramesFromSdkStream`, must give the mapper the same result as the wire
// frames do, and carry what the wire frames carry (the SDK as an oracle for the frames).

const MODEL_ID = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-test-v1:0';

/** What the SDK hands out for a body: the frames, or what it threw that was no Bedrock exception. */
async function sdkFrames(server: LoopbackServer): Promise<EventStreamFrame[]> {
  const client = loopbackBedrockClient(server.url);
  try {
    const response = await client.send(new ConverseStreamCommand({ modelId: MODEL_ID, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }));
    const frames: EventStreamFrame[] = [];
    if (response.stream === undefined) throw new Error('Expected the SDK to hand out a stream');
    for await (const frame of bedrockFramesFromSdkStream(response.stream)) frames.push(frame);
    return frames;
  } finally {
    client.destroy();
  }
}

/** A wire frame as the SDK hands it out: without the padding `p`, and without the headers the SDK does not keep. */
function withoutPadding(frame: EventStreamFrame): EventStreamFrame {
  if (!frame.payload.ok || typeof frame.payload.value !== 'object' || frame.payload.value === null) return frame;
  const { p: _p, ...rest } = frame.payload.value as Record<string, unknown>;
  return { ...frame, payload: { ok: true, value: rest } };
}

/** A part as JSON with an unknown part's rawJson parsed (its key order set aside). */
function parsedRawJson(part: unknown): unknown {
  const fields = part as { type?: unknown; rawJson?: unknown };
  return fields.type === 'unknown' && typeof fields.rawJson === 'string' ? { ...fields, rawJson: JSON.parse(fields.rawJson) as unknown } : part;
}

describe('Bedrock ConverseStream through the AWS SDK (@aws-sdk/client-bedrock-runtime) against a loopback server', () => {
  let body: Uint8Array = new Uint8Array(0);
  let server: LoopbackServer;

  before(async () => {
    server = await startLoopbackServer(() => ({ status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body }), { maxRequests: 1000 });
  });
  after(async () => {
    await server.close();
  });

  it('sends POST /model/{modelId}/converse-stream, the ARN URL-encoded', async () => {
    body = encodeBedrockStream(TRANSCRIPTS[0]!.messages);
    const before = server.requests.length;
    await sdkFrames(server);
    const request = server.requests[before]!;
    expect(request.method).to.equal('POST');
    expect(request.url).to.equal(`/model/${encodeURIComponent(MODEL_ID)}/converse-stream`);
  });

  it('an error message (:message-type error) is thrown by the SDK as a plain Error named after its code, which is passed on, not taken for an exception', async () => {
    body = encodeBedrockStream([start, { error: 'InternalFailure', message: 'Something broke.' }]);
    const failure = await sdkFrames(server).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    expect({ name: (failure as Error).name, message: (failure as Error).message }).to.deep.equal({ name: 'InternalFailure', message: 'Something broke.' });
  });

  for (const transcript of TRANSCRIPTS.filter((each) => !each.messages.some((message: WireMessage) => 'error' in message))) {
    it(`${transcript.name}: the SDK's events map to the same result, and carry what the wire frames carry`, async () => {
      body = encodeBedrockStream(transcript.messages);
      const frames = await sdkFrames(server);
      // The SDK writes a block's keys in its model's order, not the wire's: unknown parts are compared as values.
      const result = runBedrock(frames);
      expectResult({ ...result, parts: result.parts.map(parsedRawJson) }, { ...transcript.expected, parts: transcript.expected.parts.map(parsedRawJson) });
      const wire = decodeBedrockBody(body).frames.map(withoutPadding);
      expect(frames).to.deep.equal(wire.map((frame) => (frame.messageType === 'exception' ? { ...frame, eventType: null } : frame)));
    });
  }
});
