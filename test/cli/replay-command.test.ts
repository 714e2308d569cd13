import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_RECORDING } from '../../lib/cli/demo-recording';
import { USAGE } from '../../lib/cli/parse-args';
import { jsonEvents, runCli } from './run-cli';

const THINKING = "The user asks whether the Pont des Arts is open this weekend and what the weather will be.\n\nI'll search for closure notices first, then ask the weather tool for Paris.";
const TEXT = 'I found no closure notice for the Pont des Arts this weekend, so it should be open as usual — let me check the forecast for Paris.';
const ARGUMENTS = '{"city": "Paris", "days": 2, "unit": "°C"}';
/** The server-side search blocks as the API takes them back: the query assembled from its input_json_delta pieces. */
const SEARCH_CALL = '{"type":"server_tool_use","id":"srvtoolu_01DemoWebSearch4Hk8","name":"web_search","input":{"query":"Pont des Arts closure this weekend"}}';
const SEARCH_RESULT =
  '{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01DemoWebSearch4Hk8","content":[{"type":"web_search_result","title":"Pont des Arts – opening hours and works notices","url":"https://example.org/paris/pont-des-arts","encrypted_content":"EpQBCioIBxgCIiQ5ZGVtby1yZXN1bHQtZW5jcnlwdGVkLWNvbnRlbnQtb25seRIMDemoOnlyPayload","page_age":"3 days ago"}]}';

/** The SSE event names of the embedded recording that no typed callback covers, in order. */
const RAW_EVENTS = [
  'message_start',
  'content_block_start',
  'ping',
  'content_block_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_delta',
  'content_block_delta',
  'content_block_stop',
  'content_block_start',
  'content_block_stop',
  'ping',
  'content_block_start',
  'content_block_stop',
  'content_block_start',
  'content_block_delta',
  'message_delta',
  'message_stop',
];

async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

