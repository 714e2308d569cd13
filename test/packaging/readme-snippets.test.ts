import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

// Every ```ts block in README.md must compile as pasted into a user's project: each block is
// its own module file, nothing is added to it, and 'partstream' resolves to the package's public
// entry (lib/index.ts, whose declarations dist/ ships). The examples are checked the same way. The
// settings are the strictest a user is likely to have: strict and exactOptionalPropertyTypes.

const repo = path.resolve(__dirname, '../..');

/** One fenced TypeScript block of a Markdown file. */
interface Snippet {
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly code: string;
}

/** The ```ts / ```typescript blocks of `markdown`, with the line of each opening fence. */
export function typeScriptBlocks(markdown: string): Snippet[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/i.exec(lines[i]);
    if (open === null) continue;
    const fence = open[2];
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence); i++) body.push(lines[i]);
    blocks.push({ line: start + 1, code: `${body.join('\n')}\n` });
  }
  return blocks;
}

/** The compiler settings of a strict user project that depends on partstream. */
const USER_SETTINGS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // A snippet with top-level await and no import is still a module, as in any ESM project.
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  typeRoots: [path.join(repo, 'node_modules', '@types')],
  skipLibCheck: true,
  esModuleInterop: true,
  paths: { partstream: [path.join(repo, 'lib', 'index.ts')] },
};

/** The compiler's complaints about `files` (and nothing else the program pulls in), one line each. */
function typeCheck(files: readonly string[], describeFile: (file: string, line: number) => string): string[] {
  const program = ts.createProgram({ rootNames: files, options: USER_SETTINGS });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file);
      return source === undefined ? [] : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${describeFile(diagnostic.file.fileName, line + 1)}: TS${diagnostic.code}: ${message}`;
  });
}

describe('README snippets and examples type-check as a user would paste them (strict, exactOptionalPropertyTypes)', function () {
  this.timeout(60_000);

  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'partstream-snippets-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('finds fenced TypeScript blocks and where they start', () => {
    expect(typeScriptBlocks('text\n```ts\nconst a = 1;\n```\n```sh\nnpm test\n```\n  ```typescript\nlet b;\n  ```\n')).to.deep.equal([
      { line: 2, code: 'const a = 1;\n' },
      { line: 8, code: 'let b;\n' },
    ]);
  });

  it('compiles every ```ts block of README.md on its own, as pasted', () => {
    const snippets = typeScriptBlocks(readFileSync(path.join(repo, 'README.md'), 'utf8'));
    const files = snippets.map((snippet) => {
      const file = path.join(work, `readme-line-${snippet.line}.ts`);
      writeFileSync(file, snippet.code);
      return file;
    });
    const where = (file: string, line: number): string => {
      const fence = Number(/readme-line-(\d+)\.ts$/.exec(file)?.[1]);
      return Number.isNaN(fence) ? `${path.relative(repo, file)}:${line}` : `README.md:${fence + line}`;
    };
    expect({ snippets: snippets.length > 0, errors: typeCheck(files, where) }).to.deep.equal({ snippets: true, errors: [] });
  });

  it('compiles every example', () => {
    const examples = readdirSync(path.join(repo, 'examples'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join(repo, 'examples', file));
    const errors = typeCheck(examples, (file, line) => `${path.relative(repo, file)}:${line}`);
    expect({ examples: examples.length > 0, errors }).to.deep.equal({ examples: true, errors: [] });
  });
});
