'use strict';
/**
 * Whether dist/ in a source checkout is an up-to-date build of lib/. The rule: dist/ is fresh when
 * the last build completed (scripts/build.js dates dist/esm/package.json with the build's start
 * time once everything is written) and nothing it was built from changed since that start — no
 * file or folder under lib/ (a folder's time changes when a file is added, removed or renamed in
 * it), nor tsconfig.json, tsconfig.build.json or scripts/build.js is newer. A checkout of another
 * branch rewrites the files it changes, so it makes dist/ stale too. Used by bin/partstream.js
 * (a stale build never runs silently) and by the tests that run the package through dist/.
 * About a hundred stat calls: well under a millisecond.
 */
const fs = require('node:fs');
const path = require('node:path');

/** What the build stamps, relative to the repository root. */
const STAMP = path.join('dist', 'esm', 'package.json');
/** The files besides lib/ whose change makes a new build necessary. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', path.join('scripts', 'build.js')];

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** The newest modification time of `dir` and everything under it, and the path that has it. */
function newestUnder(dir) {
  let newest = { mtimeMs: fs.statSync(dir).mtimeMs, file: dir };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestUnder(full) : { mtimeMs: fs.statSync(full).mtimeMs, file: full };
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

/**
 * `{ fresh: true }` when `root`/dist is a complete build of the current lib/, else
 * `{ fresh: false, reason }` with a short reason naming the first newer input.
 */
function distStatus(root) {
  const built = mtimeMs(path.join(root, STAMP));
  if (built === null || built === 0) return { fresh: false, reason: 'dist/ is missing or its last build did not complete' };
  const inputs = [newestUnder(path.join(root, 'lib'))];
  for (const file of BUILD_INPUTS) {
    const time = mtimeMs(path.join(root, file));
    if (time !== null) inputs.push({ mtimeMs: time, file: path.join(root, file) });
  }
  const newer = inputs.find((input) => input.mtimeMs > built);
  if (newer !== undefined) return { fresh: false, reason: `${path.relative(root, newer.file) || '.'} changed after the last build` };
  return { fresh: true };
}

module.exports = { distStatus };
