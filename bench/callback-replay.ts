import type { MappingTrackingHandler } from '../lib/tracker/mapping-tracking-handler';
import { handlerChain } from '../lib/driver/handler-chain';
import { StreamController } from '../lib/driver/stream-controller';
import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking, PartialToolCall, StreamingChatResponseHandler, StreamingHandle } from '../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata, tokenUsage } from '../lib/handler/values';
import type { Extracted } from './floors';
import type { Transcript } from './generate-transcript';

/** Which callback a replayed value goes to. */
export const ReplayKind = { Thinking: 0, Response: 1, ToolDelta: 2, ToolComplete: 3 } as const;

/** The argument of one replayed callback. */
export type ReplayValue = PartialThinking | PartialResponse | PartialToolCall | CompleteToolCall;

/**
 * The callbacks a transcript maps to, built once so that replaying them measures the chain alone.
 * Callback `i` is `kinds[i]` with argument `values[i]`: one object per callback rather than a
 * `{ kind, value }` wrapper each, because at N = 10⁶ the replay is itself some 100 MB of heap that
 * every collection during a timed run has to walk.
 */
export interface Replay {
  readonly kinds: Uint8Array;
  readonly values: readonly ReplayValue[];
  /** The provider's response as a mapper hands it to the chain at the end (no parts: they come from the deltas). */
  readonly providerResponse: ChatResponse;
}

/** Builds the callback arguments of a transcript with the library's value factories. */
export function buildReplay(transcript: Transcript): Replay {
  const { steps } = transcript;
  const kinds = new Uint8Array(steps.length);
  const values: ReplayValue[] = [];
  steps.forEach((step, i) => {
    switch (step.type) {
      case 'thinking':
        kinds[i] = ReplayKind.Thinking;
        values.push(partialThinking(step.text));
        break;
      case 'signature':
        kinds[i] = ReplayKind.Thinking;
        values.push(partialThinking('', { provider: 'anthropic', kind: 'signature', data: step.signature }));
        break;
      case 'text':
        kinds[i] = ReplayKind.Response;
        values.push(partialResponse(step.text));
        break;
      case 'tool-delta':
        kinds[i] = ReplayKind.ToolDelta;
        values.push(partialToolCall(step.index, step.id, step.name, step.partialArguments));
        break;
      case 'tool-complete':
        kinds[i] = ReplayKind.ToolComplete;
        values.push(completeToolCall(step.index, { id: step.id, name: step.name, arguments: step.arguments }));
        break;
    }
  });
  const { expected } = transcript;
  const providerResponse = chatResponse(
    aiMessage([]),
    responseMetadata({
      id: expected.id,
      modelName: expected.model,
      tokenUsage: tokenUsage(expected.inputTokens, expected.outputTokens),
      finishReason: 'TOOL_EXECUTION',
    }),
  );
  return { kinds, values, providerResponse };
}

/** The number of callbacks a replay makes (the final one not counted). */
export function callbackCount(replay: Replay): number {
  return replay.kinds.length;
}

/** A chain that has replayed a stream, and the final response its handler received. */
export interface ReplayedChain {
  readonly chain: MappingTrackingHandler;
  readonly response: ChatResponse;
}

/**
 * Replays the callbacks through the chain an adapter drives — `MappingTrackingHandler` →
 * `PartsBridge` → `SafeHandler` → `handler` — resetting and reading the mapping flag around each
 * one as the driver does, and returns the chain with the final response the handler received.
 */
export function replayChain(replay: Replay): ReplayedChain {
  const controller = new StreamController();
  const sink = new FinalResponseSink();
  const { tracker } = handlerChain(sink, controller);
  const context: { readonly streamingHandle: StreamingHandle } = { streamingHandle: controller };
  const { kinds, values } = replay;
  let unmapped = 0;
  for (let i = 0; i < kinds.length; i++) {
    tracker.resetMappingTracking();
    switch (kinds[i]) {
      case ReplayKind.Thinking:
        tracker.onPartialThinking(values[i] as PartialThinking, context);
        break;
      case ReplayKind.Response:
        tracker.onPartialResponse(values[i] as PartialResponse, context);
        break;
      case ReplayKind.ToolDelta:
        tracker.onPartialToolCall(values[i] as PartialToolCall, context);
        break;
      default:
        tracker.onCompleteToolCall(values[i] as CompleteToolCall);
        break;
    }
    if (!tracker.wasMapped()) unmapped++;
  }
  tracker.resetMappingTracking();
  tracker.onCompleteResponse(replay.providerResponse);
  if (unmapped !== 0) throw new Error(`${unmapped} replayed callbacks did not count as mapped`);
  return { chain: tracker, response: sink.take() };
}

/** `replayChain`, keeping only the final response: what the callback path measures. */
export function replayThroughChain(replay: Replay): ChatResponse {
  return replayChain(replay).response;
}

/** The callback floor: the same callbacks, their strings only pushed into arrays and joined once. */
export function replayFloor(replay: Replay): Extracted {
  const text: string[] = [];
  const reasoning: string[] = [];
  const args: string[][] = [];
  const { kinds, values } = replay;
  for (let i = 0; i < kinds.length; i++) {
    switch (kinds[i]) {
      case ReplayKind.Thinking: {
        const thinking = values[i] as PartialThinking;
        if (thinking.text !== '') reasoning.push(thinking.text);
        break;
      }
      case ReplayKind.Response:
        text.push((values[i] as PartialResponse).text);
        break;
      case ReplayKind.ToolDelta: {
        const delta = values[i] as PartialToolCall;
        (args[delta.index] ??= []).push(delta.partialArguments);
        break;
      }
      default:
        break;
    }
  }
  return { text: text.join(''), reasoning: reasoning.join(''), arguments: args.map((pieces) => pieces.join('')) };
}

/**
 * A handler that does nothing with the callbacks (the consumer in every measurement) and keeps
 * the final response, or the error, for the check that follows.
 */
export class FinalResponseSink implements StreamingChatResponseHandler {
  private response: ChatResponse | null = null;
  private failure: Error | null = null;

  onPartialResponse(): void {}
  onPartialThinking(): void {}
  onPartialToolCall(): void {}
  onCompleteToolCall(): void {}
  onCompleteResponse(response: ChatResponse): void {
    this.response = response;
  }
  onError(error: Error): void {
    this.failure ??= error;
  }

  /** The final response; throws the stream's (or a callback's) error, or when none arrived. */
  take(): ChatResponse {
    if (this.failure !== null) throw this.failure;
    if (this.response === null) throw new Error('The chain delivered no final response');
    const response = this.response;
    this.response = null;
    return response;
  }
}
