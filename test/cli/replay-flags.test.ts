import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_RECORDING } from '../../lib/cli/demo-recording';
import { formatHint, StreamHead } from '../../lib/cli/format-hint';
import { HumanView } from '../../lib/cli/human-view';
import { spawnSync } from 'node:child_process';
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };
import { parseArgs, USAGE } from '../../lib/cli/parse-args';
import { PLAIN_STYLE, useColour } from '../../lib/cli/text-style';
import { aiMessage, chatResponse, responseMetadata } from '../../lib/handler/values';
import { textPart } from '../../lib/parts/factories';
import { FIXTURES_DIR, REPO_ROOT, runCli } from './run-cli';
import { FIXTURES_ABSENT } from '../support/recorded-fixtures';
import { noteSkipped } from '../support/skips';

async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

/** Runs `partstream replay - <flags>` on `recording`, fed in 7-byte pieces. */
function replayText(recording: string, flags: readonly string[], env: Record<string, string> = {}): ReturnType<typeof runCli> {
  return runCli(['replay', '-', ...flags], { stdin: pieces(recording, 7), env });
}

/** From the summary title to the end of standard output. */
function summaryOf(stdout: string): string[] {
  return stdout.slice(stdout.indexOf('── ')).split('\n');
}

const chunk = (body: string): string => `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[${body}]}\n\n`;

/** An OpenAI Chat refusal whose text holds an escape sequence, a line break and a bidi override. */
const OPENAI_REFUSAL = [
  chunk('{"index":0,"delta":{"role":"assistant","content":null,"refusal":""},"finish_reason":null}'),
  chunk('{"index":0,"delta":{"refusal":"I can\'t help \\u001b[31mwith\\nthat.\\u202e"},"finish_reason":null}'),
  chunk('{"index":0,"delta":{},"finish_reason":"stop"}'),
  'data: [DONE]\n\n',
].join('');

/** A plain OpenAI Chat answer: two raw events read as Anthropic (`[DONE]` is framing, not an event). */
const OPENAI_TEXT = [chunk('{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}'), chunk('{"index":0,"delta":{},"finish_reason":"stop"}'), 'data: [DONE]\n\n'].join('');

const ANTHROPIC_START =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n';

/** An Anthropic refusal: stop_reason "refusal" with `stop_details`, no content. */
function anthropicRefusal(stopDetails: string): string {
  return [
    ANTHROPIC_START,
    `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"stop_details":${stopDetails}},"usage":{"output_tokens":5}}\n\n`,
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ].join('');
}

const GEMINI_TEXT = 'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"finishReason":"STOP","index":0}]}\n\n';
const OLLAMA_TEXT = '{"model":"m","created_at":"2024-01-01T00:00:00Z","message":{"role":"assistant","content":"Hi"},"done":true}\n';

