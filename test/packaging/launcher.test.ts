import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');

// bin/partstream.js in a source checkout runs dist/ only while it is up to date with lib/
// (scripts/dist-status.js), else the TypeScript sources. Here both are stand-ins that print which
// one ran, in a temp checkout whose file times the test sets, so no build is needed.
describe('bin/partstream.js: which build it runs', function () {
  this.timeout(60_000);

  let checkout: string;
  const base = Date.now() / 1000 - 3600;
  const at = (seconds: number): Date => new Date((base + seconds) * 1000);
  const stamp = (): string => path.join(checkout, 'dist', 'esm', 'package.json');

  /** Runs the launcher; what it printed tells which build ran. */
  function launch(): { stdout: string; stderr: string; status: number | null } {
    const result = spawnSync(process.execPath, [path.join(checkout, 'bin', 'partstream.js'), 'replay'], { cwd: checkout, encoding: 'utf8', timeout: 30_000 });
    return { stdout: result.stdout, stderr: result.stderr, status: result.status };
  }

  beforeEach(() => {
    checkout = mkdtempSync(path.join(tmpdir(), 'partstream-launcher-'));
    for (const entry of ['bin', 'scripts', 'tsconfig.json', 'tsconfig.build.json']) cpSync(path.join(repo, entry), path.join(checkout, entry), { recursive: true });
    symlinkSync(path.join(repo, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
    mkdirSync(path.join(checkout, 'lib', 'cli'), { recursive: true });
    writeFileSync(path.join(checkout, 'lib', 'cli', 'main.ts'), "export function run(): void {\n  process.stdout.write('ran lib\\n');\n}\n");
    mkdirSync(path.join(checkout, 'dist', 'node', 'cli'), { recursive: true });
    writeFileSync(path.join(checkout, 'dist', 'node', 'cli', 'main.js'), "export function run() {\n  process.stdout.write('ran dist\\n');\n}\n");
    writeFileSync(path.join(checkout, 'dist', 'node', 'package.json'), '{"type":"module"}\n');
    mkdirSync(path.join(checkout, 'dist', 'esm'), { recursive: true });
    writeFileSync(stamp(), '{"type":"module"}\n');
    // Everything the build reads is older than the build's start (time 0), which the stamp records.
    for (const input of ['lib/cli/main.ts', 'lib/cli', 'lib', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js']) utimesSync(path.join(checkout, input), at(-60), at(-60));
    utimesSync(stamp(), at(0), at(0));
  });

  afterEach(() => rmSync(checkout, { recursive: true, force: true }));

  it('runs dist/ when nothing it was built from changed since the build started', () => {
    expect(launch()).to.deep.equal({ stdout: 'ran dist\n', stderr: '', status: 0 });
  });

  it('runs lib/ (ts-node) once a source file is newer than the build, with no hint on a non-terminal stderr', () => {
    utimesSync(path.join(checkout, 'lib', 'cli', 'main.ts'), at(1), at(1));
    expect(launch()).to.deep.equal({ stdout: 'ran lib\n', stderr: '', status: 0 });
  });

  it('runs lib/ once a file was added to or removed from lib/ (the folder is newer), or tsconfig.build.json changed', () => {
    utimesSync(path.join(checkout, 'lib', 'cli'), at(1), at(1));
    const added = launch().stdout;
    utimesSync(path.join(checkout, 'lib', 'cli'), at(-60), at(-60));
    utimesSync(path.join(checkout, 'tsconfig.build.json'), at(1), at(1));
    expect([added, launch().stdout]).to.deep.equal(['ran lib\n', 'ran lib\n']);
  });

  it('runs lib/ when the last build did not complete (stamp dated 1970) or dist/ is missing', () => {
    utimesSync(stamp(), new Date(0), new Date(0));
    const incomplete = launch().stdout;
    rmSync(path.join(checkout, 'dist'), { recursive: true });
    expect([incomplete, launch().stdout]).to.deep.equal(['ran lib\n', 'ran lib\n']);
  });

  it('runs dist/ unconditionally in the published layout (no lib/), and says what to do when dist/ is missing too', () => {
    utimesSync(stamp(), new Date(0), new Date(0));
    rmSync(path.join(checkout, 'lib'), { recursive: true });
    const published = launch();
    rmSync(path.join(checkout, 'dist'), { recursive: true });
    expect([published, launch()]).to.deep.equal([
      { stdout: 'ran dist\n', stderr: '', status: 0 },
      { stdout: '', stderr: 'partstream: cannot find the compiled command (dist/); reinstall the package\n', status: 2 },
    ]);
  });
});
