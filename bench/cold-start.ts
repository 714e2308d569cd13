import { spawnSync } from 'child_process';
import { join, relative } from 'path';
import { stats, type Stats } from './measure';
import type { Target } from './report';

/** A package loaded by name in a fresh process, from the repository root (so `partstream` resolves through its own "exports"). */
export type ColdStartPackage = 'partstream' | 'openai' | '@anthropic-ai/sdk';

/** The packages timed: partstream and, for comparison, the official SDKs (devDependencies). */
export const COLD_START_PACKAGES: readonly ColdStartPackage[] = ['partstream', 'openai', '@anthropic-ai/sdk'];

/** One way of loading one package, timed in `runs` fresh processes. */
export interface LoadRow {
  readonly package: ColdStartPackage;
  readonly how: 'require' | 'import';
  /** Milliseconds around `require(name)` or `await import(name)` inside the process (`performance.now()`). */
  readonly inProcess: Stats;
  /** CPU milliseconds of the process (user + system, all threads) over the same span: less moved by other processes competing for the cores. */
  readonly inProcessCpu: Stats;
  /** Wall-clock milliseconds of the whole process, start to exit. */
  readonly process: Stats;
  /** Median process time − median of the matching empty process (`node -e 0`, or its ES module form for import). */
  readonly overFloorMs: number;
  /** Median process time ÷ median of the matching empty process. */
  readonly ratioToFloor: number;
}

/** The time a fresh Node process takes to load the package, against a process that loads nothing and against the official SDKs. */
export interface ColdStart {
  /** The file `require('partstream')` loads (the CommonJS entry), relative to the repository root. */
  readonly module: string;
  /** The file `import('partstream')` loads, relative to the repository root. */
  readonly importModule: string;
  /** What `ensureBuild` did first (dist/ up to date, or rebuilt). */
  readonly build: string;
  readonly runs: number;
  /** `require('partstream')` in a fresh process, wall-clock milliseconds per process. */
  readonly require: Stats;
  /** `node -e "0"`: the floor. */
  readonly floor: Stats;
  /** `node --input-type=module -e "0"`: the floor of the import rows (the ES module loader starts too). */
  readonly importFloor: Stats;
  /** Median of require − median of floor: what loading the package adds. */
  readonly differenceMs: number;
  /** Median of require ÷ median of floor. */
  readonly ratio: number;
  /** Every package, each by `require` and by `import`. */
  readonly loads: readonly LoadRow[];
}

/** A fresh process: `node [--input-type=module] -e script`, printing the in-process time or nothing. */
interface Probe {
  readonly key: string;
  readonly args: readonly string[];
}

/** The script that times loading `name` inside the process and prints the wall-clock and CPU milliseconds. */
function loadScript(name: ColdStartPackage, how: 'require' | 'import'): readonly string[] {
  const load = how === 'require' ? `require(${JSON.stringify(name)})` : `await import(${JSON.stringify(name)})`;
  const script = [
    'const cpu = process.cpuUsage(); const start = performance.now();',
    `${load};`,
    'const wall = performance.now() - start; const used = process.cpuUsage(cpu);',
    'process.stdout.write(`${wall} ${(used.user + used.system) / 1000}`);',
  ].join(' ');
  return how === 'require' ? ['-e', script] : ['--input-type=module', '-e', script];
}

/** Runs one probe from `cwd`; its wall-clock milliseconds and what it printed. */
function runProbe(probe: Probe, cwd: string): { wall: number; printed: string } {
  const start = performance.now();
  const result = spawnSync(process.execPath, probe.args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`Expected node ${probe.args.join(' ')} to exit 0, got ${String(result.status)}: ${result.stderr}`);
  return { wall, printed: result.stdout };
}

/** The file `partstream` resolves to from `root` for require and for import, relative to `root`. */
function resolved(root: string): { require: string; import: string } {
  const script = "console.log(JSON.stringify([require.resolve('partstream'), require('node:url').fileURLToPath(import.meta.resolve('partstream'))]))";
  // An ES module script has no `require`; createRequire gives it one.
  const esm = `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); ${script}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', esm], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Expected partstream to resolve from ${root}, got: ${result.stderr}`);
  const [required, imported] = JSON.parse(result.stdout) as [string, string];
  return { require: relative(root, required), import: relative(root, imported) };
}

/**
 * Times `runs` rounds of fresh processes (after `warmup` untimed rounds, so the file cache is warm
 * for all): in each, `node -e 0`, its ES module form, and for each of COLD_START_PACKAGES a
 * process that requires it and one that imports it, each printing the time of the load itself;
 * the order rotates from round to round, so that a slow spell of the machine falls on all. Builds
 * dist/ first when it is missing or stale. Throws when the build or a process fails.
 */
