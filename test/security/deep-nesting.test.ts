import { expect } from 'chai';
import fc from 'fast-check';
import { stringifyIteratively, stringifyJson } from '../../lib/wire/stringify-json';
import { runIsolated } from './support/run-isolated';

const DEPTH = 100_000;
/** `{"a":{"a":…leaf…}}`, DEPTH levels, written by hand (not by the code under test). */
const deepObject = (leaf: string): string => `${'{"a":'.repeat(DEPTH)}${leaf}${'}'.repeat(DEPTH)}`;

/**
 * What each stream of the isolated script reported: the tool-call arguments ('deep' when exactly
 * the nested JSON sent), how many raw events, the terminal callbacks.
 */
interface Seen {
  readonly args: string[];
  readonly raw: number;
  readonly terminal: string[];
  readonly jsonLines?: number;
}

/**
 * Every stream runs in one child process with a small heap and a deadline: a regression that
 * recurses, hangs or exhausts memory fails these tests instead of the suite.
 */
const SCRIPT = `
  const { consumeStream } = require(${JSON.stringify(require.resolve('../../lib/driver/consume-stream'))});
  const { JsonView } = require(${JSON.stringify(require.resolve('../../lib/cli/json-view'))});
  const D = ${DEPTH};
  const deep = (leaf) => '{"a":'.repeat(D) + leaf + '}'.repeat(D);
  const sse = (event, data) => (event === null ? '' : 'event: ' + event + '\\n') + 'data: ' + data + '\\n\\n';
  const geminiFinish = sse(null, '{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}');
  const geminiCall = (call) => sse(null, '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":' + call + '}]}}]}');
  const ollamaDone = '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\\n';
  const anthropic = (events) => [
    sse('message_start', '{"type":"message_start","message":{"id":"m1","model":"c","usage":{"input_tokens":1,"output_tokens":1}}}'),
    ...events,
    sse('message_delta', '{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":2}}'),
    sse('message_stop', '{"type":"message_stop"}'),
  ].join('');
  const chat = (data) => sse(null, data);
  const cases = {
    geminiArgs: ['gemini', geminiCall('{"name":"f","args":' + deep('1') + '}') + geminiFinish],
    geminiPath: ['gemini', geminiCall('{"name":"f","partialArgs":[{"jsonPath":"$' + '.a'.repeat(D) + '","stringValue":"x"}],"willContinue":true}') + geminiCall('{}') + geminiFinish],
    ollamaArgs: ['ollama', '{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":' + deep('1') + '}}]},"done":false}\\n' + ollamaDone],
    ollamaRaw: ['ollama', '{"model":"m","x":' + deep('1') + ',"done":false}\\n' + ollamaDone],
    ollamaError: ['ollama', '{"error":' + deep('"x"') + '}\\n'],
    anthropicInput: ['anthropic', anthropic([
      sse('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":' + deep('1') + '}}'),
      sse('content_block_stop', '{"type":"content_block_stop","index":0}'),
    ])],
    anthropicDelta: ['anthropic', anthropic([
      sse('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}'),
      sse('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":' + JSON.stringify(deep('1')) + '}}'),
      sse('content_block_stop', '{"type":"content_block_stop","index":0}'),
    ])],
    openaiDelta: ['openai-chat',
      chat('{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x","extra":' + deep('1') + '},"finish_reason":null}]}') +
      chat('{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}') + 'data: [DONE]\\n\\n'],
    openaiArguments: ['openai-chat',
      chat('{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":' + JSON.stringify(deep('1')) + '}}]},"finish_reason":null}]}') +
      chat('{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}') + 'data: [DONE]\\n\\n'],
  };
  (async () => {
    const result = {};
    for (const [name, [format, text]] of Object.entries(cases)) {
      const seen = { args: [], raw: 0, terminal: [] };
      async function* source() { yield text; }
      await consumeStream(source(), {
        onCompleteToolCall: (c) => seen.args.push(c.toolExecutionRequest.arguments),
        onUnmappedRawEvent: () => seen.raw++,
        onCompleteResponse: () => seen.terminal.push('complete'),
        onError: (e) => seen.terminal.push(e.name + ' ' + (e.kind || '') + ': ' + e.message.slice(0, 60)),
      }, { format });
      // The arguments are reported as 'deep' when they are exactly the nested JSON that was sent.
      seen.args = seen.args.map((args) => (args === deep('1') || args === deep('"x"') ? 'deep' : args.slice(0, 80)));
      result[name] = seen;
    }
    // The CLI's --json view writes the deep raw event as one line of JSON.
    const lines = [];
    const view = new JsonView((text) => lines.push(text));
    async function* ollama() { yield cases.ollamaRaw[1]; }
    const seen = { args: [], raw: 0, terminal: [], jsonLines: 0 };
    await consumeStream(ollama(), {
      onUnmappedRawEvent: (raw) => { seen.raw++; view.onUnmappedRawEvent(raw); },
      onCompleteResponse: () => seen.terminal.push('complete'),
      onError: (e) => seen.terminal.push(e.name + ': ' + e.message.slice(0, 60)),
    }, { format: 'ollama' });
    seen.jsonLines = lines.length;
    seen.args = lines.map((line) => line === '{"event":"unmappedRawEvent","raw":{"model":"m","x":' + deep('1') + ',"done":false}}\\n' ? 'exact' : line.slice(0, 80));
    result.cliJsonView = seen;
    console.log(JSON.stringify(result));
  })();
`;

