import { handlerChain } from '../../lib/driver/handler-chain';
import type { MappingTrackingHandler } from '../../lib/tracker/mapping-tracking-handler';
import { StreamController } from '../../lib/driver/stream-controller';
import type { ChatResponse, ChatResponseMetadata, StreamingChatResponseHandler } from '../../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata } from '../../lib/handler/values';
import type { OpaquePayload } from '../../lib/parts/types';

/**
 * The composition a stream driver builds (`handlerChain`: user → SafeHandler(user, controller) →
 * PartsBridge(safe, controller.state) → MappingTrackingHandler(bridge)), contexts `{streamingHandle: controller}` —
 * with helpers that play the adapter's part, one provider event at a time.
 */
export function buildChain(user: StreamingChatResponseHandler, signal?: AbortSignal) {
  const controller = new StreamController(signal);
  const { safe, bridge, tracker } = handlerChain(user, controller);
  const context = Object.freeze({ streamingHandle: controller });

  /** One provider event: reset, map, surface raw when nothing typed fired — as an adapter does. */
  const event = (raw: unknown, map: (h: MappingTrackingHandler) => void = () => {}): boolean => {
    if (controller.isCancelled()) return false;
    tracker.resetMappingTracking();
    map(tracker);
    if (!tracker.wasMapped()) tracker.onUnmappedRawEvent(raw);
    return tracker.wasMapped();
  };

  return {
    controller,
    safe,
    bridge,
    tracker,
    context,
    event,
    text: (text: string, payload?: OpaquePayload) => event({ text }, (h) => h.onPartialResponse(partialResponse(text, payload), context)),
    thinking: (text: string, payload?: OpaquePayload) => event({ thinking: text }, (h) => h.onPartialThinking(partialThinking(text, payload), context)),
    toolDelta: (index: number, id: string | null, name: string, args: string) => event({ toolDelta: index }, (h) => h.onPartialToolCall(partialToolCall(index, id, name, args), context)),
    toolComplete: (index: number, id: string | null, name: string, args: string, payload?: OpaquePayload) =>
      event({ toolComplete: index }, (h) => h.onCompleteToolCall(completeToolCall(index, { id, name, arguments: args }, payload))),
    raw: (raw: unknown) => event(raw),
    complete: (metadata: Partial<ChatResponseMetadata> = {}, attributes: Record<string, string> = {}) => event({ done: true }, (h) => h.onCompleteResponse(providerResponse(metadata, attributes))),
    fail: (error: Error) => event({ error: error.message }, (h) => h.onError(error)),
  };
}

/** What an adapter passes to `onCompleteResponse`: metadata and attributes, no parts (the bridge supplies them). */
export function providerResponse(metadata: Partial<ChatResponseMetadata> = {}, attributes: Record<string, string> = {}): ChatResponse {
  return chatResponse(aiMessage([], attributes), responseMetadata(metadata));
}
