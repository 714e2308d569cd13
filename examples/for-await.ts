/**
 * `for await` over a ChatStream: each event is a `{type, …}` object. Breaking out of the loop
 * cancels the stream; the outcome then holds everything received before the cancel.
 *
 * Run: npx ts-node --transpile-only examples/for-await.ts
 */
import { ChatStream, consumeStream } from 'partstream';

// An Ollama /api/chat stream (NDJSON): five tokens, then the done line.
const tokens = ['One', ' two', ' three', ' four', ' five'];
async function* source(): AsyncIterable<string> {
  for (const token of tokens) {
    await new Promise((resolve) => setTimeout(resolve, 5)); // the network takes its time
    yield `${JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content: token }, done: false })}\n`;
  }
  yield `${JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`;
}

async function main(): Promise<void> {
  const stream = new ChatStream();
  const outcome = consumeStream(source(), stream, { format: 'ollama' });

  let received = 0;
  for await (const event of stream) {
    if (event.type === 'partialResponse') {
      console.log(`token: ${JSON.stringify(event.partial.text)}`);
      if (++received === 3) break; // enough: cancels the stream
    } else {
      console.log(`event: ${event.type}`);
    }
  }

  const result = await outcome;
  console.log(`outcome: ${result.status}`);
  if (result.status !== 'completed') console.log(`kept: ${JSON.stringify(result.partial.aiMessage.text)}`);
}

main().catch((error: unknown) => console.log(`failed: ${String(error)}`));
