/**
 * Consuming a provider's stream over HTTP. A small local server stands in for an
 * OpenAI-compatible endpoint (as vLLM, Ollama's /v1 or a proxy would), so this runs offline:
 *  1. `streamOpenAIChat` sends the request and drives a handler with the streamed answer;
 *  2. an HTTP error status arrives as one `onError` with a `StreamError` (kind `http`);
 *  3. a `Response` you fetched yourself goes to `consumeStream`, its format recognised (`auto`).
 * For the real service, drop `baseURL`: the key comes from `OPENAI_API_KEY` (or pass `apiKey`).
 *
 * Run: npx ts-node --transpile-only examples/consume-provider-stream.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consumeStream, StreamError, type StreamingChatResponseHandler } from 'partstream';
import { streamOpenAIChat } from 'partstream/http';

/** What the stand-in server streams: text, then a tool call whose arguments arrive in pieces. */
const chunks = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Let me look' } }] },
  { choices: [{ index: 0, delta: { content: ' that up.' } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_7', type: 'function', function: { name: 'search', arguments: '' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"q": "tide' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 's Brest"}' } }] } }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { choices: [], usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 } },
].map((chunk) => ({ id: 'chatcmpl-local-1', object: 'chat.completion.chunk', model: 'local-model', ...chunk }));

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const piece of request) text += String(piece);
  return JSON.parse(text) as Record<string, unknown>;
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.url === '/v1/chat/completions') {
    const body = await readJson(request);
    console.log(`   server got: model=${String(body.model)} stream=${String(body.stream)} auth=${request.headers.authorization}`);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
  } else if (request.url === '/recording') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
  } else {
    response.writeHead(429, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }));
    return;
  }
  for (const chunk of chunks) {
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  response.end('data: [DONE]\n\n');
}

/** Prints each callback as it arrives. */
const printer: StreamingChatResponseHandler = {
  onPartialResponse: (partial) => console.log(`   text: ${JSON.stringify(partial.text)}`),
  onPartialToolCall: (partial) => console.log(`   tool call #${partial.index} ${partial.name} += ${JSON.stringify(partial.partialArguments)}`),
  onCompleteToolCall: (call) => console.log(`   tool call ready: ${call.toolExecutionRequest.name}(${call.toolExecutionRequest.arguments}) id=${call.toolExecutionRequest.id}`),
  onCompleteResponse: (response) => {
    const { metadata, aiMessage } = response;
    console.log(`   done: parts=${aiMessage.parts.map((part) => part.type).join(',')} finish=${metadata.finishReason} tokens=${metadata.tokenUsage?.totalTokenCount}`);
  },
  onError: (error) => {
    const details = StreamError.isInstance(error) ? ` (kind ${error.kind}, status ${error.status}, code ${error.code})` : '';
    console.log(`   error: ${error.message}${details}`);
  },
};

async function main(): Promise<void> {
  const server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    console.log('1. the HTTP client');
    const request = { model: 'local-model', messages: [{ role: 'user' as const, content: 'When is high tide in Brest?' }] };
    const outcome = await streamOpenAIChat(request, printer, { baseURL: `${origin}/v1`, apiKey: 'sk-local-example' });
    console.log(`   outcome: ${outcome.status}`);

    console.log('2. an HTTP error status');
    // A 429 is retried twice by default (maxRetries); here retries are off to show the error at once.
    const failed = await streamOpenAIChat(request, printer, { baseURL: `${origin}/overloaded`, apiKey: 'sk-local-example', maxRetries: 0 });
    console.log(`   outcome: ${failed.status}`);

    console.log('3. a Response you fetched yourself');
    const response = await fetch(`${origin}/recording`);
    const own = await consumeStream(response, { onCompleteResponse: printer.onCompleteResponse, onError: printer.onError }, { format: 'auto' });
    console.log(`   outcome: ${own.status}, text: ${JSON.stringify(own.status === 'completed' ? own.response.aiMessage.text : null)}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
