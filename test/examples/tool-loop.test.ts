import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

// Runs examples/tool-loop.ts as its own process, as a user would: its stand-in server records
// every request body and the example prints each provider's answer and second request body. The
// second request must send the assistant turn back with its payload and its arguments as the same
// JSON values, then the tool result in the provider's own shape (written by hand below). The
// example imports 'partstream', which Node resolves to dist/ (rebuilt first when older than lib/,
// as for the other examples).

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
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQBcsjafD3+/LocalThoughtSignature=' }],
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

/** The answer and the second request body of each provider, from what the example printed. */
function sections(stdout: string): Map<string, { answer: unknown; secondRequest: unknown }> {
  const found = new Map<string, { answer: unknown; secondRequest: unknown }>();
  const heading = /^== ([\w-]+): answer (.*); the second request body:$/gm;
  const headings = [...stdout.matchAll(heading)];
  headings.forEach((match, i) => {
    const end = i + 1 < headings.length ? headings[i + 1].index : stdout.length;
    const body = stdout.slice(match.index + match[0].length, end);
    found.set(match[1], { answer: JSON.parse(match[2]) as unknown, secondRequest: JSON.parse(body) as unknown });
  });
  return found;
}

describe('examples/tool-loop.ts (run as its own process)', function () {
  this.timeout(120_000);
  let printed: Map<string, { answer: unknown; secondRequest: unknown }>;

  before(function () {
    ensureBuild(repo);
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join('examples', 'tool-loop.ts')], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 90_000,
    });
    expect({ status: run.status, stderr: run.stderr }).to.deep.equal({ status: 0, stderr: '' });
    printed = sections(run.stdout);
  });

  it('runs the loop with each of the five providers, in order', () => {
    expect([...printed.keys()]).to.deep.equal(['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'ollama']);
  });

  for (const provider of Object.keys(SECOND_REQUEST)) {
    it(`${provider}: the second request sends the assistant turn back with its payload, then the tool result`, () => {
      expect(printed.get(provider)).to.deep.equal({ answer: 'It is 21 °C in Paris.', secondRequest: SECOND_REQUEST[provider] });
    });
  }
});
