/**
 * A provider author's adapter for a made-up line protocol. Per event: reset the tracker, map the
 * event to typed callbacks, and surface it raw when nothing typed fired — so events partstream
 * does not model (here `PING` and `CITE`) still reach the user, untouched.
 *
 *   THINK <text>        reasoning token        TEXT <text>   answer token
 *   ARGS <i> <name> <json piece>               CALL <i> <name> <json>   (tool call delta / done)
 *   END <stop|length> <input tokens> <output tokens>
 *
 * Run: npx ts-node --transpile-only examples/custom-adapter.ts
 */
import {
  aiMessage,
  chatResponse,
  completeToolCall,
  MappingTrackingHandler,
  partialResponse,
  partialThinking,
  partialToolCall,
  PartsBridge,
  responseMetadata,
  SafeHandler,
  StreamController,
  tokenUsage,
  type StreamingChatResponseHandler,
} from 'partstream';

const wire = ['THINK Need the time.', 'PING', 'ARGS 0 clock {"tz":', 'ARGS 0 clock "UTC"}', 'CALL 0 clock {"tz":"UTC"}', 'TEXT It is ', 'CITE worldclock', 'TEXT noon.', 'END stop 12 9'];

/** Drives `user` through the same chain partstream's own adapters use. */
function runAdapter(lines: readonly string[], user: StreamingChatResponseHandler, signal?: AbortSignal): void {
  const controller = new StreamController(signal);
  const tracker = new MappingTrackingHandler(new PartsBridge(new SafeHandler(user, controller)));
  const context = { streamingHandle: controller };
  let ended = false;
  for (const line of lines) {
    if (controller.isCancelled()) break;
    const [verb, ...rest] = line.split(' ');
    tracker.resetMappingTracking();
    switch (verb) {
      case 'THINK':
        tracker.onPartialThinking(partialThinking(rest.join(' ')), context);
        break;
      case 'TEXT':
        tracker.onPartialResponse(partialResponse(line.slice('TEXT '.length)), context);
        break;
      case 'ARGS':
        tracker.onPartialToolCall(partialToolCall(Number(rest[0]), null, rest[1], rest.slice(2).join(' ')), context);
        break;
      case 'CALL':
        tracker.onCompleteToolCall(completeToolCall(Number(rest[0]), { id: null, name: rest[1], arguments: rest.slice(2).join(' ') }));
        break;
      case 'END': {
        ended = true;
        const metadata = responseMetadata({
          finishReason: rest[0] === 'length' ? 'LENGTH' : 'STOP',
          tokenUsage: tokenUsage(Number(rest[1]), Number(rest[2])),
        });
        // The bridge replaces the (empty) message with the aggregated, ordered parts.
        tracker.onCompleteResponse(chatResponse(aiMessage([]), metadata));
        break;
      }
      default:
        break; // not modelled: surfaced raw below
    }
    if (!tracker.wasMapped()) tracker.onUnmappedRawEvent(line);
  }
  if (!ended && !controller.isCancelled()) tracker.onError(new Error('The stream ended without END'));
  controller.dispose();
}

runAdapter(wire, {
  onPartialThinking: (partial) => console.log(`thinking: ${partial.text}`),
  onPartialResponse: (partial) => console.log(`text: ${partial.text}`),
  onCompleteToolCall: (call) => console.log(`tool: ${call.toolExecutionRequest.name} ${call.toolExecutionRequest.arguments}`),
  onUnmappedRawEvent: (raw) => console.log(`raw: ${String(raw)}`),
  onCompleteResponse: (response) => {
    const { parts, text } = response.aiMessage;
    console.log(`final: ${JSON.stringify(text)} parts=${parts.map((part) => part.type).join(',')} usage=${response.metadata.tokenUsage?.totalTokenCount}`);
  },
  onError: (error) => console.log(`error: ${error.message}`),
});