describe('Deeply nested input never overflows the stack', () => {
  let results: Record<string, Seen> = {};
  let failure: string | null = null;

  before(async function () {
    this.timeout(90_000);
    const outcome = await runIsolated(SCRIPT, { maxOldSpaceMb: 256, timeoutMs: 60_000 });
    if (outcome.timedOut || outcome.code !== 0 || outcome.stderr !== '') {
      failure = `timedOut ${outcome.timedOut}, code ${outcome.code}, stderr ${outcome.stderr.slice(0, 800)}`;
      return;
    }
    results = JSON.parse(outcome.stdout) as Record<string, Seen>;
  });

  function seen(name: string): Seen {
    expect(failure, 'the isolated run').to.equal(null);
    expect(results, 'the isolated run').to.have.property(name);
    return results[name];
  }

  it('Gemini functionCall.args nested 100,000 deep complete with their exact JSON', () => {
    expect(seen('geminiArgs')).to.deep.equal({ args: ['deep'], raw: 1, terminal: ['complete'] });
  });

  it('a Gemini partialArgs path 100,000 steps deep completes with its exact JSON', () => {
    expect(seen('geminiPath')).to.deep.equal({ args: ['deep'], raw: 1, terminal: ['complete'] });
  });

  it('Ollama tool_calls arguments nested 100,000 deep complete with their exact JSON', () => {
    expect(seen('ollamaArgs')).to.deep.equal({ args: ['deep'], raw: 0, terminal: ['complete'] });
  });

  it('an Ollama line nested 100,000 deep surfaces raw and the stream completes', () => {
    expect(seen('ollamaRaw')).to.deep.equal({ args: [], raw: 1, terminal: ['complete'] });
  });

  it('an Ollama error object nested 100,000 deep ends the stream with one provider StreamError', () => {
    expect(seen('ollamaError')).to.deep.equal({ args: [], raw: 0, terminal: [`StreamError provider: ${deepObject('"x"').slice(0, 60)}`] });
  });

  it('an Anthropic tool_use input nested 100,000 deep completes with its exact JSON', () => {
    expect(seen('anthropicInput')).to.deep.equal({ args: ['deep'], raw: 4, terminal: ['complete'] });
  });

  it('an Anthropic input_json_delta of JSON nested 100,000 deep passes through untouched', () => {
    expect(seen('anthropicDelta')).to.deep.equal({ args: ['deep'], raw: 4, terminal: ['complete'] });
  });

  it('an OpenAI arguments string of JSON nested 100,000 deep passes through untouched', () => {
    expect(seen('openaiArguments')).to.deep.equal({ args: ['deep'], raw: 0, terminal: ['complete'] });
  });

  it('an OpenAI chunk whose delta holds a field nested 100,000 deep is read (and surfaces raw), no RangeError', () => {
    expect(seen('openaiDelta')).to.deep.equal({ args: [], raw: 1, terminal: ['complete'] });
  });

  it('the CLI --json view writes a raw event nested 100,000 deep as one exact line', () => {
    expect(seen('cliJsonView')).to.deep.equal({ args: ['exact'], raw: 1, terminal: ['complete'], jsonLines: 1 });
  });
});

