import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// request-types.types.ts is compiled by the project's `tsc` with its `@ts-expect-error`
// directives (an unused one is an error there). This test compiles it once more without them and
// checks that each marked line fails, with the error code its comment names, and no other line does.

const repo = path.resolve(__dirname, '../..');
const file = path.join(__dirname, 'request-types.types.ts');

interface Expected {
  /** 0-based line of the statement under the directive. */
  readonly line: number;
  readonly code: number;
  readonly text: string;
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(repo, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  return { ...parsed.options, noEmit: true };
}

/** The diagnostics of `text` compiled in place of `file`. */
function diagnosticsOf(text: string): readonly ts.Diagnostic[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) => (path.resolve(name) === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, onError, create));
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file) as ts.SourceFile;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
}

describe('HTTP client request types (compiled with the TypeScript API)', function () {
  this.timeout(60_000);
  const original = readFileSync(file, 'utf8');
  const lines = original.split('\n');
  const expected: Expected[] = [];
  lines.forEach((line, index) => {
    const directive = /^\s*\/\/ @ts-expect-error (TS(\d+)) (.*)$/.exec(line);
    if (directive !== null) expected.push({ line: index + 1, code: Number(directive[2]), text: directive[3] as string });
  });
  let withDirectives: readonly ts.Diagnostic[];
  let withoutDirectives: readonly ts.Diagnostic[];

  before(() => {
    withDirectives = diagnosticsOf(original);
    // Blank the directives (the line numbers stay) so that each marked line is compiled bare.
    withoutDirectives = diagnosticsOf(lines.map((line) => (/^\s*\/\/ @ts-expect-error/.test(line) ? '' : line)).join('\n'));
  });

  it('has the misspelt-field, wrong-type and wrong-option cases to check', () => {
    expect(expected.map((entry) => entry.text)).to.include.members([
      'max_tokenz is not a field (did you mean max_tokens?)',
      'temperature is a number',
      "stream is the client's",
      "Ollama's option is host, not baseURL",
    ]);
    expect(expected.length).to.be.at.least(15);
  });

  it('compiles as written (every other line is valid, every directive is used)', () => {
    expect(withDirectives.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))).to.deep.equal([]);
  });

  it('fails on each marked line without its directive, with the code it names, and nowhere else', () => {
    const found = withoutDirectives.map((diagnostic) => ({
      line: diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? -1,
      code: diagnostic.code,
    }));
    const byLine = new Map<number, number[]>();
    for (const { line, code } of found) byLine.set(line, [...(byLine.get(line) ?? []), code]);
    expect([...byLine.keys()].sort((a, b) => a - b)).to.deep.equal(expected.map((entry) => entry.line));
    for (const entry of expected) expect(byLine.get(entry.line), `line ${entry.line + 1}: ${entry.text}`).to.include(entry.code);
  });
});