describe('partstream replay (the embedded recording)', () => {
  it('--json prints thinking, the signature, raw server-tool events, text, a growing tool call, then the final response', async () => {
    const run = await runCli(['replay', '--json']);
    const events = jsonEvents(run.stdout);
    const typed = events.filter((event) => event.event !== 'unmappedRawEvent' && event.event !== 'completeResponse');
    const raw = events.filter((event) => event.event === 'unmappedRawEvent').map((event) => (event.raw as { event: string }).event);
    const final = events[events.length - 1].response as { aiMessage: Record<string, unknown>; metadata: unknown };

    expect({ status: run.status, stderr: run.stderr, last: events[events.length - 1].event, raw }).to.deep.equal({
      status: 0,
      stderr: '',
      last: 'completeResponse',
      raw: RAW_EVENTS,
    });
    expect(typed).to.deep.equal([
      { event: 'partialThinking', text: 'The user asks whether' },
      { event: 'partialThinking', text: ' the Pont des Arts is open' },
      { event: 'partialThinking', text: ' this weekend and what the' },
      { event: 'partialThinking', text: " weather will be.\n\nI'll search" },
      { event: 'partialThinking', text: ' for closure notices first,' },
      { event: 'partialThinking', text: ' then ask the weather tool' },
      { event: 'partialThinking', text: ' for Paris.' },
      { event: 'partialThinking', text: '' },
      { event: 'partialResponse', text: 'I found no' },
      { event: 'partialResponse', text: ' closure notice for' },
      { event: 'partialResponse', text: ' the Pont des Arts' },
      { event: 'partialResponse', text: ' this weekend, so' },
      { event: 'partialResponse', text: ' it should be open' },
      { event: 'partialResponse', text: ' as usual — let me' },
      { event: 'partialResponse', text: ' check the forecast' },
      { event: 'partialResponse', text: ' for Paris.' },
      { event: 'partialToolCall', index: 0, id: 'toolu_01DemoGetWeather9Xq2', name: 'get_weather', partialArguments: '{"city": "Pa' },
      { event: 'partialToolCall', index: 0, id: 'toolu_01DemoGetWeather9Xq2', name: 'get_weather', partialArguments: 'ris", "days": ' },
      { event: 'partialToolCall', index: 0, id: 'toolu_01DemoGetWeather9Xq2', name: 'get_weather', partialArguments: '2, "unit": "°C"}' },
      { event: 'completeToolCall', index: 0, id: 'toolu_01DemoGetWeather9Xq2', name: 'get_weather', arguments: ARGUMENTS },
    ]);
    const signature = /"signature":"([^"]+)"/.exec(DEMO_RECORDING)?.[1];
    expect(final).to.deep.equal({
      aiMessage: {
        parts: [
          { type: 'reasoning', text: THINKING, summary: null, payload: { provider: 'anthropic', kind: 'signature', data: signature }, attributes: {} },
          { type: 'unknown', provider: 'anthropic', kind: 'server_tool_use', rawJson: SEARCH_CALL, payload: null, attributes: {} },
          { type: 'unknown', provider: 'anthropic', kind: 'web_search_tool_result', rawJson: SEARCH_RESULT, payload: null, attributes: {} },
          { type: 'text', text: TEXT, payload: null, attributes: {} },
          {
            type: 'tool_call',
            toolCall: { id: 'toolu_01DemoGetWeather9Xq2', type: 'function', name: 'get_weather', arguments: ARGUMENTS },
            payload: null,
            attributes: {},
          },
        ],
        text: TEXT,
        thinking: THINKING,
        toolExecutionRequests: [{ id: 'toolu_01DemoGetWeather9Xq2', name: 'get_weather', arguments: ARGUMENTS }],
        attributes: {},
      },
      metadata: {
        id: 'msg_01PsDemoReplay7Vb2Qk4Zt9',
        modelName: 'claude-sonnet-4-5-20250929',
        tokenUsage: {
          inputTokenCount: 1873,
          outputTokenCount: 214,
          totalTokenCount: 2087,
          cacheReadInputTokenCount: 0,
          cacheWriteInputTokenCount: 0,
          reasoningTokenCount: null,
        },
        finishReason: 'TOOL_EXECUTION',
        providerFinishReason: 'tool_use',
        providerUsage: {
          input_tokens: 1873,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 214,
          service_tier: 'standard',
          server_tool_use: { web_search_requests: 1 },
        },
        providerMetadata: { stop_sequence: null },
      },
    });
  });

  it('shows the stream for a person: labelled sections, raw events one line each, then the final message', async () => {
    const run = await runCli(['replay']);
    const lines = run.stdout.split('\n');
    expect({
      status: run.status,
      raw: lines.filter((line) => line.startsWith('raw ')).map((line) => line.split(' ')[1]),
      rest: lines.filter((line) => !line.startsWith('raw ')),
    }).to.deep.equal({
      status: 0,
      raw: RAW_EVENTS,
      rest: [
        'replaying the embedded recording (format: anthropic)',
        '',
        'thinking: The user asks whether the Pont des Arts is open this weekend and what the weather will be.',
        '',
        "I'll search for closure notices first, then ask the weather tool for Paris. [anthropic signature, 301 chars]",
        `text: ${TEXT}`,
        `tool call #0 get_weather toolu_01DemoGetWeather9Xq2: ${ARGUMENTS}`,
        `tool call #0 complete: get_weather toolu_01DemoGetWeather9Xq2 ${ARGUMENTS}`,
        '',
        '── final message ──',
        'parts (5):',
        '  1. reasoning   [anthropic signature] "The user asks whether the Pont des Arts is open this weekend and what the weath…',
        '  2. unknown     anthropic/server_tool_use {"type":"server_tool_use","id":"srvtoolu_01DemoWebSearch4Hk8","name":"web_se…',
        '  3. unknown     anthropic/web_search_tool_result {"type":"web_search_tool_result","tool_use_id":"srvtoolu_01DemoWebSea…',
        '  4. text        "I found no closure notice for the Pont des Arts this weekend, so it should be open as usual — let me …',
        `  5. tool_call   get_weather toolu_01DemoGetWeather9Xq2 ${ARGUMENTS}`,
        'usage: 1873 input, 214 output, 2087 total tokens (cache read 0, cache write 0)',
        'finish reason: TOOL_EXECUTION',
        'id: msg_01PsDemoReplay7Vb2Qk4Zt9   model: claude-sonnet-4-5-20250929',
        '',
      ],
    });
  });

  it('dims the thinking on a colour terminal, and prints no escape codes with NO_COLOR or without a terminal', async () => {
    const [tty, noColor, pipe] = await Promise.all([runCli(['replay'], { isTTY: true }), runCli(['replay'], { isTTY: true, env: { NO_COLOR: '1' } }), runCli(['replay'], { isTTY: false })]);
    expect({
      dimThinking: tty.stdout.includes('\u001b[2;3mThe user asks whether\u001b[22;23m'),
      noColor: noColor.stdout.includes('\u001b['),
      pipe: pipe.stdout.includes('\u001b['),
    }).to.deep.equal({ dimThinking: true, noColor: false, pipe: false });
  });

  it('reads the same recording from standard input with "-", in pieces that split UTF-8 characters', async () => {
    const [embedded, stdin] = await Promise.all([runCli(['replay', '--json']), runCli(['replay', '-', '--json'], { stdin: pieces(DEMO_RECORDING, 7) })]);
    expect({ status: stdin.status, stdout: stdin.stdout }).to.deep.equal({ status: 0, stdout: embedded.stdout });
  });

  it('stops when cancelled, shows what arrived before, and exits 130', async () => {
    const controller = new AbortController();
    async function* cutShort(): AsyncGenerator<string> {
      yield DEMO_RECORDING.slice(0, DEMO_RECORDING.indexOf('event: content_block_stop'));
      controller.abort();
      yield DEMO_RECORDING.slice(DEMO_RECORDING.indexOf('event: content_block_stop'));
    }
    const run = await runCli(['replay', '-'], { stdin: cutShort(), signal: controller.signal });
    expect({ status: run.status, summary: run.stdout.slice(run.stdout.indexOf('──')).split('\n').slice(0, 3) }).to.deep.equal({
      status: 130,
      summary: [
        '── received before the stream was cancelled ──',
        'parts (1):',
        '  1. reasoning   [anthropic signature] "The user asks whether the Pont des Arts is open this weekend and what the weath…',
      ],
    });
  });
});

