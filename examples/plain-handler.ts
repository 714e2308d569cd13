/**
 * A plain handler object: print tokens as they arrive, then the final ordered parts.
 *
 * Run: npx ts-node --transpile-only examples/plain-handler.ts
 */
import { consumeStream, type StreamingChatResponseHandler } from 'partstream';

// A short OpenAI Chat Completions stream, as `fetch(...).body` would deliver it.
const body = [
  'data: {"id":"chatcmpl-1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"}}]}\n\n',
  'data: {"id":"chatcmpl-1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":", world"}}]}\n\n',
  'data: {"id":"chatcmpl-1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],',
  '"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}\n\n',
  'data: [DONE]\n\n',
];

async function* source(): AsyncIterable<string> {
  yield* body;
}

const handler: StreamingChatResponseHandler = {
  onPartialResponse(partial) {
    console.log(`token: ${JSON.stringify(partial.text)}`);
  },
  onCompleteResponse(response) {
    console.log(`text: ${response.aiMessage.text}`);
    console.log(`parts: ${JSON.stringify(response.aiMessage.parts.map((part) => part.type))}`);
    console.log(`finish: ${response.metadata.finishReason}, tokens: ${response.metadata.tokenUsage?.totalTokenCount}`);
  },
  onError(error) {
    console.log(`error: ${error.name}: ${error.message}`);
  },
};

// consumeStream rejects only for misuse (a TypeError); a stream failure went to onError and is in the outcome.
consumeStream(source(), handler, { format: 'openai-chat' })
  .then((outcome) => console.log(`outcome: ${outcome.status}`))
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
