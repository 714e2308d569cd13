import { expect } from 'chai';
import * as path from 'path';

const examples = path.resolve(__dirname, '../../examples');

/**
 * Runs `examples/<name>.ts` in this process (mocha already compiles TypeScript) and returns the
 * lines it logs, once it has logged `lines` of them and then gone quiet. Running in-process
 * instead of spawning `ts-node` keeps this suite fast.
 */
async function run(name: string, lines: number): Promise<string[]> {
  const logged: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    logged.push(args.map(String).join(' '));
  };
  try {
    require(path.join(examples, `${name}.ts`));
    for (let waited = 0; logged.length < lines && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // anything printed after the expected lines shows up too
  } finally {
    console.log = log;
  }
  return logged;
}

describe('examples', () => {
  it('plain-handler prints the tokens, then the final text, parts and metadata', async () => {
    expect(await run('plain-handler', 6)).to.deep.equal([
      'token: "Hello"',
      'token: ", world"',
      'text: Hello, world',
      'parts: ["text"]',
      'finish: STOP, tokens: 8',
      'outcome: completed',
    ]);
  });

  it('emitter prints the typed events, then the ordered parts of the final message', async () => {
    expect(await run('emitter', 6)).to.deep.equal([
      'thinking: "User wants weather."',
      'signature: anthropic/signature',
      'text: "Checking."',
      'tool call: get_weather {"city":"Paris"}',
      'parts: ["reasoning","text","tool_call"]',
      'finish: TOOL_EXECUTION',
    ]);
  });

  it('for-await prints three tokens, breaks, and keeps what arrived before the cancel', async () => {
    expect(await run('for-await', 5)).to.deep.equal(['token: "One"', 'token: " two"', 'token: " three"', 'outcome: cancelled', 'kept: "One two three"']);
  });

  it('custom-adapter surfaces the unmapped events raw, in wire order, and completes with ordered parts', async () => {
    expect(await run('custom-adapter', 7)).to.deep.equal([
      'thinking: Need the time.',
      'raw: PING',
      'tool: clock {"tz":"UTC"}',
      'text: It is ',
      'raw: CITE worldclock',
      'text: noon.',
      'final: "It is noon." parts=reasoning,tool_call,text usage=21',
    ]);
  });
});