describe('partstream replay (failures and usage)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'partstream-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects a file of no known format with one line naming what was expected and what was found, exit 1', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'Shopping list\n- eggs\n- milk\n');
    const [human, json] = await Promise.all([runCli(['replay', file]), runCli(['replay', file, '--json'])]);
    const message = /^partstream: stream error: (.*)\n$/.exec(human.stderr)?.[1] ?? `(not one line: ${JSON.stringify(human.stderr)})`;
    expect({ human, json }).to.deep.equal({
      human: { status: 1, stdout: `replaying ${file} (format: auto)\n\n`, stderr: `partstream: stream error: ${message}\n` },
      json: { status: 1, stdout: `${JSON.stringify({ event: 'error', message })}\n`, stderr: `partstream: stream error: ${message}\n` },
    });
    expect(message).to.match(/^Expected a stream of a known format \(.*\), got text that is not Server-Sent Events: "Shopping list/);
  });

  it('reports a stream that breaks off with a one-line error and a summary of what arrived, exit 1', async () => {
    const file = path.join(dir, 'cut.sse');
    writeFileSync(file, DEMO_RECORDING.slice(0, DEMO_RECORDING.indexOf('event: content_block_stop')));
    const run = await runCli(['replay', file]);
    expect({
      status: run.status,
      stderrLines: run.stderr.split('\n').length,
      stderrStart: run.stderr.startsWith('partstream: stream error: '),
      summary: run.stdout.includes('── received before the stream failed ──\nparts (1):\n  1. reasoning'),
    }).to.deep.equal({ status: 1, stderrLines: 2, stderrStart: true, summary: true });
  });

  it('marks a tool call cut off by the token limit as incomplete in the summary', async () => {
    const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const body = [
      event('message_start', {
        type: 'message_start',
        message: { id: 'msg_cut', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 5, output_tokens: 1 } },
      }),
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_cut', name: 'get_weather', input: {} } }),
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "Par' } }),
      event('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 9 } }),
      event('message_stop', { type: 'message_stop' }),
    ].join('');
    const run = await runCli(['replay', '-'], {
      stdin: (async function* () {
        yield body;
      })(),
    });
    expect({ status: run.status, line: run.stdout.split('\n').find((line) => line.startsWith('  1. ')) }).to.deep.equal({
      status: 0,
      line: '  1. tool_call   INCOMPLETE (cut off) get_weather toolu_cut {"city": "Par',
    });
  });

  it('exits 2 with one line for a missing file or a directory', async () => {
    const missing = path.join(dir, 'nope.sse');
    const [absent, directory] = await Promise.all([runCli(['replay', missing]), runCli(['replay', dir])]);
    expect([absent, directory]).to.deep.equal([
      { status: 2, stdout: '', stderr: `partstream: cannot read ${missing}: no such file\n` },
      { status: 2, stdout: '', stderr: `partstream: cannot replay ${dir}: expected a file, got a directory\n` },
    ]);
  });

  it('exits 2 for bad usage, pointing at --help, and 0 for --help', async () => {
    const [bad, help] = await Promise.all([runCli(['replay', '--format', 'claude']), runCli(['--help'])]);
    expect([bad, help]).to.deep.equal([
      {
        status: 2,
        stdout: '',
        stderr: 'partstream: unknown format "claude": expected one of auto, openai-chat, openai-responses, anthropic, gemini, ollama, bedrock-converse\n(run "partstream --help" for usage)\n',
      },
      { status: 0, stdout: `${USAGE}\n`, stderr: '' },
    ]);
  });
});
