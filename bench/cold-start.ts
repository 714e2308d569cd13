import { spawnSync } from 'child_process';
import { join, relative } from 'path';
import { stats, type Stats } from './measure';

/** The time a fresh Node process takes to load the package, against a process that loads nothing. */
export interface ColdStart {
  /** The module each `require` run loads (the build output), relative to the repository root. */
  readonly module: string;
  /** What `ensureBuild` did first (dist/ up to date, or rebuilt). */
  readonly build: string;
  readonly runs: number;
  /** `node -e "require(module)"`, wall-clock milliseconds per process. */
  readonly require: Stats;
  /** `node -e "0"`: the floor. */
  readonly floor: Stats;
  /** Median of require − median of floor: what loading the package adds. */
  readonly differenceMs: number;
  /** Median of require ÷ median of floor. */
  readonly ratio: number;
}

function timeProcess(script: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`Expected node -e ${JSON.stringify(script)} to exit 0, got ${String(result.status)}: ${result.stderr}`);
  return elapsed;
}

/**
 * Times `runs` fresh processes each of `node -e "require('<root>/dist/cjs/index.cjs')"` and
 * `node -e "0"`, alternating (after `warmup` untimed pairs, so the file cache is warm for both),
 * after building dist/ when it is missing or stale. Throws when the build or a process fails.
 */
export function measureColdStart(root: string, runs: number, warmup = 2): ColdStart {
  // scripts/ is CommonJS JavaScript outside the TypeScript project.
  const { ensureBuild } = require(join(root, 'scripts', 'ensure-build.js')) as { ensureBuild: (root?: string) => string };
  const build = ensureBuild(root);
  const module = join(root, 'dist', 'cjs', 'index.cjs');
  const requireScript = `require(${JSON.stringify(module)})`;
  const requireTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    // Alternate which goes first, so a slow spell of the machine falls on both.
    let required: number;
    let floor: number;
    if (i % 2 === 0) {
      required = timeProcess(requireScript);
      floor = timeProcess('0');
    } else {
      floor = timeProcess('0');
      required = timeProcess(requireScript);
    }
    if (i < warmup) continue;
    requireTimes.push(required);
    floorTimes.push(floor);
  }
  const required = stats(requireTimes);
  const floor = stats(floorTimes);
  return { module: relative(root, module), build, runs, require: required, floor, differenceMs: required.median - floor.median, ratio: required.median / floor.median };
}
