import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

// Runs every file in examples/ as its own process (through ts-node, as the README says) and
// compares what it prints with test/examples/expected/<name>.txt. Examples import 'partstream',
// as a user's project does: type-checking maps it to lib/index.ts (tsconfig.json "paths"), and at
// run time Node resolves the package's own name through its "exports" to dist/, which is rebuilt
// first when it is older than lib/ (scripts/ensure-build.js). A new example needs its
// expected output: run it, read it, and save it there — or run this test once with
// PARTSTREAM_WRITE_EXAMPLE_OUTPUT=1, which writes the missing files (then read them!).
//
// Each example also runs as an ES module, as when copied into a project with "type": "module":
// compiled to ESM JavaScript (.mjs) in a scratch project whose node_modules links 'partstream' to
// this package and any other package the example imports to this repository's copy. It must print
// the same thing (no `require`, `module` or `__dirname`, which an ES module does not have).

const repo = path.resolve(__dirname, '../..');
// A plain CommonJS script (it also runs from the command line), hence require.
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };
const examplesDir = path.join(repo, 'examples');
const expectedDir = path.join(__dirname, 'expected');
const examples = existsSync(examplesDir)
  ? readdirSync(examplesDir)
      .filter((file) => file.endsWith('.ts'))
      .sort()
  : [];

/** What one example printed and how it exited. */
interface ExampleRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How an example is run: its TypeScript through ts-node (CommonJS, as the README says), or compiled to an ES module. */
type RunMode = 'ts-node' | 'esm';

/** A scratch ES module project with each example compiled to `<name>.mjs`; removed at exit. */
function esmProject(files: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'partstream-examples-esm-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'examples-esm', private: true, type: 'module' }));
  const packages = new Set<string>();
  for (const file of files) {
    const source = readFileSync(path.join(examplesDir, file), 'utf8');
    for (const [, specifier] of source.matchAll(/\bfrom\s+['"]([^'".][^'"]*)['"]/g)) {
      if (!specifier.startsWith('node:')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
    }
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: file,
    });
    writeFileSync(path.join(dir, file.replace(/\.ts$/, '.mjs')), outputText);
  }
  for (const name of packages) {
    const link = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(name === 'partstream' ? repo : path.join(repo, 'node_modules', name), link, 'dir');
  }
  return dir;
}

function runExample(file: string, mode: RunMode, esmDir: string): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const args = mode === 'ts-node' ? ['-r', 'ts-node/register/transpile-only', path.join('examples', file)] : [file.replace(/\.ts$/, '.mjs')];
    const child = spawn(process.execPath, args, {
      cwd: mode === 'ts-node' ? repo : esmDir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const giveUp = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(giveUp);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs the examples two at a time (the machine may have two cores), each started once per mode; keyed by `<mode> <file>`. */
function runAll(files: readonly string[], esmDir: string): Map<string, Promise<ExampleRun>> {
  const runs = new Map<string, Promise<ExampleRun>>();
  let slot: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  const jobs = files.flatMap((file) => (['ts-node', 'esm'] as const).map((mode) => ({ file, mode })));
  jobs.forEach(({ file, mode }, i) => {
    const run = slot[i % 2].then(() => runExample(file, mode, esmDir));
    slot = slot.map((previous, j) => (j === i % 2 ? run.catch(() => undefined) : previous));
    runs.set(`${mode} ${file}`, run);
  });
  return runs;
}

describe('examples/ (each runs as its own process)', function () {
  this.timeout(180_000);
  let runs: Map<string, Promise<ExampleRun>>;

  before(function () {
    this.timeout(120_000);
    ensureBuild(repo);
    runs = runAll(examples, esmProject(examples));
  });

  it('has examples to run', () => {
    expect(examples).to.include.members(['cancel.ts', 'consume-provider-stream.ts']);
  });

  it("imports only from the package name, as a user's project can", () => {
    const relative = examples.filter((file) => /from\s+['"]\.{1,2}\//.test(readFileSync(path.join(examplesDir, file), 'utf8')));
    expect(relative).to.deep.equal([]);
  });

  for (const file of examples) {
    it(`${file} exits 0 and prints its expected output`, async () => {
      const run = await (runs.get(`ts-node ${file}`) as Promise<ExampleRun>);
      const expectedFile = path.join(expectedDir, file.replace(/\.ts$/, '.txt'));
      if (!existsSync(expectedFile) && process.env.PARTSTREAM_WRITE_EXAMPLE_OUTPUT === '1' && run.status === 0) {
        mkdirSync(expectedDir, { recursive: true });
        writeFileSync(expectedFile, run.stdout);
      }
      const expected = existsSync(expectedFile) ? readFileSync(expectedFile, 'utf8') : `(no ${path.relative(repo, expectedFile)})`;
      expect(run).to.deep.equal({ status: 0, stdout: expected, stderr: '' });
    });

    it(`${file} also runs as an ES module and prints the same`, async () => {
      const expectedFile = path.join(expectedDir, file.replace(/\.ts$/, '.txt'));
      const expected = existsSync(expectedFile) ? readFileSync(expectedFile, 'utf8') : `(no ${path.relative(repo, expectedFile)})`;
      expect(await (runs.get(`esm ${file}`) as Promise<ExampleRun>)).to.deep.equal({ status: 0, stdout: expected, stderr: '' });
    });
  }
});
