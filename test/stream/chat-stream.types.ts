/**
 * Compile-time checks of the typed events (run by `npx tsc --noEmit -p .`): every
 * `@ts-expect-error` line must fail to compile, every other line must compile.
 */
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatStreamEvent } from '../../lib/stream/chat-stream-events';

const stream = new ChatStream();

// Listeners receive the callback's arguments, typed.
stream.on('partialResponse', (partial, context) => {
  const text: string = partial.text;
  context.streamingHandle.cancel();
  void text;
});
stream.on('partialToolCall', (partial) => {
  const index: number = partial.index;
  const id: string | null = partial.id;
  void index;
  void id;
});
stream.once('completeResponse', (response) => {
  const parts = response.aiMessage.parts;
  void parts;
});
stream.on('error', (error: Error) => void error.message);
stream.on('unmappedRawEvent', (raw: unknown) => void raw);

// @ts-expect-error a listener parameter of the wrong type
stream.on('partialResponse', (partial: string) => void partial);
// @ts-expect-error a listener that expects a field the event does not carry
stream.on('completeToolCall', (complete: { partialArguments: string }) => void complete);
// @ts-expect-error the error listener receives an Error, not a string
stream.on('error', (error: string) => void error);
// @ts-expect-error an unknown event name
stream.on('partialResponses', () => undefined);
// @ts-expect-error an unknown event name, on once
stream.once('done', () => undefined);
// @ts-expect-error there is no public emit: events come only from the handler methods
stream.emit('completeResponse', { aiMessage: { parts: [] } });
// @ts-expect-error off with an unknown event name
stream.off('finished');

// The iterated events are a discriminated union on `type`.
async function iterate(): Promise<void> {
  for await (const event of stream) {
    const narrowed: ChatStreamEvent = event;
    void narrowed;
    if (event.type === 'partialThinking') {
      const thinking: string = event.partial.text;
      void thinking;
      // @ts-expect-error a partialThinking event carries no response
      void event.response;
    }
    if (event.type === 'completeResponse') {
      const text: string | null = event.response.aiMessage.text;
      void text;
    }
    // @ts-expect-error there is no such event type
    if (event.type === 'complete') break;
  }
}
void iterate;
