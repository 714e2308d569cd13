/**
 * A provider author's adapter for a made-up provider that streams Server-Sent Events, one event
 * name per kind of token:
 *
 *   think  <text>                       reasoning token
 *   text   <text>                       answer token
 *   args   <i> <name> <json piece>      a piece of tool call i's arguments
 *   call   <i> <name> <json>            tool call i, complete
 *   end    <stop|length> <input tokens> <output tokens>
 *
 * The adapter is a `StreamMapper`: `map` turns one event into typed callbacks on `target.handler`
 * (`end` completes the response; true says it was the last event), and `end` runs when the body
 * ran out before any terminal callback. `consumeStream(body, handler, { format: 'sse', adapter })`
 * does the rest — framing, the ordered final message, the terminal gate, cancellation, timeouts,
 * throwing callbacks — and surfaces the events the adapter does not model (here `ping` and
 * `cite`) raw, untouched.
 *
 * Run: npx ts-node --transpile-only examples/custom-adapter.ts
 */
import { consumeStream, StreamError, type StreamingChatResponseHandler } from 'partstream';
import {
  aiMessage,
  chatResponse,
  completeToolCall,
  partialResponse,
  partialThinking,
  partialToolCall,
  responseMetadata,
  tokenUsage,
  type MapperTarget,
  type SseFrame,
  type StreamMapper,
} from 'partstream/adapters';

/** Maps one stream of the made-up provider; one instance per stream. */
class MadeUpMapper implements StreamMapper<SseFrame> {
  /** The made-up provider sends Server-Sent Events. */
  readonly framing = 'sse' as const;

  map(frame: SseFrame, target: MapperTarget): boolean {
    const { handler, handle } = target;
    const context = { streamingHandle: handle };
    const [first = '', second = '', ...rest] = frame.data.split(' ');
    switch (frame.event) {
      case 'think':
        handler.onPartialThinking?.(partialThinking(frame.data), context);
        return false;
      case 'text':
        handler.onPartialResponse?.(partialResponse(frame.data), context);
        return false;
      case 'args':
        handler.onPartialToolCall?.(partialToolCall(Number(first), null, second, rest.join(' ')), context);
        return false;
      case 'call':
        handler.onCompleteToolCall?.(completeToolCall(Number(first), { id: null, name: second, arguments: rest.join(' ') }));
        return false;
      case 'end': {
        const metadata = responseMetadata({ finishReason: first === 'length' ? 'LENGTH' : 'STOP', tokenUsage: tokenUsage(Number(second), Number(rest[0])) });
        // The driver replaces the (empty) message with the aggregated, ordered parts.
        handler.onCompleteResponse(chatResponse(aiMessage([]), metadata));
        return true; // the last event: the driver stops reading
      }
      default:
        return false; // not modelled: nothing typed fired, so the driver surfaces the event raw
    }
  }

  /** Called only when the body ran out and no terminal callback was delivered: the end event never came. */
  end(target: MapperTarget): void {
    target.handler.onError(new StreamError('truncated', 'The made-up stream ended without its end event'));
  }
}

/** The body as the provider would send it, in a few network chunks. */
async function* body(events: ReadonlyArray<readonly [string, string]>): AsyncGenerator<string> {
  for (const [event, data] of events) yield `event: ${event}\ndata: ${data}\n\n`;
}

const events = [
  ['think', 'Need the time.'],
  ['ping', '{}'],
  ['args', '0 clock {"tz":'],
  ['args', '0 clock "UTC"}'],
  ['call', '0 clock {"tz":"UTC"}'],
  ['text', 'It is '],
  ['cite', 'worldclock'],
  ['text', 'noon.'],
  ['end', 'stop 12 9'],
] as const;

const handler: StreamingChatResponseHandler = {
  onPartialThinking: (partial) => console.log(`thinking: ${partial.text}`),
  onPartialResponse: (partial) => console.log(`text: ${partial.text}`),
  onCompleteToolCall: (call) => console.log(`tool: ${call.toolExecutionRequest.name} ${call.toolExecutionRequest.arguments}`),
  onUnmappedRawEvent: (raw) => console.log(`raw: ${JSON.stringify(raw)}`),
  onCompleteResponse: (response) => {
    const { parts, text } = response.aiMessage;
    console.log(`final: ${JSON.stringify(text)} parts=${parts.map((part) => part.type).join(',')} usage=${response.metadata.tokenUsage?.totalTokenCount}`);
  },
  onError: (error) => console.log(`error: ${error.message}`),
};

async function main(): Promise<void> {
  // `adapter` creates the mapper, once per stream.
  const outcome = await consumeStream(body(events), handler, { format: 'sse', adapter: () => new MadeUpMapper() });
  console.log(`outcome: ${outcome.status}`);
  // A stream cut off before its end event: one onError, and what arrived is kept.
  const cut = await consumeStream(body(events.slice(0, 6)), handler, { format: 'sse', adapter: () => new MadeUpMapper() });
  if (cut.status === 'failed') console.log(`outcome: failed (${cut.error.name}), kept ${JSON.stringify(cut.partial.aiMessage.text)}`);
}

void main();
