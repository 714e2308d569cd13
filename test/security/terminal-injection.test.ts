import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { jsonEvents, runCli, type CliRun } from '../cli/run-cli';
import { ROOT, runIsolated } from './support/run-isolated';

// SPEC §11 "drive the terminal": whatever a recording holds, `partstream replay` writes no
// control character that came from the stream. Each recording below carries the same hostile
// string in its thinking, text, tool name, tool arguments and an unmapped raw event.

/** A window-title change, a screen clear, a one-byte CSI (C1), DEL, a lone CR and a right-to-left override. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u007fa\rb\u202e';
/** `HOSTILE` as the human view must show it, written out by hand. */
const SHOWN = '\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x7fa\\x0db\\u202e';
/** The start of `{"note":HOSTILE}` in a raw-event line: JSON's own C0 escapes, then C1, DEL and U+202E escaped by the view. */
const SHOWN_NOTE = '{"note":"\\u001b]0;pwned\\u0007\\u001b[2J\\x9b31m\\x7fa\\rb\\u202e"';
/** An SSE event name holding control characters raw on the wire (no CR or LF: those end the field). */
const HOSTILE_FIELD = 'note\u001b]8;;http://x.test/\u0007\u009b2J\u202e';
const SHOWN_FIELD = 'note\\x1b]8;;http://x.test/\\x07\\x9b2J\\u202e';

/**
 * What no output may hold: C0 except tab and newline (CR included: no output line here ends in CRLF),
 * DEL, C1, and the bidi / invisible formatting characters.
 */
// eslint-disable-next-line no-control-regex -- the control characters no terminal may receive
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/** Each forbidden character with its offset and surroundings, for a readable failure; empty when clean. */
function forbiddenIn(output: string): string[] {
  return [...output.matchAll(FORBIDDEN)]
    .slice(0, 5)
    .map((match) => `${JSON.stringify(match[0])} at ${match.index}: ${JSON.stringify(output.slice(Math.max(0, (match.index ?? 0) - 20), (match.index ?? 0) + 20))}`);
}

function sse(frames: readonly (readonly [string | null, unknown])[]): string {
  return frames.map(([event, data]) => `${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');
}

const chatChunk = (delta: unknown, finish: string | null = null): unknown => ({
  id: 'chatcmpl-h1',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'gpt-test',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const geminiChunk = (parts: unknown[], candidate: Record<string, unknown> = {}): unknown => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...candidate }],
  usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 },
  modelVersion: 'gemini-test',
  responseId: 'g1',
});

const ollamaLine = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ model: 'llama-test', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done: false, ...extra })}\n`;

/** One hostile recording per wire format; tool arguments are the raw hostile string where the format sends them as text. */
const RECORDINGS: Readonly<Record<WireFormat, string>> = {
  'openai-chat': sse([
    [null, { note: HOSTILE, ...(chatChunk({ role: 'assistant', content: '' }) as object) }],
    [null, chatChunk({ reasoning_content: HOSTILE })],
    [null, chatChunk({ content: HOSTILE })],
    [null, chatChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: HOSTILE, arguments: '' } }] })],
    [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: HOSTILE } }] })],
    [null, chatChunk({}, 'tool_calls')],
    [null, '[DONE]'],
  ]),
  'openai-responses': sse([
    ['response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_h1', object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }],
    ['response.reasoning_summary_text.delta', { type: 'response.reasoning_summary_text.delta', sequence_number: 2, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: HOSTILE }],
    [
      'response.output_item.added',
      { type: 'response.output_item.added', sequence_number: 3, output_index: 1, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    ],
    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 1, content_index: 0, delta: HOSTILE }],
    [HOSTILE_FIELD, { note: HOSTILE, type: 'response.x_note', sequence_number: 5 }],
    [
      'response.output_item.added',
      { type: 'response.output_item.added', sequence_number: 6, output_index: 2, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_9', name: HOSTILE, arguments: '' } },
    ],
    ['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', sequence_number: 7, item_id: 'fc_1', output_index: 2, delta: HOSTILE }],
    ['response.function_call_arguments.done', { type: 'response.function_call_arguments.done', sequence_number: 8, item_id: 'fc_1', output_index: 2, arguments: HOSTILE }],
    [
      'response.completed',
      {
        type: 'response.completed',
        sequence_number: 9,
        response: { id: 'resp_h1', object: 'response', status: 'completed', model: 'gpt-test', output: [], usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 } },
      },
    ],
  ]),
  anthropic: sse([
    [
      'message_start',
      { type: 'message_start', message: { id: 'msg_h1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: HOSTILE } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [HOSTILE_FIELD, { note: HOSTILE, type: 'ping' }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: HOSTILE } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: HOSTILE, input: {} } }],
    ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: HOSTILE } }],
    ['content_block_stop', { type: 'content_block_stop', index: 2 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }],
    ['message_stop', { type: 'message_stop' }],
  ]),
  gemini: sse([
    [null, geminiChunk([{ text: HOSTILE, thought: true }])],
    [null, geminiChunk([{ text: HOSTILE }])],
    [HOSTILE_FIELD, { note: HOSTILE, ...(geminiChunk([{ x_part: 1 }]) as object) }],
    [null, geminiChunk([{ functionCall: { name: HOSTILE, args: { q: HOSTILE } } }], { finishReason: 'STOP' })],
  ]),
  ollama:
    ollamaLine({ thinking: HOSTILE }) +
    ollamaLine({ content: HOSTILE }) +
    `${JSON.stringify({ note: HOSTILE, model: 'llama-test', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '' }, done: false })}\n` +
    ollamaLine({ tool_calls: [{ function: { name: HOSTILE, arguments: HOSTILE } }] }) +
    ollamaLine({}, { done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 3 }),
};

