#!/usr/bin/env node
'use strict';
/**
 * `npm run runtimes`: installs the Deno and Bun that the runtime tests (test/runtimes/deno.test.ts,
 * bun.test.ts) run, at the versions pinned in test/runtimes/runtimes.json, into .runtimes/ (or
 * $PARTSTREAM_RUNTIMES_DIR), outside node_modules: a contributor's `npm install` never downloads
 * them (each is about 100 MB), and `.ci/run` runs this once. Installing again is a no-op while the
 * pinned versions are in place. The tests find them there (test/runtimes/support/run-smoke-child.ts).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const pins = JSON.parse(fs.readFileSync(path.join(root, 'test', 'runtimes', 'runtimes.json'), 'utf8'));
const dir = path.resolve(root, process.env.PARTSTREAM_RUNTIMES_DIR || '.runtimes');

/** The installed version of `name` under `dir`, or null. */
function installed(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const names = Object.keys(pins).sort();
for (const name of names) {
  if (typeof pins[name] !== 'string' || !/^\d+\.\d+\.\d+$/.test(pins[name])) {
    throw new TypeError(`Expected test/runtimes/runtimes.json to pin ${name} to an exact version, got ${JSON.stringify(pins[name])}`);
  }
}
if (names.every((name) => installed(name) === pins[name])) {
  process.stdout.write(`runtimes: ${names.map((name) => `${name} ${pins[name]}`).join(', ')} already in ${path.relative(root, dir) || dir}\n`);
} else {
  fs.mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and not into the repository's node_modules.
  const manifest = { name: 'partstream-test-runtimes', private: true, description: 'Written by scripts/install-runtimes.js', dependencies: pins };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: 'inherit' });
  for (const name of names) {
    if (installed(name) !== pins[name]) throw new Error(`Expected ${name} ${pins[name]} in ${dir}, got ${installed(name) ?? 'none'}`);
  }
  process.stdout.write(`runtimes: installed ${names.map((name) => `${name} ${pins[name]}`).join(', ')} into ${path.relative(root, dir) || dir}\n`);
}