/**
 * Replay and the request side, in a child process of its own: a conversation whose tool
 * arguments nest DEPTH deep goes back to each provider through its converter and its HTTP client
 * (a loopback server records the body), and the JSON forms of parts meet deep values.
 */
const REPLAY_SCRIPT = `
  const http = require('node:http');
  // The root entry and the subpaths the request side lives on (replay converters, HTTP clients, handler values).
  const lib = Object.assign({}, ...${JSON.stringify(['index', 'replay', 'http', 'adapters'].map((entry) => require.resolve(`../../lib/${entry}`)))}.map((entry) => require(entry)));
  const D = ${DEPTH};
  const deep = (leaf) => '{"a":'.repeat(D) + leaf + '}'.repeat(D);
  const args = deep('1');
  (async () => {
    const bodies = [];
    const server = http.createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end('{"error":{"message":"no"}}');
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseURL = 'http://127.0.0.1:' + server.address().port;
    const call = lib.aiMessage([lib.toolCallPart({ id: 'call_1', name: 'f', arguments: args })]);
    const messages = [lib.userMessage('hi'), call, lib.toolExecutionResultMessage(call.toolExecutionRequests[0], 'ok')];
    const handler = { onCompleteResponse() {}, onError() {} };
    const options = { apiKey: 'k', maxRetries: 0 };
    const clients = {
      gemini: () => lib.streamGemini({ model: 'm', ...lib.toGeminiContents(messages) }, handler, { ...options, baseURL }),
      anthropic: () => lib.streamAnthropic({ model: 'm', max_tokens: 1, ...lib.toAnthropicMessages(messages) }, handler, { ...options, baseURL }),
      ollama: () => lib.streamOllama({ model: 'm', ...lib.toOllamaMessages(messages) }, handler, { ...options, host: baseURL }),
      openaiChat: () => lib.streamOpenAIChat({ model: 'm', ...lib.toOpenAIChatMessages(messages) }, handler, { ...options, baseURL }),
      openaiResponses: () => lib.streamOpenAIResponses({ model: 'm', ...lib.toOpenAIResponsesInput(messages) }, handler, { ...options, baseURL }),
    };
    const result = {};
    for (const [name, start] of Object.entries(clients)) {
      bodies.length = 0;
      try {
        const outcome = await start();
        const body = bodies[0] || '';
        // The arguments go as an object (Gemini, Anthropic, Ollama) or as the JSON text (OpenAI).
        result[name] = { status: outcome.status, kind: outcome.error && outcome.error.kind, sent: body.includes(':' + args) ? 'object' : body.includes(JSON.stringify(args)) ? 'text' : 'missing' };
      } catch (error) {
        result[name] = { threw: error.name + ': ' + error.message.slice(0, 80) };
      }
    }
    server.close();
    // Each case on its own: a throw is its result, and the next case still runs.
    const attempt = (name, run) => {
      try {
        result[name] = run();
      } catch (error) {
        result[name] = error.name + ': ' + error.message.slice(0, 120);
      }
    };
    attempt('partFromJSON', () => {
      let value = 1;
      for (let i = 0; i < D; i++) value = { a: value };
      const unknown = lib.partFromJSON({ type: 'weird', x: value });
      return { type: unknown.type, kind: unknown.kind, exact: unknown.rawJson === '{"type":"weird","x":' + deep('1') + '}' };
    });
    attempt('partToJSON', () => {
      let nested = lib.textPart('leaf');
      for (let i = 0; i < D; i++) nested = lib.toolResultPart({ id: 't', name: 'f', content: [nested] });
      lib.partToJSON(nested);
      return 'no error';
    });
    attempt('nestedFromJSON', () => {
      let json = { type: 'text', text: 'leaf', attributes: {} };
      for (let i = 0; i < D; i++) json = { type: 'tool_result', id: 't', name: 'f', content: [json], isError: false, attributes: {} };
      let part = lib.partFromJSON(json);
      let levels = 0;
      while (part.type === 'tool_result') {
        part = part.content[0];
        levels++;
      }
      const rest = part.type === 'unknown' ? JSON.parse(part.rawJson) : null;
      let restLevels = 0;
      for (let node = rest; node !== null && node.type === 'tool_result'; node = node.content[0]) restLevels++;
      return { levels, inner: part.type, kind: part.kind, restLevels };
    });
    console.log(JSON.stringify(result));
  })().catch((error) => {
    console.error(error && error.stack);
    process.exit(1);
  });
`;