const FORMATS = Object.keys(RECORDINGS) as WireFormat[];

/** Where each format's arguments show: streamed after the tool-call label, or whole on the completion line. */
const STREAMED_ARGUMENTS: Readonly<Record<WireFormat, readonly string[]>> = {
  'openai-chat': [`tool call #0 ${SHOWN} call_1: ${SHOWN}\n`],
  'openai-responses': [`tool call #0 ${SHOWN} call_9: ${SHOWN}\n`],
  anthropic: [`tool call #0 ${SHOWN} toolu_1: ${SHOWN}\n`],
  // Gemini sends an object: its JSON text escapes C0 itself; the view escapes C1 and DEL.
  gemini: [`tool call #0 complete: ${SHOWN} {"q":"\\u001b]0;pwned\\u0007\\u001b[2J\\x9b31m\\x7f`],
  ollama: [`tool call #0 complete: ${SHOWN} ${SHOWN}\n`],
};

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** Plain output: a pipe with NO_COLOR, so the CLI adds no styling and any ESC at all came from the stream. */
function replayPlain(recording: string, ...flags: string[]): Promise<CliRun> {
  return runCli(['replay', '-', ...flags], { stdin: bytesOf(recording), isTTY: false, env: { NO_COLOR: '1' } });
}

describe('partstream replay against terminal injection (SPEC §11)', () => {
  for (const format of FORMATS) {
    describe(format, () => {
      it('human view: no control, DEL, C1 or bidi character from the stream; thinking, text, tool name, arguments and raw events shown escaped', async () => {
        const run = await replayPlain(RECORDINGS[format]);
        expect({ status: run.status, stderr: run.stderr, forbidden: forbiddenIn(run.stdout) }).to.deep.equal({ status: 0, stderr: '', forbidden: [] });
        const expected = [
          `thinking: ${SHOWN}\n`,
          `text: ${SHOWN}\n`,
          `tool call #0 complete: ${SHOWN} `,
          ...STREAMED_ARGUMENTS[format],
          // The NDJSON line and the unnamed OpenAI Chat frame have no event name to show.
          `raw ${format === 'ollama' || format === 'openai-chat' ? '' : `${SHOWN_FIELD} `}${SHOWN_NOTE}`,
          `  1. reasoning   "${SHOWN}"\n`,
          `  2. text        "${SHOWN}"\n`,
          // Gemini's unknown `x_part` part stays in the final message, before the tool call.
          ...(format === 'gemini' ? ['  3. unknown     google/x_part {"x_part":1}\n', `  4. tool_call   ${SHOWN} `] : [`  3. tool_call   ${SHOWN} `]),
        ];
        expect(expected.filter((shown) => !run.stdout.includes(shown))).to.deep.equal([]);
      });

      it('--json: valid JSON lines that parse back to the hostile strings, with C1, DEL and U+202E as \\u escapes', async () => {
        const run = await replayPlain(RECORDINGS[format], '--json');
        expect({ status: run.status, stderr: run.stderr, forbidden: forbiddenIn(run.stdout) }).to.deep.equal({ status: 0, stderr: '', forbidden: [] });
        const events = jsonEvents(run.stdout);
        const texts = (name: string, field: string): unknown[] => events.filter((event) => event.event === name).map((event) => event[field]);
        const noteFrame = JSON.stringify({ note: HOSTILE }).slice(0, -1);
        const rawNotes = events
          .filter((event) => event.event === 'unmappedRawEvent')
          .map((event) => event.raw as { event?: unknown; data?: unknown; note?: unknown })
          .filter((raw) => raw.note === HOSTILE || (typeof raw.data === 'string' && raw.data.startsWith(noteFrame)));
        expect({
          thinking: texts('partialThinking', 'text').includes(HOSTILE),
          text: texts('partialResponse', 'text').includes(HOSTILE),
          toolName: texts('completeToolCall', 'name'),
          arguments: texts('completeToolCall', 'arguments'),
          rawEvent: rawNotes.map((raw) => raw.event ?? null),
          escapes: ['\\u009b31m', '\\u007f', '\\u202e'].every((escape) => run.stdout.includes(escape)),
        }).to.deep.equal({
          thinking: true,
          text: true,
          toolName: [HOSTILE],
          arguments: [format === 'gemini' ? `{"q":${JSON.stringify(HOSTILE)}}` : HOSTILE],
          // The NDJSON line is the parsed object itself; an SSE frame keeps its event name.
          rawEvent: [format === 'ollama' ? null : format === 'openai-chat' ? null : HOSTILE_FIELD],
          escapes: true,
        });
      });
    });
  }

  it("on a colour terminal, the only escape sequences are the CLI's own styles", async () => {
    const run = await runCli(['replay', '-'], { stdin: bytesOf(RECORDINGS.anthropic), isTTY: true, env: { TERM: 'xterm-256color' } });
    // eslint-disable-next-line no-control-regex -- ESC opens the escape sequences this test looks for
    const ownStyles = /\u001b\[(?:1|2|2;3|22|22;23|31|39)m/g;
    expect({
      styled: run.stdout.includes('\u001b[2;3m'),
      forbidden: forbiddenIn(run.stdout.replace(ownStyles, '')),
      thinking: run.stdout.includes(`\u001b[2;3m${SHOWN}\u001b[22;23m`),
    }).to.deep.equal({ styled: true, forbidden: [], thinking: true });
  });

  describe('error lines', () => {
    /** Not a known format: the error quotes the first bytes, raw ESC, C1 and U+202E included. */
    const GARBAGE = `Hello ${HOSTILE_FIELD}\u009b2J done\n`;
    /** A provider error event whose message is the hostile string. */
    const PROVIDER_ERROR = sse([['error', { type: 'error', error: { type: 'overloaded_error', message: HOSTILE } }]]);

    it('a stream error quoting a hostile frame is one escaped line on stderr, in the human view and with --json', async () => {
      const runs = await Promise.all([replayPlain(GARBAGE), replayPlain(GARBAGE, '--json')]);
      for (const run of runs) {
        expect({ status: run.status, forbidden: forbiddenIn(run.stdout + run.stderr), lines: run.stderr.split('\n').length }).to.deep.equal({
          status: 1,
          forbidden: [],
          lines: 2,
        });
        expect(run.stderr).to.match(/^partstream: stream error: Expected a stream of a known format .*got text that is not Server-Sent Events: /);
        expect(run.stderr).to.include('note\\u001b]8;;http://x.test/\\u0007\\x9b2J\\u202e\\x9b2J done');
      }
      expect(jsonEvents(runs[1].stdout).map((event) => event.event)).to.deep.equal(['error']);
    });

    it('a provider error event carrying escape sequences is shown escaped, in the human view and with --json', async () => {
      const [human, json] = await Promise.all([replayPlain(PROVIDER_ERROR, '--format', 'anthropic'), replayPlain(PROVIDER_ERROR, '--format', 'anthropic', '--json')]);
      expect({
        forbidden: forbiddenIn(human.stdout + human.stderr + json.stdout + json.stderr),
        human: human.stderr.includes(SHOWN) && human.stderr.split('\n').length === 2,
        jsonStderr: json.stderr.includes(SHOWN) && json.stderr.split('\n').length === 2,
        jsonMessage: jsonEvents(json.stdout).map((event) => String(event.message).includes(HOSTILE)),
      }).to.deep.equal({ forbidden: [], human: true, jsonStderr: true, jsonMessage: [true] });
    });

    it('a file name or an argument holding control characters is shown escaped', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'partstream-injection-'));
      // A file name may hold any byte but "/" and NUL.
      const name = 'rec\u001b]0;pwned\u0007\u009b2J\u202e';
      const shown = 'rec\\x1b]0;pwned\\x07\\x9b2J\\u202e';
      try {
        writeFileSync(path.join(dir, `${name}.sse`), RECORDINGS.anthropic);
        const [present, missing, badFormat] = await Promise.all([
          runCli(['replay', path.join(dir, `${name}.sse`)]),
          runCli(['replay', path.join(dir, `${name}.missing`)]),
          runCli(['replay', '--format', HOSTILE]),
        ]);
        expect({
          forbidden: forbiddenIn(present.stdout + missing.stderr + badFormat.stderr),
          banner: present.stdout.split('\n')[0],
          missing: missing.stderr,
          badFormat: badFormat.stderr.split('\n')[0],
        }).to.deep.equal({
          forbidden: [],
          banner: `replaying ${dir}/${shown}.sse (format: auto)`,
          missing: `partstream: cannot read ${dir}/${shown}.missing: no such file\n`,
          badFormat:
            'partstream: unknown format "\\u001b]0;pwned\\u0007\\u001b[2J\\x9b31m\\x7fa\\rb\\u202e": expected one of auto, openai-chat, openai-responses, anthropic, gemini, ollama, bedrock-converse',
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

// The one-line views (error lines, raw events, completed tool calls) once collapsed line breaks
// with /\s*[\r\n]+\s*/, which rescans a whitespace run from each of its positions: quadratic,
// about 8 s for 80 000 spaces. A model controls tool arguments, a server controls error text.
describe('partstream replay one-line views on hostile whitespace (linear time)', function () {
  this.timeout(60_000);

  it("collapses 4 MB of whitespace, and replays a tool call whose arguments are 4 MB of spaces, within the child's time limit", async () => {
    const script = `
      const { oneLine } = require(${JSON.stringify(`${ROOT}/lib/cli/one-line`)});
      const { main } = require(${JSON.stringify(`${ROOT}/lib/cli/main`)});
      const spaces = ' '.repeat(4 << 20);
      // A run with no line break in it, in a text that has one elsewhere: what made the old pattern quadratic.
      const collapsed = [oneLine('a' + spaces + 'b').length, oneLine('a' + spaces + 'b\\nc').length, oneLine('a\\n' + spaces + 'b').length];
      const line = (extra) => JSON.stringify({ model: 'm', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '', ...extra }, done: false }) + '\\n';
      const recording = line({ tool_calls: [{ function: { name: 'f', arguments: 'x' + spaces + 'y\\nz' } }] })
        + JSON.stringify({ model: 'm', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' }) + '\\n';
      let out = '';
      main(['replay', '-', '--format', 'ollama'], {
        stdout: { write: (text) => { out += text; } },
        stderr: { write: (text) => { out += text; } },
        stdin: (async function* () { yield recording; })(),
        env: { NO_COLOR: '1' },
      }).then((status) => {
        console.log(JSON.stringify({ collapsed, status, completeLine: out.split('\\n').find((l) => l.startsWith('tool call #0 complete: ')) }));
      });
    `;
    const run = await runIsolated(script, { maxOldSpaceMb: 512, timeoutMs: 40_000 });
    expect({ timedOut: run.timedOut, code: run.code, stderr: run.stderr }).to.deep.equal({ timedOut: false, code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).to.deep.equal({
      collapsed: [(4 << 20) + 2, (4 << 20) + 4, 3],
      status: 0,
      completeLine: `tool call #0 complete: f x${' '.repeat(120 - 'tool call #0 complete: f x'.length - 1)}…`,
    });
  });
});
