/**
 * Cancelling a stream, two ways:
 *  1. from inside a callback, with `context.streamingHandle.cancel()` — nothing is called after
 *     it, the source is closed, and the outcome keeps everything received so far;
 *  2. before the first token, with an `AbortSignal` that is already aborted — the source is
 *     never read.
 *
 * Run: npx ts-node --transpile-only examples/cancel.ts
 */
import { consumeStream, type StreamingChatResponseHandler } from 'partstream';

// A Gemini streamGenerateContent stream (SSE): one chunk per word, then the finish reason.
const words = ['Streams', ' can', ' be', ' stopped', ' at', ' any', ' token.'];

function geminiChunk(text: string, finishReason?: string): string {
  const candidate = { content: { role: 'model', parts: [{ text }] }, ...(finishReason ? { finishReason } : {}) };
  return `data: ${JSON.stringify({ candidates: [candidate], modelVersion: 'gemini-2.5-flash' })}\r\n\r\n`;
}

/** A slow source that says when it is read and when it is closed. */
async function* slowSource(log: string[]): AsyncGenerator<string> {
  let sent = 0;
  try {
    for (const [i, word] of words.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      sent++;
      yield geminiChunk(word, i === words.length - 1 ? 'STOP' : undefined);
    }
  } finally {
    log.push(`source closed after ${sent} of ${words.length} chunks`);
  }
}

async function cancelFromCallback(): Promise<void> {
  console.log('1. cancel from a callback');
  const log: string[] = [];
  let tokens = 0;
  let callbacksAfterCancel = 0;
  const handler: StreamingChatResponseHandler = {
    onPartialResponse(partial, context) {
      if (context.streamingHandle.isCancelled()) callbacksAfterCancel++;
      console.log(`   token: ${JSON.stringify(partial.text)}`);
      if (++tokens === 3) {
        context.streamingHandle.cancel();
        context.streamingHandle.cancel(); // a second cancel is harmless
      }
    },
    onCompleteResponse: () => callbacksAfterCancel++,
    onError: () => callbacksAfterCancel++,
  };
  const outcome = await consumeStream(slowSource(log), handler, { format: 'gemini' });
  console.log(`   outcome: ${outcome.status}`);
  if (outcome.status === 'cancelled') console.log(`   kept: ${JSON.stringify(outcome.partial.aiMessage.text)}`);
  console.log(`   callbacks after cancel: ${callbacksAfterCancel}`);
  console.log(`   ${log.join('; ')}`);
}

async function cancelBeforeFirstToken(): Promise<void> {
  console.log('2. cancel before the first token');
  const controller = new AbortController();
  controller.abort(); // e.g. the user closed the page while the request was being prepared
  let read = false;
  async function* source(): AsyncGenerator<string> {
    read = true;
    yield geminiChunk('never seen', 'STOP');
  }
  const outcome = await consumeStream(
    source(),
    { onPartialResponse: () => console.log('   (never called)'), onCompleteResponse: () => undefined, onError: () => undefined },
    { format: 'gemini', signal: controller.signal },
  );
  console.log(`   outcome: ${outcome.status}, source read: ${read}, parts kept: ${outcome.status === 'cancelled' ? outcome.partial.aiMessage.parts.length : '-'}`);
}

async function main(): Promise<void> {
  await cancelFromCallback();
  await cancelBeforeFirstToken();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
