import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { SmokeResults } from '../fixtures/smoke-consumer';

const ROOT = join(__dirname, '..', '..', '..');
const MARKER = 'SMOKE-RESULTS ';

/** True when `binary --version` runs and exits 0 within 15 s. */
function runs(binary: string): boolean {
  if (!existsSync(binary)) return false;
  const result = spawnSync(binary, ['--version'], { timeout: 15_000, stdio: 'ignore', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } });
  return result.status === 0;
}

/** Where `npm run runtimes` (scripts/install-runtimes.js) installs the pinned Deno and Bun. */
export const RUNTIMES_DIR = resolve(ROOT, process.env.PARTSTREAM_RUNTIMES_DIR || '.runtimes');

/** The versions test/runtimes/runtimes.json pins, which `npm run runtimes` installs. */
export const PINNED_RUNTIMES = JSON.parse(readFileSync(join(ROOT, 'test', 'runtimes', 'runtimes.json'), 'utf8')) as { readonly deno: string; readonly bun: string };

function platformBinaries(scope: string, relative: string): string[] {
  const dir = join(RUNTIMES_DIR, 'node_modules', scope);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((name) => join(dir, name, relative));
}

/**
 * The binary of the pinned `deno` or `bun`, as `npm run runtimes` installs it into
 * {@link RUNTIMES_DIR} (outside node_modules: they are no devDependencies), or null when it is not
 * installed there or does not run here. The package's own bin (put in place by its install
 * script) comes first; its platform package's binary is the fallback for an install that skipped
 * scripts.
 */
export function findRuntime(name: 'deno' | 'bun'): string | null {
  const candidates =
    name === 'deno'
      ? [join(RUNTIMES_DIR, 'node_modules', 'deno', 'deno'), ...platformBinaries('@deno', 'deno')]
      : [join(RUNTIMES_DIR, 'node_modules', 'bun', 'bin', 'bun.exe'), ...platformBinaries('@oven', join('bin', 'bun'))];
  return candidates.find(runs) ?? null;
}

/** The one-line hint of a runtime test that cannot run: how to get the pinned runtime. */
export function missingRuntimeHint(name: 'deno' | 'bun'): string {
  const label = name === 'deno' ? 'Deno' : 'Bun';
  const shown = relative(ROOT, RUNTIMES_DIR);
  return `${label} ${PINNED_RUNTIMES[name]} is not installed: \`npm run runtimes\` installs the pinned Deno and Bun into ${shown === '' || shown.startsWith('..') ? RUNTIMES_DIR : shown} (.ci/run does)`;
}

/**
 * Runs the bundled smoke consumer under another runtime: `bundle` is written as `smoke.mjs` in a
 * new temporary folder beside a `run.mjs` that imports it, runs it against `origin` and prints the
 * results as one JSON line; `args` come before `run.mjs` (e.g. Deno's permissions). Rejects with
 * the child's output when it fails, prints no results or runs past `timeoutMs`.
 */
export async function runSmokeInChild(binary: string, args: readonly string[], bundle: string, origin: string, timeoutMs = 30_000): Promise<SmokeResults> {
  const dir = mkdtempSync(join(tmpdir(), 'partstream-smoke-'));
  try {
    writeFileSync(join(dir, 'smoke.mjs'), bundle);
    writeFileSync(
      join(dir, 'run.mjs'),
      `import { runSmoke } from './smoke.mjs';\nconst results = await runSmoke(${JSON.stringify(origin)});\nconsole.log(${JSON.stringify(MARKER)} + JSON.stringify(results));\n`,
    );
    const child = spawn(binary, [...args, 'run.mjs'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DENO_DIR: join(dir, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (status) => resolve(status));
    }).finally(() => clearTimeout(timer));
    const line = stdout.split('\n').find((candidate) => candidate.startsWith(MARKER));
    if (code !== 0 || line === undefined) {
      throw new Error(`Expected ${binary} to print the smoke results and exit 0, got exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    }
    return JSON.parse(line.slice(MARKER.length)) as SmokeResults;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
