import { expect } from 'chai';
import path from 'node:path';
import { diagnosticsOf, REPO, typeScriptBlocks, userProgram } from './support/user-program';

// Every ```ts block in README.md must compile as pasted into a user's project: each block is
// its own module file, nothing is added to it, and 'partstream' resolves to the package's public
// entry. The examples are checked the same way. The settings are the strictest a user is likely
// to have: strict and exactOptionalPropertyTypes (test/packaging/support/user-program.ts).
describe('README snippets and examples type-check as a user would paste them (strict, exactOptionalPropertyTypes)', function () {
  this.timeout(60_000);

  it('finds fenced TypeScript blocks and where they start', () => {
    expect(typeScriptBlocks('text\n```ts\nconst a = 1;\n```\n```sh\nnpm test\n```\n  ```typescript\nlet b;\n  ```\n')).to.deep.equal([
      { line: 2, code: 'const a = 1;\n' },
      { line: 8, code: 'let b;\n' },
    ]);
  });

  it('compiles every ```ts block of README.md on its own, as pasted', () => {
    const { program, snippets } = userProgram();
    const fenceOf = new Map(snippets.map(({ file, snippet }) => [file, snippet.line]));
    const where = (file: string, line: number): string => {
      const fence = fenceOf.get(path.resolve(file));
      return fence === undefined ? `${path.relative(REPO, file)}:${line}` : `README.md:${fence + line}`;
    };
    const errors = diagnosticsOf(program, snippets.map(({ file }) => file), where);
    expect({ snippets: snippets.length > 0, errors }).to.deep.equal({ snippets: true, errors: [] });
  });

  it('compiles every example', () => {
    const { program, examples } = userProgram();
    const errors = diagnosticsOf(program, examples, (file, line) => `${path.relative(REPO, file)}:${line}`);
    expect({ examples: examples.length > 0, errors }).to.deep.equal({ examples: true, errors: [] });
  });
});
