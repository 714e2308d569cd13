import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `script` in a fresh Node process with `gc()` exposed and ts-node loaded (so it may require
 * lib/ sources), from the repository root; the words it wrote to stdout, split on spaces. For
 * retained-heap tests, whose scripts print the heap they measured and how much they kept.
 * `flags`: more Node / V8 flags (e.g. `--allow-natives-syntax`).
 */
export function runHeapScript(script: string, flags: readonly string[] = []): string[] {
  const out = execFileSync(process.execPath, ['--expose-gc', ...flags, '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: join(__dirname, '../..'),
    encoding: 'utf8',
  });
  return out.trim().split(' ');
}

/**
 * Measures what a script keeps alive. `setup` runs first (its requires, helpers); then, between
 * two full collections, `body`, which keeps what is measured in `kept` and may call
 * `cutFromChunk(text)`: `text` cut out of a 1 MB string of its own, as a decoder cuts a frame out of
 * a network chunk (a view would keep the whole chunk alive). Returns the MiB the heap grew by and
 * the words of `report` (a JavaScript expression, evaluated after the second collection).
 */
export function retainedByScript(setup: string, body: string, report: string): { retainedMiB: number; report: string[] } {
  const [retained, ...words] = runHeapScript(`
    ${setup}
    const cutFromChunk = (text) => ('é'.repeat(500000) + text + 'é'.repeat(10)).slice(500000, 500000 + text.length);
    const kept = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    ${body}
    gc();
    process.stdout.write(String((process.memoryUsage().heapUsed - before) / 2 ** 20) + ' ' + (${report}));
  `);
  return { retainedMiB: Number(retained), report: words };
}
