/**
 * The emitter: subscribe to typed events with `.on(...)`, then await the final message, whose
 * parts keep the order the model produced them in (reasoning, text, tool call).
 *
 * Run: npx ts-node --transpile-only examples/emitter.ts
 */
import { ChatStream, consumeStream } from 'partstream';

// A short Anthropic Messages stream: thinking (with its signature), text, then a tool call.
const events: Array<[string, object]> = [
  ['message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-sonnet-4', usage: { input_tokens: 20, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'User wants weather.' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Checking.' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 2 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } }],
  ['message_stop', { type: 'message_stop' }],
];

async function* source(): AsyncIterable<string> {
  for (const [name, data] of events) yield `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

async function main(): Promise<void> {
  const stream = new ChatStream();
  stream.on('partialThinking', (partial) => console.log(partial.payload ? `signature: ${partial.payload.provider}/${partial.payload.kind}` : `thinking: ${JSON.stringify(partial.text)}`));
  stream.on('partialResponse', (partial) => console.log(`text: ${JSON.stringify(partial.text)}`));
  stream.on('completeToolCall', (call) => console.log(`tool call: ${call.toolExecutionRequest.name} ${call.toolExecutionRequest.arguments}`));
  stream.on('error', (error) => console.log(`error: ${error.message}`));

  void consumeStream(source(), stream, { format: 'anthropic' });

  const final = await stream.finalResponse();
  console.log(`parts: ${JSON.stringify(final.aiMessage.parts.map((part) => part.type))}`);
  console.log(`finish: ${final.metadata.finishReason}`);
}

main().catch((error: unknown) => console.log(`failed: ${String(error)}`));