export function measureColdStart(root: string, runs: number, warmup = 2): ColdStart {
  // scripts/ is CommonJS JavaScript outside the TypeScript project.
  const { ensureBuild } = require(join(root, 'scripts', 'ensure-build.js')) as { ensureBuild: (root?: string) => string };
  const build = ensureBuild(root);
  const files = resolved(root);
  const probes: Probe[] = [
    { key: 'floor', args: ['-e', '0'] },
    { key: 'import floor', args: ['--input-type=module', '-e', '0'] },
    ...COLD_START_PACKAGES.flatMap((name) => (['require', 'import'] as const).map((how) => ({ key: `${how} ${name}`, args: loadScript(name, how) }))),
  ];
  const walls = new Map<string, number[]>(probes.map((p) => [p.key, []]));
  const inside = new Map<string, number[]>(probes.map((p) => [p.key, []]));
  const insideCpu = new Map<string, number[]>(probes.map((p) => [p.key, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (let i = 0; i < probes.length; i++) {
      const probe = probes[(round + i) % probes.length];
      const { wall, printed } = runProbe(probe, root);
      if (round < warmup) continue;
      walls.get(probe.key)?.push(wall);
      if (printed === '') continue;
      const [wallInside, cpuInside] = printed.split(' ').map(Number);
      inside.get(probe.key)?.push(wallInside);
      insideCpu.get(probe.key)?.push(cpuInside);
    }
  }
  const statsOf = (key: string, from: Map<string, number[]>): Stats => stats(from.get(key) ?? []);
  const floor = statsOf('floor', walls);
  const importFloor = statsOf('import floor', walls);
  const loads = COLD_START_PACKAGES.flatMap((name) =>
    (['require', 'import'] as const).map((how): LoadRow => {
      const processStats = statsOf(`${how} ${name}`, walls);
      const base = how === 'require' ? floor : importFloor;
      return {
        package: name,
        how,
        inProcess: statsOf(`${how} ${name}`, inside),
        inProcessCpu: statsOf(`${how} ${name}`, insideCpu),
        process: processStats,
        overFloorMs: processStats.median - base.median,
        ratioToFloor: processStats.median / base.median,
      };
    }),
  );
  const required = statsOf('require partstream', walls);
  return {
    module: files.require,
    importModule: files.import,
    build,
    runs,
    require: required,
    floor,
    importFloor,
    differenceMs: required.median - floor.median,
    ratio: required.median / floor.median,
    loads,
  };
}

/**
 * The cold-start rows of the targets table. Judged: the CPU time of require('partstream') inside
 * the process, against `limitMs` (wall-clock time on a machine whose cores other processes compete
 * for measures mostly the waiting). Reported: the same load's wall-clock time, what it adds to a
 * process, import's times, and the CPU time against the official SDKs' (a ratio in the same run).
 */
export function coldStartTargets(cold: ColdStart, limitMs: number): Target[] {
  const row = (name: ColdStartPackage, how: 'require' | 'import'): LoadRow | undefined => cold.loads.find((l) => l.package === name && l.how === how);
  const own = row('partstream', 'require');
  if (own === undefined) return [];
  const bound = (name: string, value: Stats | number, judged: boolean): Target => {
    const median = typeof value === 'number' ? value : value.median;
    return {
      name,
      value: median,
      ...(typeof value === 'number' ? {} : { valueFromMins: value.min }),
      limit: limitMs,
      pass: median <= limitMs,
      ...(judged ? {} : { reportedOnly: true }),
    };
  };
  const out: Target[] = [
    bound("cold start: require('partstream') in process, CPU ms", own.inProcessCpu, true),
    bound("cold start: require('partstream') in process, wall ms", own.inProcess, false),
    bound("cold start: require('partstream') added to a process (medians), wall ms", own.overFloorMs, false),
  ];
  const imported = row('partstream', 'import');
  if (imported !== undefined) {
    out.push(bound("cold start: import('partstream') in process, CPU ms", imported.inProcessCpu, false));
    out.push(bound("cold start: import('partstream') in process, wall ms", imported.inProcess, false));
  }
  for (const sdk of ['openai', '@anthropic-ai/sdk'] as const) {
    const other = row(sdk, 'require');
    if (other === undefined) continue;
    const value = own.inProcessCpu.median / other.inProcessCpu.median;
    out.push({
      name: `cold start: require('partstream') ÷ require('${sdk}'), in process, CPU`,
      value,
      valueFromMins: own.inProcessCpu.min / other.inProcessCpu.min,
      limit: 1,
      pass: value <= 1,
      reportedOnly: true,
    });
  }
  return out;
}
