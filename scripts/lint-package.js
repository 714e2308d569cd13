#!/usr/bin/env node
'use strict';
/**
 * `npm run lint:package`: packs the package as `npm publish` would (after a build when dist/ is
 * not up to date with lib/) and checks the tarball with publint (strict: warnings fail) and
 * @arethetypeswrong/cli (every resolution mode: node10, node16 from CommonJS and from ESM,
 * bundler). Exits non-zero when either finds a problem.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { distStatus } = require('./dist-status.js');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

if (!distStatus(root).fresh) execFileSync(process.execPath, [path.join(__dirname, 'build.js')], { cwd: root, stdio: 'inherit' });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'partstream-lint-'));
try {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' }));
  const tarball = path.join(work, packed[0].filename);
  let failed = false;
  /** @type {[string, string[]][]} */
  const checks = [
    ['publint', ['run', '--strict', tarball]],
    ['attw', [tarball]],
  ];
  for (const [name, args] of checks) {
    const result = spawnSync(bin(name), args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      process.stderr.write(`lint:package: ${name} found problems (exit ${result.status})\n`);
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
