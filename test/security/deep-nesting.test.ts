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

  it('the CLI --json view writes a raw event nested 100,000 deep as one exact line', () => {
    expect(seen('cliJsonView')).to.deep.equal({ args: ['exact'], raw: 1, terminal: ['complete'], jsonLines: 1 });
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
