import fc from 'fast-check';
import type { CorpusEntry } from './fixture-corpus';

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new TypeError(`Expected ${name} to be an integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** The seed `npm test` runs with, so the suite is deterministic. */
export const DEFAULT_FUZZ_SEED = 20261201;

function baseSeed(): number {
  if (process.env.FUZZ_SEED?.trim() === 'random') return Math.floor(Math.random() * 0x7fffffff) ^ (Date.now() & 0x7fffffff);
  return envInteger('FUZZ_SEED') ?? DEFAULT_FUZZ_SEED;
}

/**
 * The base seed of the run: `FUZZ_SEED` when set (`random` for a fresh one, as `npm run fuzz`
 * does), else the fixed `DEFAULT_FUZZ_SEED`, so `npm test` is deterministic. It is printed in the
 * suite titles; setting it again replays the same cases (each property and fixture derives its
 * own seed).
 */
export const FUZZ_SEED: number = baseSeed();

/**
 * Cases per property, spread evenly over the fixtures (each fixture gets at least one).
 * `FUZZ_RUNS` sets it; the default keeps `npm test` fast.
 */
export const FUZZ_RUNS: number = envInteger('FUZZ_RUNS') ?? 500;

/** Only fixtures whose path contains `FUZZ_FIXTURES` (comma-separated substrings) when set. */
const FILTER = (process.env.FUZZ_FIXTURES ?? '')
  .split(',')
  .map((part) => part.trim())
  .filter((part) => part.length > 0);

/** The fixtures a fuzz property runs over. */
export function fuzzedFixtures(entries: readonly CorpusEntry[]): readonly CorpusEntry[] {
  return FILTER.length === 0 ? entries : entries.filter((entry) => FILTER.some((part) => entry.file.includes(part)));
}

/** Runs for one fixture: `FUZZ_RUNS × share` spread over `fixtures`, at least one. */
export function runsPerFixture(fixtures: number, share = 1): number {
  return Math.max(1, Math.ceil((FUZZ_RUNS * share) / Math.max(1, fixtures)));
}

/** A 31-bit seed derived from the base seed and names (FNV-1a), so each property × fixture is reproducible alone. */
export function seedFor(...names: string[]): number {
  let hash = 0x811c9dc5 ^ FUZZ_SEED;
  for (const name of names) {
    for (let i = 0; i < name.length; i++) {
      hash ^= name.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    hash ^= 0x2f;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x7fffffff;
}

/** The suffix every fuzz suite title carries: how to replay it. */
export function replayNote(): string {
  return `FUZZ_SEED=${FUZZ_SEED}, FUZZ_RUNS=${FUZZ_RUNS}`;
}

/**
 * Checks an async property over one fixture with its derived seed; a failure names the fixture
 * and the base seed before fast-check's own report (counterexample, seed, path).
 */
export async function checkFixture<T>(property: string, fixture: CorpusEntry, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns: number): Promise<void> {
  const seed = seedFor(property, fixture.file);
  try {
    await fc.assert(fc.asyncProperty(arbitrary, predicate), { seed, numRuns, includeErrorInReport: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const wrapped = new Error(`${property} failed on ${fixture.file} (${replayNote()}, FUZZ_FIXTURES=${fixture.file})\n${message}`);
    wrapped.stack = wrapped.message;
    throw wrapped;
  }
}

/**
 * Runs `check` for every fixture, going on past a failing one, then fails with every fixture's
 * failure together (so one run shows all the fixtures a bug reaches).
 */
export async function eachFixture<F extends { readonly file: string }>(fixtures: readonly F[], check: (fixture: F) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const fixture of fixtures) {
    try {
      await check(fixture);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (failures.length === 1) throw new Error(failures[0]);
  if (failures.length > 1) throw new Error(`${failures.length} of ${fixtures.length} fixtures failed:\n\n${failures.join('\n\n')}`);
}
