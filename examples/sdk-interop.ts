/**
 * Keeping an official SDK for the request, and partstream for the stream. The SDK sends the call
 * (its auth, its retries, its options) and hands back the raw HTTP response with `.asResponse()`;
 * `consumeStream` reads that response and drives the handler. A small local server stands in for
 * OpenAI and Anthropic, so this runs offline: point the SDK's `baseURL` at the real service (or
 * drop it) for real use.
 *  1. openai: `client.chat.completions.create({ ..., stream: true }).asResponse()`
 *  2. @anthropic-ai/sdk: `client.messages.create({ ..., stream: true }).asResponse()`
 *  3. the SDK's parsed stream (events, not bytes) is refused with a TypeError that says what to pass.
 *
 * Run: npx ts-node --transpile-only examples/sdk-interop.ts
 */
import Anthropic from '@anthropic-ai/sdk';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { StreamingChatResponseHandler } from 'partstream';
import { consumeStream } from 'partstream';

const openAIStream = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'High tide in Brest' } }] },
  { choices: [{ index: 0, delta: { content: ' is at 14:05.' }, finish_reason: 'stop' }] },
  { choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } },
]
  .map((chunk) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-local', ...chunk })}\n\n`)
  .concat('data: [DONE]\n\n');

const anthropicStream = (
  [
    ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-local', content: [], usage: { input_tokens: 12, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Low tide is' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' at 20:20.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 8 } }],
    ['message_stop', { type: 'message_stop' }],
  ] satisfies [string, object][]
).map(([event, data]) => `event: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`);

let openAICalls = 0;

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  for await (const piece of request) void piece;
  const auth = request.headers['x-api-key'] ?? request.headers.authorization;
  if (request.url === '/v1/chat/completions' && ++openAICalls === 1) {
    // The first call is rate-limited: the SDK retries it on its own, as it would against OpenAI.
    console.log(`   server: ${request.url} → 429 (auth ${String(auth)})`);
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '10' });
    response.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
    return;
  }
  console.log(`   server: ${request.url} → 200 (auth ${String(auth)})`);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end((request.url === '/v1/messages' ? anthropicStream : openAIStream).join(''));
}

const printer: StreamingChatResponseHandler = {
  onPartialResponse: (partial) => console.log(`   text: ${JSON.stringify(partial.text)}`),
  onCompleteResponse: (response) => console.log(`   done: ${JSON.stringify(response.aiMessage.text)} finish=${response.metadata.finishReason}`),
  onError: (error) => console.log(`   error: ${error.message}`),
};

async function main(): Promise<void> {
  const server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    console.log('1. openai: .asResponse() into consumeStream');
    const openai = new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'sk-local-example' });
    const raw = await openai.chat.completions.create({ model: 'gpt-local', messages: [{ role: 'user', content: 'High tide in Brest?' }], stream: true }).asResponse();
    const outcome = await consumeStream(raw, printer, { format: 'openai-chat' });
    console.log(`   outcome: ${outcome.status}`);

    console.log('2. @anthropic-ai/sdk: .asResponse() into consumeStream');
    const anthropic = new Anthropic({ baseURL: origin, apiKey: 'sk-ant-local-example' });
    const message = await anthropic.messages.create({ model: 'claude-local', max_tokens: 256, messages: [{ role: 'user', content: 'Low tide?' }], stream: true }).asResponse();
    const second = await consumeStream(message, printer, { format: 'anthropic' });
    console.log(`   outcome: ${second.status}`);

    console.log('3. the parsed stream instead of the response');
    const parsed = await openai.chat.completions.create({ model: 'gpt-local', messages: [], stream: true });
    try {
      await consumeStream(parsed as never, printer, { format: 'openai-chat' });
    } catch (error) {
      console.log(`   ${String(error)}`);
    } finally {
      parsed.controller.abort();
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