describe('Replayed and serialised values of any depth never overflow the stack', () => {
  let results: Record<string, unknown> = {};
  let failure: string | null = null;

  before(async function () {
    this.timeout(90_000);
    const outcome = await runIsolated(REPLAY_SCRIPT, { maxOldSpaceMb: 512, timeoutMs: 60_000 });
    if (outcome.timedOut || outcome.code !== 0 || outcome.stderr !== '') {
      failure = `timedOut ${outcome.timedOut}, code ${outcome.code}, stderr ${outcome.stderr.slice(0, 800)}`;
      return;
    }
    results = JSON.parse(outcome.stdout) as Record<string, unknown>;
  });

  function seen(name: string): unknown {
    expect(failure, 'the isolated run').to.equal(null);
    expect(results, 'the isolated run').to.have.property(name);
    return results[name];
  }

  for (const [name, sent] of [
    ['gemini', 'object'],
    ['anthropic', 'object'],
    ['ollama', 'object'],
    ['openaiChat', 'text'],
    ['openaiResponses', 'text'],
  ] as const) {
    it(`${name}: a replayed tool call whose arguments nest 100,000 deep is sent exactly, no RangeError`, () => {
      expect(seen(name)).to.deep.equal({ status: 'failed', kind: 'http', sent });
    });
  }

  it('partFromJSON keeps an unknown object nested 100,000 deep whole as rawJson', () => {
    expect(seen('partFromJSON')).to.deep.equal({ type: 'unknown', kind: 'weird', exact: true });
  });

  it('partToJSON refuses tool results nested 100,000 deep with a clear TypeError', () => {
    expect(seen('partToJSON')).to.equal("TypeError: Expected tool results nested at most 100 deep in a part's content, got one nested deeper");
  });

  it('partFromJSON reads tool results nested 100,000 deep: 100 levels as parts, the rest kept whole as an unknown part', () => {
    expect(seen('nestedFromJSON')).to.deep.equal({ levels: 100, inner: 'unknown', kind: 'tool_result', restLevels: 100_000 - 100 });
  });
});

describe('stringifyJson', () => {
  it('writes what JSON.stringify writes, for any JSON value (seed 1207)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyIteratively(value)).to.equal(JSON.stringify(value));
        expect(stringifyJson(value)).to.equal(JSON.stringify(value));
      }),
      { seed: 1207, numRuns: 300 },
    );
  });

  it('follows JSON.stringify on values JSON has no text for, toJSON, boxed primitives and own __proto__ keys', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"constructor":"c"}') as unknown;
    const sparse: unknown[] = [1];
    sparse[3] = 2;
    const values: unknown[] = [
      undefined,
      () => 1,
      { a: undefined, b: () => 1, c: Symbol('s'), d: NaN, e: -Infinity, f: -0 },
      [undefined, () => 1, NaN],
      sparse,
      { when: new Date(0), custom: { toJSON: (key: string) => `key ${key}` } },
      [Object(1), Object('s'), Object(false)],
      parsed,
    ];
    for (const value of values) expect(stringifyIteratively(value), String(value)).to.equal(JSON.stringify(value));
  });

  it('refuses a cycle and a BigInt as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => stringifyIteratively(cycle)).to.throw(TypeError, /circular/);
    expect(() => stringifyIteratively({ n: BigInt(1) })).to.throw(TypeError, /BigInt/);
  });

  it('writes a value 100,000 levels deep that JSON.stringify cannot', () => {
    let value: unknown = 1;
    for (let i = 0; i < DEPTH; i++) value = i % 2 === 0 ? { a: value } : [value];
    const expected = `${'[{"a":'.repeat(DEPTH / 2)}1${'}]'.repeat(DEPTH / 2)}`;
    expect(() => JSON.stringify(value)).to.throw(RangeError);
    expect(stringifyJson(value)).to.equal(expected);
  });
});
