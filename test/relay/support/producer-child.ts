// Starts test/relay/support/producer-process.ts as a child process (bundled by esbuild) and follows its IPC reports.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

/** A report from the producer process. */
export interface ChildReport {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A running producer process. */
export interface ProducerChild {
  readonly process: ChildProcess;
  readonly reports: ChildReport[];
  /** The first report matching `test` (already received or to come); fails after `timeoutMs` or when the process exits first. */
  next(what: string, test: (report: ChildReport) => boolean, timeoutMs?: number): Promise<ChildReport>;
  /** Ends the process (SIGKILL) unless it has exited. */
  kill(): void;
}

const REPO = path.resolve(__dirname, '../../..');
let bundled: string | null = null;

/**
 * producer-process.ts bundled once per test run (esbuild, CommonJS, packages left to
 * node_modules): a process starts in a fraction of a second instead of transpiling the library.
 */
function producerScript(): string {
  if (bundled !== null) return bundled;
  const dir = mkdtempSync(path.join(tmpdir(), 'partstream-producer-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, 'producer-process.cjs');
  buildSync({ entryPoints: [path.join(__dirname, 'producer-process.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile, logLevel: 'error' });
  bundled = outfile;
  return outfile;
}

/** Forks a producer process for `job` (see producer-process.ts). */
export function forkProducer(job: Record<string, unknown>): ProducerChild {
  const child = fork(producerScript(), [JSON.stringify(job)], { execArgv: [], env: { ...process.env, NODE_PATH: path.join(REPO, 'node_modules') }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const reports: ChildReport[] = [];
  const waiters = new Set<() => void>();
  let exited = false;
  child.on('message', (message) => {
    reports.push(message as ChildReport);
    for (const waiter of [...waiters]) waiter();
  });
  child.on('exit', () => {
    exited = true;
    for (const waiter of [...waiters]) waiter();
  });
  return {
    process: child,
    reports,
    next(what, test, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const crash = reports.find((report) => report.type === 'crash');
          const found = reports.find(test);
          if (found !== undefined || crash !== undefined || exited) {
            clearTimeout(timer);
            waiters.delete(check);
            if (found !== undefined) resolve(found);
            else reject(new Error(`Expected ${what} from the producer process, got ${crash !== undefined ? String(crash.message) : 'its exit'}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Expected ${what} from the producer process within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
