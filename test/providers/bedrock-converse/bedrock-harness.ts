import { expect } from 'chai';
import { PartsBridge } from '../../../lib/bridge/parts-bridge';
import { StreamError } from '../../../lib/handler/stream-error';
import type { ChatResponse, StreamingHandle } from '../../../lib/handler/types';
import { partToJSON } from '../../../lib/parts/json';
import { BedrockConverseMapper } from '../../../lib/providers/bedrock-converse/bedrock-converse-mapper';
import type { EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import type { MapperTarget } from '../../../lib/providers/stream-mapper';
import { MappingTrackingHandler } from '../../../lib/tracker/mapping-tracking-handler';
import type { BedrockExpected } from './bedrock-transcripts';

/** One callback the user's handler got, in a form deep equality compares. */
export type BedrockStep =
  | readonly ['text', string, unknown?]
  | readonly ['thinking', string, unknown?]
  | readonly ['toolDelta', number, string | null, string, string]
  | readonly ['tool', number, string | null, string, string]
  | readonly ['raw', unknown]
  | readonly ['complete']
  | readonly ['error', string, string, string | undefined];

/** What one run of frames produced. */
export interface BedrockRun {
  readonly steps: BedrockStep[];
  /** What `map` returned, frame by frame. */
  readonly returns: boolean[];
  readonly response: ChatResponse | null;
  readonly error: StreamError | null;
  /** The final message's parts as JSON (`partToJSON`), or the failure's partial parts. */
  readonly parts: unknown[];
}

const HANDLE: StreamingHandle = Object.freeze({ cancel() {}, isCancelled: () => false });

/**
 * Drives a `BedrockConverseMapper` with `frames` the way the stream driver does — the tracker
 * reset per frame, the frame surfaced raw when nothing typed fired or the mapper asked for it,
 * reading stopped once `map` returns true or a terminal callback came, then `end` — through the
 * real `PartsBridge`, so that the final message's parts are the ones a stream would have.
 */
export function runBedrock(frames: readonly EventStreamFrame[], truncatedFrame = false): BedrockRun {
  const steps: BedrockStep[] = [];
  let response: ChatResponse | null = null;
  let error: StreamError | null = null;
  const bridge = new PartsBridge({
    onPartialResponse: (partial) => steps.push(partial.payload === undefined ? ['text', partial.text] : ['text', partial.text, partial.payload]),
    onPartialThinking: (partial) => steps.push(partial.payload === undefined ? ['thinking', partial.text] : ['thinking', partial.text, partial.payload]),
    onPartialToolCall: (partial) => steps.push(['toolDelta', partial.index, partial.id, partial.name, partial.partialArguments]),
    onCompleteToolCall: (complete) => {
      const { id, name, arguments: args } = complete.toolExecutionRequest;
      steps.push(['tool', complete.index, id, name, args]);
    },
    onUnmappedRawEvent: (raw) => steps.push(['raw', raw]),
    onCompleteResponse: (final) => {
      response = final;
      steps.push(['complete']);
    },
    onError: (failure) => {
      if (!StreamError.isInstance(failure)) throw failure;
      error = failure;
      steps.push(['error', failure.kind, failure.message, failure.code]);
    },
  });
  bridge.bindStreamingHandle(HANDLE);
  const tracker = new MappingTrackingHandler(bridge);
  let rawToo = false;
  const target: MapperTarget = {
    handler: tracker,
    handle: HANDLE,
    completeBlock: (part, attributes) => bridge.completeBlock(part, attributes),
    keepIncompleteToolCall: (call) => bridge.keepIncompleteToolCall(call),
    surfaceRaw: () => {
      rawToo = true;
    },
  };
  const mapper = new BedrockConverseMapper();
  const returns: boolean[] = [];
  const ended = (): boolean => response !== null || error !== null;
  for (const frame of frames) {
    if (ended()) break;
    tracker.resetMappingTracking();
    rawToo = false;
    const done = mapper.map(frame, target);
    returns.push(done);
    if (rawToo || !tracker.wasMapped()) tracker.onUnmappedRawEvent(frame);
    if (done) break;
  }
  tracker.resetMappingTracking();
  if (!ended()) mapper.end(target, truncatedFrame);
  const final = response as ChatResponse | null;
  const parts = (final ?? bridge.partialResponse()).aiMessage.parts.map((part) => partToJSON(part));
  return { steps, returns, response: final, error, parts };
}

/** Checks a run against a transcript's expectations (each field given is compared). */
export function expectResult(result: BedrockRun, expected: BedrockExpected): void {
  expect(result.parts).to.deep.equal(expected.parts);
  if (expected.error !== undefined) {
    expect(result.response).to.equal(null);
    expect(result.error).to.not.equal(null);
    expect({ kind: result.error?.kind, code: result.error?.code, message: result.error?.message }).to.deep.equal(expected.error);
    return;
  }
  expect(result.error).to.equal(null);
  const response = result.response;
  if (response === null) throw new Error('Expected a complete response');
  if (expected.text !== undefined) expect(response.aiMessage.text).to.equal(expected.text);
  if (expected.thinking !== undefined) expect(response.aiMessage.thinking).to.equal(expected.thinking);
  if (expected.finishReason !== undefined) expect(response.metadata.finishReason).to.equal(expected.finishReason);
  if (expected.providerFinishReason !== undefined) expect(response.metadata.providerFinishReason).to.equal(expected.providerFinishReason);
  if (expected.tokenUsage !== undefined) expect(response.metadata.tokenUsage).to.deep.equal(expected.tokenUsage);
  if (expected.providerMetadata !== undefined) expect(response.metadata.providerMetadata).to.deep.equal(expected.providerMetadata);
}
