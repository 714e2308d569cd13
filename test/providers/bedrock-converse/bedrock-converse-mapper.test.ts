import { expect } from 'chai';
import { BedrockConverseMapper } from '../../../lib/providers/bedrock-converse/bedrock-converse-mapper';
import type { EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import type { MapperTarget } from '../../../lib/providers/stream-mapper';
import { decodeBedrockBody, encodeBedrockStream, type WireMessage } from './bedrock-event-stream';
import { expectResult, runBedrock, type BedrockRun } from './bedrock-harness';
import { blockStart, blockStop, delta, input, metadata, start, stop, text, textJson, toolJson, TRANSCRIPTS, unknownJson } from './bedrock-transcripts';

/** The frames of `messages`, through binary and back with the AWS codec. */
function framesOf(messages: readonly WireMessage[]): EventStreamFrame[] {
  const { frames, leftover } = decodeBedrockBody(encodeBedrockStream(messages));
  expect(leftover).to.equal(0);
  return frames;
}

function run(messages: readonly WireMessage[]): BedrockRun {
  return runBedrock(framesOf(messages));
}

function rawFrames(result: BedrockRun): EventStreamFrame[] {
  return result.steps.filter((step) => step[0] === 'raw').map((step) => step[1] as EventStreamFrame);
}

describe('BedrockConverseMapper', () => {
  describe('own binary transcripts (encoded and decoded with the AWS codec)', () => {
    for (const transcript of TRANSCRIPTS) {
      it(transcript.name, () => {
        expectResult(run(transcript.messages), transcript.expected);
      });
    }

    it('a body cut in the middle of a frame is truncated, with what came before kept', () => {
      const body = encodeBedrockStream([start, text(0, 'Hi'), blockStop(0), stop('end_turn'), metadata({ inputTokens: 1, outputTokens: 1, totalTokens: 2 })]);
      const { frames, leftover } = decodeBedrockBody(body.subarray(0, body.length - 5));
      expect(leftover).to.be.greaterThan(0);
      const result = runBedrock(frames, true);
      expect(result.parts).to.deep.equal([textJson('Hi')]);
      expect(result.error?.kind).to.equal('truncated');
      expect(result.error?.message).to.equal('The stream ended in the middle of a frame, before messageStop');
    });
  });

  describe('callbacks and raw events', () => {
    it('maps text deltas; bookkeeping events surface raw; the response completes at metadata, after messageStop', () => {
      const frames = framesOf([start, text(0, 'Hel'), text(0, 'lo'), blockStop(0), stop('end_turn'), metadata({ inputTokens: 1, outputTokens: 2, totalTokens: 3 })]);
      const result = runBedrock(frames);
      expect(result.steps).to.deep.equal([['raw', frames[0]], ['text', 'Hel'], ['text', 'lo'], ['raw', frames[3]], ['raw', frames[4]], ['raw', frames[5]], ['complete']]);
      expect(result.returns).to.deep.equal([false, false, false, false, false, true]);
    });

    it('metadata before messageStop (not the wire order) completes at messageStop', () => {
      const result = run([start, text(0, 'a'), blockStop(0), metadata({ inputTokens: 1, outputTokens: 1, totalTokens: 2 }), stop('end_turn')]);
      expect(result.returns).to.deep.equal([false, false, false, false, true]);
      expect(result.response?.metadata.tokenUsage?.totalTokenCount).to.equal(2);
    });

    it('reasoning text, a signature-only thinking with payload bedrock/signature, and redacted content with payload bedrock/redacted_content', () => {
      const result = run([
        start,
        delta(0, { reasoningContent: { text: 'hm' } }),
        delta(0, { reasoningContent: { signature: 'SIG' } }),
        blockStop(0),
        delta(1, { reasoningContent: { redactedContent: 'QUJD' } }),
        blockStop(1),
        stop('end_turn'),
      ]);
      expect(result.steps.filter((step) => step[0] !== 'raw')).to.deep.equal([
        ['thinking', 'hm'],
        ['thinking', '', { provider: 'bedrock', kind: 'signature', data: 'SIG' }],
        ['thinking', '', { provider: 'bedrock', kind: 'redacted_content', data: 'QUJD' }],
        ['complete'],
      ]);
    });

    it('tool input pieces are partial tool calls with the call index, id and name; the stop completes the call', () => {
      const result = run([start, blockStart(3, { toolUse: { toolUseId: 't', name: 'f' } }), input(3, '{"a":'), input(3, '1}'), blockStop(3), stop('tool_use')]);
      expect(result.steps.filter((step) => step[0] !== 'raw')).to.deep.equal([['toolDelta', 0, 't', 'f', '{"a":'], ['toolDelta', 0, 't', 'f', '1}'], ['tool', 0, 't', 'f', '{"a":1}'], ['complete']]);
    });

    it('a tool call still open at messageStop (no contentBlockStop) completes there', () => {
      const result = run([start, blockStart(0, { toolUse: { toolUseId: 't', name: 'f' } }), input(0, '{}'), stop('tool_use')]);
      expect(result.parts).to.deep.equal([toolJson('t', 'f', '{}')]);
      expect(result.response?.metadata.finishReason).to.equal('TOOL_EXECUTION');
    });

    it('tool input with no start is kept as a nameless incomplete call, never completed', () => {
      const result = run([start, input(0, '{"x":1}'), blockStop(0), stop('end_turn')]);
      expect(result.steps.some((step) => step[0] === 'tool' || step[0] === 'toolDelta')).to.equal(false);
      expect(result.parts).to.deep.equal([toolJson(null, null, '{"x":1}', { incomplete: 'true' })]);
      expect(result.response?.metadata.finishReason).to.equal('STOP');
    });

    it('citation deltas and empty text map nothing and surface raw', () => {
      const frames = framesOf([start, delta(0, { citation: { title: 'T' } }), text(0, ''), text(0, 'x'), blockStop(0), stop('end_turn')]);
      const result = runBedrock(frames);
      expect(rawFrames(result)).to.deep.equal([frames[0], frames[1], frames[2], frames[4], frames[5]]);
    });

    it('a delta that holds a mapped and an unknown member surfaces raw as well, and the unknown member is kept as a part after its block', () => {
      const frames = framesOf([start, delta(0, { text: 'a', sparkle: { level: 1 } }), blockStop(0), stop('end_turn')]);
      const result = runBedrock(frames);
      expect(result.steps.slice(1, 3)).to.deep.equal([
        ['text', 'a'],
        ['raw', frames[1]],
      ]);
      expect(result.parts).to.deep.equal([textJson('a'), unknownJson('sparkle', '{"sparkle":{"level":1}}')]);
    });

    it('the padding field p is never kept: not in metadata, not in an unknown part', () => {
      const result = run([start, blockStart(0, { image: { format: 'png' } }), blockStop(0), stop('end_turn'), metadata({ inputTokens: 1, outputTokens: 1, totalTokens: 2 })]);
      expect(result.parts).to.deep.equal([unknownJson('image', '{"image":{"format":"png"}}')]);
      expect(result.response?.metadata.providerMetadata).to.deep.equal({ metrics: { latencyMs: 321 } });
      expect(JSON.stringify(result.response?.metadata.providerUsage)).to.not.include('"p"');
    });

    it('a second contentBlockStart at an open index completes the earlier block', () => {
      const result = run([start, blockStart(0, { toolUse: { toolUseId: 'a', name: 'f' } }), blockStart(0, { image: {} }), blockStop(0), stop('tool_use')]);
      expect(result.parts).to.deep.equal([toolJson('a', 'f', '{}'), unknownJson('image', '{"image":{}}')]);
    });

    it('content events after messageStop map nothing and surface raw', () => {
      const frames = framesOf([start, text(0, 'a'), blockStop(0), stop('end_turn'), text(1, 'late'), metadata({})]);
      const result = runBedrock(frames);
      expect(result.steps).to.deep.include(['raw', frames[4]]);
      expect(result.response?.aiMessage.text).to.equal('a');
    });
  });

  describe('failures', () => {
    it('an exception whose payload is not JSON: its text is the message', () => {
      const result = runBedrock([{ messageType: 'exception', eventType: null, exceptionType: 'throttlingException', errorMessage: null, payload: { ok: false, text: 'slow down' } }]);
      expect(result.steps).to.deep.equal([['error', 'provider', 'slow down', 'throttlingException']]);
      expect(result.error?.body).to.equal('slow down');
    });

    it('an exception without a message names its type', () => {
      const result = run([{ exception: 'modelStreamErrorException', payload: { originalStatusCode: 500 } }]);
      expect(result.error?.message).to.equal('Amazon Bedrock reported modelStreamErrorException in the stream');
      expect(result.error?.body).to.deep.equal({ originalStatusCode: 500 });
    });

    it('metadataSoFar: the usage and fields seen so far, and no finish reason (a failed stream has none)', () => {
      const mapper = new BedrockConverseMapper();
      const target: MapperTarget = { handler: { onCompleteResponse() {}, onError() {} }, handle: { cancel() {}, isCancelled: () => false } };
      for (const frame of framesOf([start, text(0, 'a'), metadata({ inputTokens: 3, outputTokens: 2, totalTokens: 5 })])) mapper.map(frame, target);
      const soFar = mapper.metadataSoFar();
      expect(soFar.tokenUsage?.totalTokenCount).to.equal(5);
      expect(soFar.providerFinishReason).to.equal(null);
      expect(soFar.finishReason).to.equal(null);
      expect(soFar.providerMetadata).to.deep.equal({ metrics: { latencyMs: 321 } });
    });

    it('an empty stream is truncated before messageStop', () => {
      expect(runBedrock([]).steps).to.deep.equal([['error', 'truncated', 'The stream ended before messageStop', undefined]]);
    });

    it('rejects what is not a frame with a TypeError', () => {
      const target: MapperTarget = { handler: { onCompleteResponse() {}, onError() {} }, handle: { cancel() {}, isCancelled: () => false } };
      expect(() => new BedrockConverseMapper().map(null as unknown as EventStreamFrame, target)).to.throw(TypeError, /Expected an event-stream frame/);
      expect(() => new BedrockConverseMapper().map({ messageType: 'event' } as unknown as EventStreamFrame, target)).to.throw(TypeError, /Expected an event-stream frame/);
    });
  });

  describe('hostile input', () => {
    it('unknown message types, unknown events, payloads that are not JSON objects, and bad indexes surface raw and map nothing', () => {
      const frames: EventStreamFrame[] = [
        { messageType: 'mystery', eventType: 'contentBlockDelta', exceptionType: null, errorMessage: null, payload: { ok: true, value: { contentBlockIndex: 0, delta: { text: 'no' } } } },
        { messageType: 'event', eventType: 'somethingNew', exceptionType: null, errorMessage: null, payload: { ok: true, value: {} } },
        { messageType: 'event', eventType: 'contentBlockDelta', exceptionType: null, errorMessage: null, payload: { ok: false, text: '{"contentBlockIndex":0,' } },
        { messageType: 'event', eventType: 'contentBlockDelta', exceptionType: null, errorMessage: null, payload: { ok: true, value: [1, 2] } },
        ...[-1, 1.5, '0', null, Number.MAX_VALUE].map((index): EventStreamFrame => ({
          messageType: 'event',
          eventType: 'contentBlockDelta',
          exceptionType: null,
          errorMessage: null,
          payload: { ok: true, value: { contentBlockIndex: index, delta: { text: 'no' } } },
        })),
      ];
      const result = runBedrock(frames);
      expect(result.steps.slice(0, -1)).to.deep.equal(frames.map((frame) => ['raw', frame]));
    });

    it('__proto__, constructor and prototype as member and field names stay plain own keys; nothing is written to a prototype', () => {
      const hostile = JSON.parse('{"contentBlockIndex":0,"delta":{"__proto__":{"polluted":"yes","__proto__":"x"}}}') as unknown;
      const startHostile = JSON.parse('{"contentBlockIndex":1,"start":{"constructor":{"prototype":{"polluted":"yes"}}}}') as unknown;
      const frames: EventStreamFrame[] = [
        { messageType: 'event', eventType: 'contentBlockDelta', exceptionType: null, errorMessage: null, payload: { ok: true, value: hostile } },
        { messageType: 'event', eventType: 'contentBlockStop', exceptionType: null, errorMessage: null, payload: { ok: true, value: { contentBlockIndex: 0 } } },
        { messageType: 'event', eventType: 'contentBlockStart', exceptionType: null, errorMessage: null, payload: { ok: true, value: startHostile } },
        { messageType: 'event', eventType: 'contentBlockStop', exceptionType: null, errorMessage: null, payload: { ok: true, value: { contentBlockIndex: 1 } } },
        { messageType: 'event', eventType: 'messageStop', exceptionType: null, errorMessage: null, payload: { ok: true, value: { stopReason: 'end_turn' } } },
      ];
      const result = runBedrock(frames);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(result.parts).to.deep.equal([
        unknownJson('__proto__', '{"__proto__":{"polluted":"yes","__proto__":"x"}}'),
        unknownJson('constructor', '{"constructor":{"prototype":{"polluted":"yes"}}}'),
      ]);
    });

    it('__proto__ as a field that several deltas append to stays a plain own key', () => {
      const piece = (value: string): EventStreamFrame => ({
        messageType: 'event',
        eventType: 'contentBlockDelta',
        exceptionType: null,
        errorMessage: null,
        payload: { ok: true, value: JSON.parse(`{"contentBlockIndex":0,"delta":{"futureKind":{"__proto__":"${value}","list":["${value}"]}}}`) as unknown },
      });
      const result = runBedrock([piece('a'), piece('b'), ...framesOf([blockStop(0), stop('end_turn')])]);
      expect(result.parts).to.deep.equal([unknownJson('futureKind', '{"futureKind":{"__proto__":"ab","list":["b"]}}')]);
    });

    it('a block index as large as a safe integer can be allocates nothing by it', () => {
      const result = run([start, text(2 ** 31, 'big'), blockStop(2 ** 31), stop('end_turn')]);
      expect(result.parts).to.deep.equal([textJson('big')]);
    });

    it('many pieces of one unknown block are joined once, in order', () => {
      const pieces = Array.from({ length: 2000 }, (_, i) => delta(0, { futureKind: { s: String(i % 10) } }));
      const result = run([start, ...pieces, blockStop(0), stop('end_turn')]);
      const expected = Array.from({ length: 2000 }, (_, i) => String(i % 10)).join('');
      expect(result.parts).to.deep.equal([unknownJson('futureKind', JSON.stringify({ futureKind: { s: expected } }))]);
    });
  });
});
