import { expect } from 'chai';
import path from 'node:path';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server';

// Runs the tool loop of examples/tool-loop.ts for each provider against the loopback server of
// test/support, which records every request body, and checks the second request: the assistant
// turn goes back with its payload byte for byte and its arguments as the same JSON value, then the
// tool result in the provider's own shape. The example imports 'partstream', which Node resolves
// to dist/ (rebuilt first when older than lib/, as for the other examples).

type Example = typeof import('../../examples/tool-loop');

const repo = path.resolve(__dirname, '../..');
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };

const RESULT = '{"city":"Paris","celsius":21}';
const USER = 'What is the weather in Paris?';

// Written by hand from the turn-one bodies of the example and each API's request reference.
const SECOND_REQUEST: Record<string, unknown> = {
  anthropic: {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    thinking: { type: 'enabled', budget_tokens: 512 },
    system: 'Answer briefly.',
    messages: [
      { role: 'user', content: USER },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Use the tool.', signature: 'EqQBCkYIBxgCKkB+s1g/n4tUr3xLocalSignature==' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: RESULT }] },
    ],
    stream: true,
  },
  'openai-chat': {
    model: 'openai/gpt-5',
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: USER },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }],
        reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAAABpRouterEncrypted+/==', id: 'rd_1', format: 'openai-responses-v1', index: 0 }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: RESULT },
    ],
    stream: true,
    stream_options: { include_usage: true },
  },
  'openai-responses': {
    model: 'gpt-5',
    store: false,
    include: ['reasoning.encrypted_content'],
    instructions: 'Answer briefly.',
    input: [
      { role: 'user', content: USER },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Use the tool.' }], encrypted_content: 'gAAAAABpResponsesEncrypted_-==' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: RESULT },
    ],
    stream: true,
  },
  gemini: {
    systemInstruction: { parts: [{ text: 'Answer briefly.' }] },
    contents: [
      { role: 'user', parts: [{ text: USER }] },
      {
        role: 'model',
        // The thought summary came without a signature (that rode on the call): not sent back.
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQBcsjafD3+/LocalThoughtSignature=' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: RESULT } } }] },
    ],
  },
  ollama: {
    model: 'qwen3',
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: USER },
      { role: 'assistant', content: '', thinking: 'Use the tool.', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
      { role: 'tool', content: RESULT, tool_name: 'get_weather' },
    ],
    stream: true,
  },
};

describe('examples/tool-loop.ts against the loopback server', function () {
  this.timeout(120_000);
  let example: Example;

  before(async function () {
    this.timeout(120_000);
    ensureBuild(repo);
    example = await import('../../examples/tool-loop');
  });

  for (const provider of Object.keys(SECOND_REQUEST)) {
    it(`${provider}: the second request sends the assistant turn back with its payload, then the tool result`, async () => {
      let server: LoopbackServer | null = null;
      try {
        const p = provider as keyof Example['TURN_ONE'];
        server = await startLoopbackServer((_request, index) => ({
          headers: { 'content-type': p === 'ollama' ? 'application/x-ndjson' : 'text/event-stream' },
          body: index === 0 ? example.TURN_ONE[p] : example.TURN_TWO[p],
        }));
        const answer = await example.toolLoop(p, server.url);
        expect(answer).to.equal('It is 21 °C in Paris.');
        expect(server.requests).to.have.length(2);
        expect(JSON.parse(server.requests[1]!.body)).to.deep.equal(SECOND_REQUEST[provider]);
        // The payload goes back as the very bytes it came as (no re-encoding on the way).
        for (const payload of Object.values(example.PAYLOADS)) {
          const sent = server.requests[1]!.body.includes(JSON.stringify(payload));
          expect(sent, payload).to.equal(example.TURN_ONE[p].includes(payload));
        }
      } finally {
        await server?.close();
      }
    });
  }
});