describe('partstream --version', () => {
  it('prints "partstream <version>" from package.json for --version and -v, exit 0', async () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const [long, short, afterCommand] = await Promise.all([runCli(['--version']), runCli(['-v']), runCli(['replay', '--version'])]);
    const expected = { status: 0, stdout: `partstream ${manifest.version}\n`, stderr: '' };
    expect([long, short, afterCommand]).to.deep.equal([expected, expected, expected]);
  });

  it('prints the same from the compiled command the package ships (dist/), as an installed package runs it', () => {
    // The build is what `npm install` (prepare) leaves; the launcher runs it when it is up to date.
    ensureBuild(REPO_ROOT);
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'node', 'cli', 'main.js'))}).run(['--version'])`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).to.deep.equal({ status: 0, stdout: `partstream ${manifest.version}\n`, stderr: '' });
  });

  it('takes "-v" after "--" as a file name', () => {
    expect(parseArgs(['replay', '--', '-v'])).to.deep.equal({ type: 'replay', file: '-v', format: 'auto', json: false });
  });
});

describe('partstream --help', () => {
  it('lists every option, the --raw values, the colour variables and the exit statuses', async () => {
    const run = await runCli(['--help']);
    const mentioned = ['[FILE|-]', '--format FORMAT', '--json', '--raw RAW', 'none | short | full', '-v, --version', '-h, --help', 'NO_COLOR', 'FORCE_COLOR', '130'];
    expect({ status: run.status, missing: mentioned.filter((word) => !run.stdout.includes(word)), same: run.stdout === `${USAGE}\n` }).to.deep.equal({
      status: 0,
      missing: [],
      same: true,
    });
  });
});

describe('partstream replay --raw', () => {
  it('parses --raw VALUE and --raw=VALUE, and leaves the field out when not given', () => {
    expect([parseArgs(['replay', '--raw', 'none']), parseArgs(['replay', 'f.sse', '--raw=full'])]).to.deep.equal([
      { type: 'replay', file: null, format: 'auto', json: false, raw: 'none' },
      { type: 'replay', file: 'f.sse', format: 'auto', json: false, raw: 'full' },
    ]);
  });

  it('exits 2 for a missing or unknown value, and for --raw with --json (which prints every raw event)', async () => {
    const runs = await Promise.all([runCli(['replay', '--raw']), runCli(['replay', '--raw', 'some']), runCli(['replay', '--json', '--raw', 'none']), runCli(['replay', '--raw=short', '--json'])]);
    const usage = (message: string): unknown => ({ status: 2, stdout: '', stderr: `partstream: ${message}\n(run "partstream --help" for usage)\n` });
    const withJson = '--raw applies to the human view only: --json prints every raw event as an unmappedRawEvent line';
    expect(runs).to.deep.equal([
      usage('--raw needs a value: expected one of none, short, full'),
      usage('unknown --raw value "some": expected one of none, short, full'),
      usage(withJson),
      usage(withJson),
    ]);
  });

  it('none: no raw line, the rest as with short, and the summary counts the 18 hidden raw events', async () => {
    const [short, none] = await Promise.all([runCli(['replay']), runCli(['replay', '--raw', 'none'])]);
    const withoutRaw = short.stdout
      .split('\n')
      .filter((line) => !line.startsWith('raw '))
      .join('\n');
    expect({ status: none.status, stdout: none.stdout }).to.deep.equal({
      status: 0,
      stdout: withoutRaw.replace(/\n$/, '\n18 raw events not shown (--raw short or --raw full shows them)\n'),
    });
  });

  it('none: the count appears even when a failed stream leaves nothing to summarise', async () => {
    const run = await replayText(OPENAI_TEXT, ['--format', 'anthropic', '--raw', 'none']);
    expect({ status: run.status, stdout: run.stdout }).to.deep.equal({
      status: 1,
      stdout: 'replaying standard input (format: anthropic)\n\n2 raw events not shown (--raw short or --raw full shows them)\n',
    });
  });

  it('none: a code-interpreter stream shows its text and summary without its 183 raw events', async function () {
    const file = path.join(FIXTURES_DIR, 'openai-responses', 'code-interpreter-tool.sse');
    if (!existsSync(file)) {
      noteSkipped(FIXTURES_ABSENT, 'replay --raw none over a recorded code-interpreter stream');
      this.skip();
    }
    const [short, none] = await Promise.all([runCli(['replay', file]), runCli(['replay', file, '--raw', 'none'])]);
    const rawLines = (stdout: string): number => stdout.split('\n').filter((line) => line.startsWith('raw ')).length;
    expect({ short: rawLines(short.stdout), none: rawLines(none.stdout), note: none.stdout.endsWith('\n183 raw events not shown (--raw short or --raw full shows them)\n') }).to.deep.equal({
      short: 183,
      none: 0,
      note: true,
    });
  });

  it('full: each raw event whole on one line, not cut to the width', async () => {
    const run = await runCli(['replay', '--raw', 'full']);
    const start = /event: message_start\ndata: (.*)\n/.exec(DEMO_RECORDING)?.[1] ?? '(no message_start in the recording)';
    const rawLines = run.stdout.split('\n').filter((line) => line.startsWith('raw '));
    expect({ status: run.status, count: rawLines.length, first: rawLines[0], longerThanWidth: start.length > 100 }).to.deep.equal({
      status: 0,
      count: 18,
      first: `raw message_start ${start}`,
      longerThanWidth: true,
    });
  });

  it('full: control, line-break, C1 and bidi characters of a raw event are shown escaped (SSE frame and NDJSON object)', async () => {
    const note = `event: note\u0007\u001b[2J\ndata: {"type":"note",\ndata: "n":"\u009b\u202e${'y'.repeat(150)}"}\n\n`;
    const run = await replayText(DEMO_RECORDING.replace('event: message_stop', `${note}event: message_stop`), ['--raw', 'full']);
    const out: string[] = [];
    const view = new HumanView({ write: (text) => out.push(text), writeError: () => undefined, style: PLAIN_STYLE, width: 20, raw: 'full' });
    view.onUnmappedRawEvent({ done: false, note: 'a\u001b]0;t\u0007\u0085\u2066\r\nb' });
    expect({ status: run.status, lines: run.stdout.split('\n').filter((line) => line.startsWith('raw note')), view: out.join('') }).to.deep.equal({
      status: 0,
      lines: [`raw note\\x07\\x1b[2J {"type":"note",\\x0a"n":"\\x9b\\u202e${'y'.repeat(150)}"}`],
      view: 'raw {"done":false,"note":"a\\u001b]0;t\\u0007\\x85\\u2066\\r\\nb"}\n',
    });
  });
});

describe('partstream replay: a refusal in the summary', () => {
  it("shows an OpenAI Chat refusal's text, escaped, under the finish reason", async () => {
    const run = await replayText(OPENAI_REFUSAL, ['--raw', 'none']);
    expect({ status: run.status, summary: summaryOf(run.stdout) }).to.deep.equal({
      status: 0,
      summary: [
        '── final message ──',
        'parts (0):',
        '  (none)',
        'usage: (not reported)',
        'finish reason: CONTENT_FILTER',
        'refusal: "I can\'t help \\x1b[31mwith\\nthat.\\u202e"',
        'id: chatcmpl-1   model: gpt-4o',
        '3 raw events not shown (--raw short or --raw full shows them)',
        '',
      ],
    });
  });

  it('shows an Anthropic stop_reason "refusal" with its stop_details explanation, escaped, or says there was no text', async () => {
    const [explained, bare] = await Promise.all([
      replayText(anthropicRefusal('{"type":"refusal","category":"cyber","explanation":"Blocked\\u001b[2J under\\r\\npolicy \\u009b."}'), []),
      replayText(anthropicRefusal('{"type":"refusal","category":null,"explanation":null}'), ['--raw', 'none']),
    ]);
    const refusalLines = (stdout: string): string[] => summaryOf(stdout).filter((line) => /^(finish reason|refusal):/.test(line));
    expect([explained.status, refusalLines(explained.stdout), bare.status, refusalLines(bare.stdout)]).to.deep.equal([
      0,
      ['finish reason: CONTENT_FILTER', 'refusal: "Blocked\\x1b[2J under\\x0d\\npolicy \\x9b."'],
      0,
      ['finish reason: CONTENT_FILTER', 'refusal: (no text given)'],
    ]);
  });

  it('shows no refusal line for a filtered response without a refusal, nor for an ordinary message_delta', () => {
    const out: string[] = [];
    const view = new HumanView({ write: (text) => out.push(text), writeError: () => undefined, style: PLAIN_STYLE, width: 80, raw: 'none' });
    view.onUnmappedRawEvent({ event: 'message_delta', data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"}}' });
    view.onCompleteResponse(chatResponse(aiMessage([textPart('Hi')]), responseMetadata({ finishReason: 'CONTENT_FILTER' })));
    expect(
      out
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('refusal')),
    ).to.deep.equal([]);
  });

  it('cuts a refusal longer than 1000 characters, saying how long it was', () => {
    const out: string[] = [];
    const view = new HumanView({ write: (text) => out.push(text), writeError: () => undefined, style: PLAIN_STYLE, width: 80 });
    view.onCompleteResponse(chatResponse(aiMessage([], { refusal: 'n'.repeat(5000) }), responseMetadata({ finishReason: 'CONTENT_FILTER' })));
    expect(
      out
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('refusal')),
    ).to.deep.equal([`refusal: "${'n'.repeat(1000)}"… (5000 characters)`]);
  });

  it('shows the recorded refusals: OpenAI Chat refusal-logprobs and Anthropic refusal-no-content', async function () {
    const chat = path.join(FIXTURES_DIR, 'openai-chat', 'refusal-logprobs.sse');
    const anthropic = path.join(FIXTURES_DIR, 'anthropic', 'refusal-no-content.sse');
    if (!existsSync(chat) || !existsSync(anthropic)) {
      noteSkipped(FIXTURES_ABSENT, 'replay of the recorded refusals');
      this.skip();
    }
    const runs = await Promise.all([runCli(['replay', chat]), runCli(['replay', anthropic])]);
    expect(runs.map((run) => run.stdout.split('\n').filter((line) => line.startsWith('refusal: ')))).to.deep.equal([
      ['refusal: "I\'m very sorry, but I can\'t assist with that request."'],
      ['refusal: "This request triggered restrictions on violative cyber content and was blocked under Anthropic\'s Usage Policy."'],
    ]);
  });
});

describe('partstream replay: colour', () => {
  it('useColour: FORCE_COLOR 1, 2, 3, true or empty forces colour (piped, over NO_COLOR and TERM=dumb); any other value turns it off', () => {
    const against = { NO_COLOR: '1', TERM: 'dumb' };
    const forced = ['1', '2', '3', 'true', ''].map((value) => useColour(false, { ...against, FORCE_COLOR: value }));
    const off = ['0', 'false', 'yes', '4', 'TRUE'].map((value) => useColour(true, { FORCE_COLOR: value }));
    expect({ forced, off, noColourStill: useColour(true, { NO_COLOR: '1' }) }).to.deep.equal({
      forced: [true, true, true, true, true],
      off: [false, false, false, false, false],
      noColourStill: false,
    });
  });

  it('colours piped output with FORCE_COLOR=1 and a terminal not at all with FORCE_COLOR=0, stream text still escaped', async () => {
    const hostile = DEMO_RECORDING.replace('"I found no"', '"I found\\u001b[2J no"');
    const [forced, off] = await Promise.all([replayText(hostile, [], { FORCE_COLOR: '1', NO_COLOR: '1' }), runCli(['replay'], { isTTY: true, env: { FORCE_COLOR: '0' } })]);
    expect({
      dimThinking: forced.stdout.includes('\u001b[2;3mThe user asks whether\u001b[22;23m'),
      textEscaped: forced.stdout.includes('I found\\x1b[2J no'),
      rawEscapeFromStream: forced.stdout.includes('\u001b[2J'),
      off: off.stdout.includes('\u001b['),
    }).to.deep.equal({ dimThinking: true, textEscaped: true, rawEscapeFromStream: false, off: false });
  });
});

describe('partstream replay: a wrong --format', () => {
  const hint = (format: string, name: string): string => `; the bytes look like ${name}: try --format ${format}`;

  it('names the format the bytes look like on the error line, in the human view and with --json, exit 1', async () => {
    const [human, json] = await Promise.all([replayText(OPENAI_TEXT, ['--format', 'anthropic']), replayText(OPENAI_TEXT, ['--format', 'anthropic', '--json'])]);
    const line = `partstream: stream error: The stream ended before message_stop${hint('openai-chat', 'an OpenAI Chat Completions stream')}\n`;
    expect([human.status, human.stderr, json.status, json.stderr]).to.deep.equal([1, line, 1, line]);
  });

  it('names Gemini, Ollama and Anthropic recordings read as another format', async () => {
    const runs = await Promise.all([replayText(GEMINI_TEXT, ['--format', 'openai-chat']), replayText(OLLAMA_TEXT, ['--format', 'gemini']), replayText(DEMO_RECORDING, ['--format', 'ollama'])]);
    expect(runs.map((run) => [run.status, run.stderr])).to.deep.equal([
      [1, `partstream: stream error: The stream ended before data: [DONE] or a finish chunk${hint('gemini', 'a Gemini streamGenerateContent stream')}\n`],
      [
        1,
        `partstream: stream error: Expected a Gemini streamGenerateContent stream (Server-Sent Events, alt=sse), got JSON instead: "${OLLAMA_TEXT.trim().replace(/"/g, '\\"')}"${hint('ollama', 'an Ollama /api/chat stream')}\n`,
      ],
      [1, `partstream: stream error: Expected an Ollama /api/chat stream (NDJSON), got Server-Sent Events: "event: message_start"${hint('anthropic', 'an Anthropic Messages stream')}\n`],
    ]);
  });

  it('adds nothing when the bytes are the given format or no known one', async () => {
    const cut = DEMO_RECORDING.slice(0, DEMO_RECORDING.indexOf('event: content_block_stop'));
    const [same, unknown] = await Promise.all([replayText(cut, ['--format', 'anthropic', '--raw', 'none']), replayText('Shopping list\n- eggs\n', ['--format', 'gemini'])]);
    expect([same.stderr, unknown.stderr]).to.deep.equal([
      'partstream: stream error: The stream ended before message_stop\n',
      'partstream: stream error: Expected a Gemini streamGenerateContent stream (Server-Sent Events, alt=sse), got text that is not Server-Sent Events: "Shopping list"\n',
    ]);
  });

  it('StreamHead passes every chunk unchanged and keeps only its limit, which then is not the whole body', async () => {
    const head = new StreamHead(10);
    const passed: (Uint8Array | string)[] = [];
    const chunks = ['data: {"c', new TextEncoder().encode('hoices":[]}\n\n')];
    for await (const piece of head.pass(
      (async function* () {
        yield* chunks;
      })(),
    ))
      passed.push(piece);
    const small = new StreamHead();
    for await (const piece of small.pass(
      (async function* () {
        yield OPENAI_TEXT;
      })(),
    ))
      void piece;
    expect({ passed, head: head.read(), hint: formatHint(small, 'anthropic'), none: formatHint(head, 'anthropic') }).to.deep.equal({
      passed: chunks,
      head: { text: 'data: {"ch', whole: false },
      hint: hint('openai-chat', 'an OpenAI Chat Completions stream'),
      none: '',
    });
  });
});
