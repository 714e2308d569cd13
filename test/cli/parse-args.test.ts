import { expect } from 'chai';
import { parseArgs } from '../../lib/cli/parse-args';

describe('parseArgs', () => {
  it('reads "replay" alone as the embedded recording, format auto, human view', () => {
    expect(parseArgs(['replay'])).to.deep.equal({ type: 'replay', file: null, format: 'auto', json: false });
  });

  it('reads a file, --format with a separate value and --json in any order', () => {
    expect(parseArgs(['replay', '--json', 'rec.sse', '--format', 'gemini'])).to.deep.equal({
      type: 'replay',
      file: 'rec.sse',
      format: 'gemini',
      json: true,
    });
  });

  it('reads --format=VALUE and "-" as standard input', () => {
    expect(parseArgs(['replay', '-', '--format=openai-responses'])).to.deep.equal({
      type: 'replay',
      file: '-',
      format: 'openai-responses',
      json: false,
    });
  });

  it('takes an argument after "--" as a file even when it looks like an option', () => {
    expect(parseArgs(['replay', '--', '--json'])).to.deep.equal({ type: 'replay', file: '--json', format: 'auto', json: false });
  });

  it('answers --help, -h and "help" with the help command', () => {
    expect([parseArgs(['--help']), parseArgs(['replay', '-h']), parseArgs(['help'])]).to.deep.equal([
      { type: 'help' },
      { type: 'help' },
      { type: 'help' },
    ]);
  });

  it('refuses a missing or unknown command, naming what it expected', () => {
    expect([parseArgs([]), parseArgs(['play'])]).to.deep.equal([
      { type: 'usage-error', message: 'missing command: expected "replay"' },
      { type: 'usage-error', message: 'unknown command "play": expected "replay"' },
    ]);
  });

  it('refuses an unknown format, a missing format value, an unknown option and a second file', () => {
    const formats = 'auto, openai-chat, openai-responses, anthropic, gemini, ollama';
    expect([
      parseArgs(['replay', '--format', 'claude']),
      parseArgs(['replay', '--format']),
      parseArgs(['replay', '--verbose']),
      parseArgs(['replay', 'a.sse', 'b.sse']),
    ]).to.deep.equal([
      { type: 'usage-error', message: `unknown format "claude": expected one of ${formats}` },
      { type: 'usage-error', message: `--format needs a value: expected one of ${formats}` },
      { type: 'usage-error', message: 'unknown option "--verbose": expected one of --format, --json, --raw' },
      { type: 'usage-error', message: 'unexpected argument "b.sse": replay takes at most one FILE' },
    ]);
  });
});
