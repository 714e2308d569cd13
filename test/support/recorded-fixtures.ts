import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteSkipped } from './skips';

/** The recorded provider streams, beside the repository (read in place, never copied into it). */
export const FIXTURES_DIR = path.resolve(__dirname, '../..', '../shared/fixtures');

/** The manifest that lists them; its presence is what "the fixtures are there" means. */
export const FIXTURES_MANIFEST = path.join(FIXTURES_DIR, 'manifest.json');

/** The reason every recorded-fixture suite gives, in the run's skip summary, when the fixtures are absent. */
export const FIXTURES_ABSENT = `no recorded fixtures at ${path.relative(process.cwd(), FIXTURES_DIR) || FIXTURES_DIR} (CI=true makes that a failure)`;

/** True when the recorded fixtures are present. */
export function recordedFixturesPresent(): boolean {
  return fs.existsSync(FIXTURES_MANIFEST);
}

/**
 * The suffix for a suite title that covers the recorded fixtures: empty when they are present;
 * otherwise a note that they were skipped, also noted for the run's one-line skip summary
 * (test/support/skips.ts).
 */
export function recordedSkipNote(suite: string): string {
  if (recordedFixturesPresent()) return '';
  noteSkipped(FIXTURES_ABSENT, suite);
  return ` (recorded fixtures skipped: ${FIXTURES_DIR} is absent)`;
}
