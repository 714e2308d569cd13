import { expect } from 'chai';
import { parseArgs, USAGE } from '../../lib/cli/parse-args';

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
    expect([parseArgs(['--help']), parseArgs(['replay', '-h']), parseArgs(['help'])]).to.deep.equal([{ type: 'help' }, { type: 'help' }, { type: 'help' }]);
  });

  it('refuses a missing or unknown command, naming what it expected', () => {
    expect([parseArgs([]), parseArgs(['play'])]).to.deep.equal([
      { type: 'usage-error', message: 'missing command: expected "replay"' },
      { type: 'usage-error', message: 'unknown command "play": expected "replay"' },
    ]);
  });

  it('lists every option of the usage text in the unknown-option error', () => {
    // The Options section of the usage text: each line that starts with an option names one or two (`-v, --version`).
    const section = USAGE.slice(USAGE.indexOf('Options:'), USAGE.indexOf('\n\n', USAGE.indexOf('Options:')));
    const documented = section.split('\n').flatMap((line) => /^ {2}(-[\w-]+(?:, -[\w-]+)?)/.exec(line)?.[1]?.split(', ') ?? []);
    expect(documented).to.deep.equal(['--format', '--json', '--raw', '--pace', '-v', '--version', '-h', '--help']);
    const refused = parseArgs(['replay', '--nope']);
    expect(refused.type).to.equal('usage-error');
    const listed = (refused as { message: string }).message.replace(/^unknown option "--nope": expected one of /, '').split(', ');
    expect(listed).to.deep.equal(documented);
  });

  it('refuses an unknown format, a missing format value, an unknown option and a second file', () => {
    const formats = 'auto, openai-chat, openai-responses, anthropic, gemini, ollama, bedrock-converse';
    expect([parseArgs(['replay', '--format', 'claude']), parseArgs(['replay', '--format']), parseArgs(['replay', '--verbose']), parseArgs(['replay', 'a.sse', 'b.sse'])]).to.deep.equal([
      { type: 'usage-error', message: `unknown format "claude": expected one of ${formats}` },
      { type: 'usage-error', message: `--format needs a value: expected one of ${formats}` },
      { type: 'usage-error', message: 'unknown option "--verbose": expected one of --format, --json, --raw, --pace, -v, --version, -h, --help' },
      { type: 'usage-error', message: 'unexpected argument "b.sse": replay takes at most one FILE' },
    ]);
  });
});
