#!/usr/bin/env node
'use strict';
/**
 * Builds dist/ when it is not up to date with lib/ (scripts/dist-status.js), and otherwise does
 * nothing: what the tests that run the package through dist/ (examples, README snippets) call
 * first, so they never run a stale build. `node scripts/ensure-build.js` does the same by hand.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { distStatus } = require('./dist-status.js');

/** Builds `root`/dist unless it is fresh; returns what it did. Throws with the compiler's output when the build fails. */
function ensureBuild(root = path.resolve(__dirname, '..')) {
  const status = distStatus(root);
  if (status.fresh) return 'dist/ is up to date';
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`Expected "npm run build" to succeed (${status.reason}), got exit ${build.status}:\n${build.stdout}${build.stderr}`);
  }
  return `rebuilt dist/ (${status.reason})`;
}

module.exports = { ensureBuild };

if (require.main === module) process.stdout.write(`${ensureBuild()}\n`);
