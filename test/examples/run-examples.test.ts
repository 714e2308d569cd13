import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Runs every file in examples/ as its own process (through ts-node, as the README says) and
// compares what it prints with test/examples/expected/<name>.txt. Examples import 'partstream',
// as a user's project does: type-checking maps it to lib/index.ts (tsconfig.json "paths"), and at
// run time Node resolves the package's own name through its "exports" to dist/, which is rebuilt
// first when it is older than lib/ (scripts/ensure-build.js). A new example needs its
// expected output: run it, read it, and save it there — or run this test once with
// PARTSTREAM_WRITE_EXAMPLE_OUTPUT=1, which writes the missing files (then read them!).

const repo = path.resolve(__dirname, '../..');
// A plain CommonJS script (it also runs from the command line), hence require.
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };
const examplesDir = path.join(repo, 'examples');
const expectedDir = path.join(__dirname, 'expected');
const examples = existsSync(examplesDir) ? readdirSync(examplesDir).filter((file) => file.endsWith('.ts')).sort() : [];

/** What one example printed and how it exited. */
interface ExampleRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runExample(file: string): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join('examples', file)], {
      cwd: repo,
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

/** Runs the examples two at a time (the machine may have two cores), each started once. */
function runAll(files: readonly string[]): Map<string, Promise<ExampleRun>> {
  const runs = new Map<string, Promise<ExampleRun>>();
  let slot: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  files.forEach((file, i) => {
    const run = slot[i % 2].then(() => runExample(file));
    slot = slot.map((previous, j) => (j === i % 2 ? run.catch(() => undefined) : previous));
    runs.set(file, run);
  });
  return runs;
}

describe('examples/ (each runs as its own process)', function () {
  this.timeout(180_000);
  let runs: Map<string, Promise<ExampleRun>>;

  before(function () {
    this.timeout(120_000);
    ensureBuild(repo);
    runs = runAll(examples);
  });

  it('has examples to run', () => {
    expect(examples).to.include.members(['cancel.ts', 'consume-provider-stream.ts']);
  });

  it('imports only from the package name, as a user\'s project can', () => {
    const relative = examples.filter((file) => /from\s+['"]\.{1,2}\//.test(readFileSync(path.join(examplesDir, file), 'utf8')));
    expect(relative).to.deep.equal([]);
  });

  for (const file of examples) {
    it(`${file} exits 0 and prints its expected output`, async () => {
      const run = await (runs.get(file) as Promise<ExampleRun>);
      const expectedFile = path.join(expectedDir, file.replace(/\.ts$/, '.txt'));
      if (!existsSync(expectedFile) && process.env.PARTSTREAM_WRITE_EXAMPLE_OUTPUT === '1' && run.status === 0) {
        mkdirSync(expectedDir, { recursive: true });
        writeFileSync(expectedFile, run.stdout);
      }
      const expected = existsSync(expectedFile) ? readFileSync(expectedFile, 'utf8') : `(no ${path.relative(repo, expectedFile)})`;
      expect(run).to.deep.equal({ status: 0, stdout: expected, stderr: '' });
    });
  }
});
