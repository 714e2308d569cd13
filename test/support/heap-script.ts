import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `script` in a fresh Node process with `gc()` exposed and ts-node loaded (so it may require
 * lib/ sources), from the repository root; the words it wrote to stdout, split on spaces. For
 * retained-heap tests, whose scripts print the heap they measured and how much they kept.
 */
export function runHeapScript(script: string): string[] {
  const out = execFileSync(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: join(__dirname, '../..'),
    encoding: 'utf8',
  });
  return out.trim().split(' ');
}
