import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** How an isolated script ended. */
export interface IsolatedRun {
  /** The exit code, or null when the process was killed. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the script did not finish within `timeoutMs` and was killed. */
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  readonly elapsedMs: number;
}

/** Options of `runIsolated`. */
export interface IsolatedOptions {
  /** The child's old-space limit (`--max-old-space-size`), MiB; 256 by default. */
  readonly maxOldSpaceMb?: number;
  /** Kill the child after this long; 20 000 ms by default. */
  readonly timeoutMs?: number;
}

/** The repository root, for `require(ROOT + '/lib/…')` inside isolated scripts. */
export const ROOT = path.resolve(__dirname, '../../..');

/**
 * Runs CommonJS `script` in a child Node process (ts-node registered, so it can `require` the
 * TypeScript sources through `ROOT`), with a heap limit and a kill timer. A regression that hangs
 * or exhausts memory then fails the test that called it instead of taking the suite down.
 * The script reports by printing (e.g. one JSON line) and by its exit code.
 */
export function runIsolated(script: string, options: IsolatedOptions = {}): Promise<IsolatedRun> {
  const maxOldSpaceMb = options.maxOldSpaceMb ?? 256;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${maxOldSpaceMb}`, '--expose-gc', '-r', 'ts-node/register/transpile-only', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < 1 << 20) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 1 << 20) stderr += text;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}
