import * as fs from 'node:fs';
import * as path from 'node:path';

/** The recorded provider streams, beside the repository (read in place, never copied into it). */
export const FIXTURES_DIR = path.resolve(__dirname, '../..', '../shared/fixtures');

/** The manifest that lists them; its presence is what "the fixtures are there" means. */
export const FIXTURES_MANIFEST = path.join(FIXTURES_DIR, 'manifest.json');

/** True when the recorded fixtures are present. */
export function recordedFixturesPresent(): boolean {
  return fs.existsSync(FIXTURES_MANIFEST);
}

const warned = new Set<string>();

/**
 * The suffix for a suite title that covers the recorded fixtures: empty when they are present;
 * otherwise a note that they were skipped, also printed once per suite so that the skip is
 * visible in any reporter.
 */
export function recordedSkipNote(suite: string): string {
  if (recordedFixturesPresent()) return '';
  if (!warned.has(suite)) {
    warned.add(suite);
    console.warn(`${suite}: recorded-fixture cases skipped, no ${FIXTURES_MANIFEST}`);
  }
  return ` (recorded fixtures skipped: ${FIXTURES_DIR} is absent)`;
}
