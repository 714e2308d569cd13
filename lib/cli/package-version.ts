import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package whose version `partstream --version` prints. */
const PACKAGE_NAME = 'partstream';

/** How many folders up to look: lib/cli in a checkout is two below the root, dist/cjs/cli three. */
const MAX_LEVELS = 4;

/**
 * The `version` of the nearest `package.json` named `partstream` in `from` or a folder above it
 * (up to four levels), or null when there is none. Read at run time because the compiled command
 * (dist/cjs/cli) and the sources (lib/cli) sit at different depths below the package root, and the
 * build compiles only lib/.
 */
export function readPackageVersion(from: string = __dirname): string | null {
  let dir = from;
  for (let level = 0; level <= MAX_LEVELS; level++) {
    const version = versionIn(path.join(dir, 'package.json'));
    if (version !== null) return version;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function versionIn(file: string): string | null {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Missing or unreadable: look further up.
    return null;
  }
  if (typeof manifest !== 'object' || manifest === null) return null;
  const { name, version } = manifest as { name?: unknown; version?: unknown };
  return name === PACKAGE_NAME && typeof version === 'string' ? version : null;
}
