import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLoopbackServer } from '../support/loopback-server';
import { diagnosticsOf, REPO, typeScriptBlocks, userProgram } from './support/user-program';

// A plain CommonJS script (it also runs from the command line), hence require.
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };

/** The text of the `## ` section of `markdown` titled `title`, heading excluded (empty when there is none). */
function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) return '';
  const body = markdown.slice(start + title.length + 5);
  const next = body.search(/^## /m);
  return next === -1 ? body : body.slice(0, next);
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Runs `script` as an ES module whose 'partstream' is this package, with `env` added; resolves with what it printed. */
function runAsUser(script: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'partstream-quickstart-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'quickstart', private: true, type: 'module' }));
  writeFileSync(path.join(dir, 'quickstart.mjs'), script);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules', 'partstream'), 'dir');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['quickstart.mjs'], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const giveUp = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(giveUp);
      rmSync(dir, { recursive: true, force: true });
      resolve({ status, stdout, stderr });
    });
  });
}

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
    const errors = diagnosticsOf(
      program,
      snippets.map(({ file }) => file),
      where,
    );
    expect({ snippets: snippets.length > 0, errors }).to.deep.equal({ snippets: true, errors: [] });
  });

  it('opens with the two commands, then a quick start of under ten lines (compiled above with the other blocks)', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const quick = typeScriptBlocks(sectionOf(readme, 'Quick start'));
    const lines = quick.length === 0 ? [] : quick[0].code.split('\n').filter((line) => line.trim() !== '');
    expect({
      commands: readme.includes('```sh\nnpm install && npm start   #') && readme.includes('\nnpm install && npm test    #'),
      firstHeadings: headings.slice(0, 2),
      quickBlocks: quick.length,
      underTen: lines.length > 0 && lines.length < 10,
    }).to.deep.equal({ commands: true, firstHeadings: ['Quick start', 'Contents'], quickBlocks: 1, underTen: true });
  });

  it('runs the quick start as pasted into an ES module, with the key and base URL from the environment: streamed text, then the final message', async function () {
    this.timeout(120_000);
    ensureBuild(REPO);
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const [quick] = typeScriptBlocks(sectionOf(readme, 'Quick start'));
    const chunk = (delta: object, finish: string | null): string =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const server = await startLoopbackServer({
      body: `${chunk({ role: 'assistant', content: 'Nile, ' }, null)}${chunk({ content: 'Amazon, Yangtze.' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
      chunkSize: 40,
    });
    try {
      const run = await runAsUser(quick.code, { OPENAI_API_KEY: 'sk-quickstart-test', OPENAI_BASE_URL: `${server.url}/v1` });
      const request = server.requests[0];
      expect({
        status: run.status,
        stderr: run.stderr,
        streamed: run.stdout.startsWith('Nile, Amazon, Yangtze.\n'),
        final: /text: 'Nile, Amazon, Yangtze\.'/.test(run.stdout) && /type: 'text'/.test(run.stdout),
        requests: server.requests.length,
        path: request?.url,
        authorization: request?.headers.authorization,
      }).to.deep.equal(
        {
          status: 0,
          stderr: '',
          streamed: true,
          final: true,
          requests: 1,
          path: '/v1/chat/completions',
          authorization: 'Bearer sk-quickstart-test',
        },
        run.stdout,
      );
    } finally {
      await server.close();
    }
  });

  it('links only to headings that exist, in README.md and bench/README.md', () => {
    const broken = ['README.md', 'bench/README.md'].flatMap((file) => {
      const text = readFileSync(path.join(REPO, file), 'utf8');
      return [...text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)].flatMap(([, target, anchor]) => {
        const linked = target === '' ? path.join(REPO, file) : path.resolve(path.dirname(path.join(REPO, file)), target);
        const anchors = [...readFileSync(linked, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]));
        return anchors.includes(anchor) ? [] : [`${file}: ${target}#${anchor}`];
      });
    });
    expect(broken).to.deep.equal([]);
  });

  it('compiles every example', () => {
    const { program, examples } = userProgram();
    const errors = diagnosticsOf(program, examples, (file, line) => `${path.relative(REPO, file)}:${line}`);
    expect({ examples: examples.length > 0, errors }).to.deep.equal({ examples: true, errors: [] });
  });
});
