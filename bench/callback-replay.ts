import { MappingTrackingHandler } from '../lib/handler/mapping-tracking-handler';
import { SafeHandler } from '../lib/handler/safe-handler';
import { StreamController } from '../lib/handler/stream-controller';
import type {
  ChatResponse,
  CompleteToolCall,
  PartialResponse,
  PartialThinking,
  PartialToolCall,
  StreamingChatResponseHandler,
  StreamingHandle,
} from '../lib/handler/types';
import {
  aiMessage,
  chatResponse,
  completeToolCall,
  partialResponse,
  partialThinking,
  partialToolCall,
  responseMetadata,
  tokenUsage,
} from '../lib/handler/values';
import { PartsBridge } from '../lib/bridge/parts-bridge';
import type { Extracted } from './floors';
import type { Transcript } from './generate-transcript';

/** One pre-built callback: which method, and its argument. */
export type ReplayCall =
  | { readonly kind: 'thinking'; readonly value: PartialThinking }
  | { readonly kind: 'response'; readonly value: PartialResponse }
  | { readonly kind: 'tool-delta'; readonly value: PartialToolCall }
  | { readonly kind: 'tool-complete'; readonly value: CompleteToolCall };

/** The callbacks a transcript maps to, built once so that replaying them measures the chain alone. */
export interface Replay {
  readonly calls: readonly ReplayCall[];
  /** The provider's response as a mapper hands it to the chain at the end (no parts: they come from the deltas). */
  readonly providerResponse: ChatResponse;
}

/** Builds the callback arguments of a transcript with the library's value factories. */
export function buildReplay(transcript: Transcript): Replay {
  const calls: ReplayCall[] = [];
  for (const step of transcript.steps) {
    switch (step.type) {
      case 'thinking':
        calls.push({ kind: 'thinking', value: partialThinking(step.text) });
        break;
      case 'signature':
        calls.push({ kind: 'thinking', value: partialThinking('', { provider: 'anthropic', kind: 'signature', data: step.signature }) });
        break;
      case 'text':
        calls.push({ kind: 'response', value: partialResponse(step.text) });
        break;
      case 'tool-delta':
        calls.push({ kind: 'tool-delta', value: partialToolCall(step.index, step.id, step.name, step.partialArguments) });
        break;
      case 'tool-complete':
        calls.push({ kind: 'tool-complete', value: completeToolCall(step.index, { id: step.id, name: step.name, arguments: step.arguments }) });
        break;
    }
  }
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
  return { calls, providerResponse };
}

/**
 * Replays the callbacks through the chain an adapter drives — `MappingTrackingHandler` →
 * `PartsBridge` → `SafeHandler` → `handler` — resetting and reading the mapping flag around each
 * one as the driver does, and returns the final response the handler received.
 */
export function replayThroughChain(replay: Replay): ChatResponse {
  const controller = new StreamController();
  const sink = new FinalResponseSink();
  const tracker = new MappingTrackingHandler(new PartsBridge(new SafeHandler(sink, controller)));
  const context: { readonly streamingHandle: StreamingHandle } = { streamingHandle: controller };
  let unmapped = 0;
  for (const call of replay.calls) {
    tracker.resetMappingTracking();
    switch (call.kind) {
      case 'thinking':
        tracker.onPartialThinking(call.value, context);
        break;
      case 'response':
        tracker.onPartialResponse(call.value, context);
        break;
      case 'tool-delta':
        tracker.onPartialToolCall(call.value, context);
        break;
      case 'tool-complete':
        tracker.onCompleteToolCall(call.value);
        break;
    }
    if (!tracker.wasMapped()) unmapped++;
  }
  tracker.resetMappingTracking();
  tracker.onCompleteResponse(replay.providerResponse);
  if (unmapped !== 0) throw new Error(`${unmapped} replayed callbacks did not count as mapped`);
  return sink.take();
}

/** The callback floor: the same callbacks, their strings only pushed into arrays and joined once. */
export function replayFloor(replay: Replay): Extracted {
  const text: string[] = [];
  const reasoning: string[] = [];
  const args: string[][] = [];
  for (const call of replay.calls) {
    switch (call.kind) {
      case 'thinking':
        if (call.value.text !== '') reasoning.push(call.value.text);
        break;
      case 'response':
        text.push(call.value.text);
        break;
      case 'tool-delta':
        (args[call.value.index] ??= []).push(call.value.partialArguments);
        break;
      case 'tool-complete':
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
