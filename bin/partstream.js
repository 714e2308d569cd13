#!/usr/bin/env node
'use strict';
// Launcher of the `partstream` command. It runs the bundled ES module build (dist/node), which
// starts in a few milliseconds. The published package ships no lib/: dist/ is all there is.
// In a source checkout (lib/ beside bin/), dist/ is built by `npm install` (the `prepare` script)
// and by `npm run build`; it runs only while it is up to date with lib/ (scripts/dist-status.js).
// After an edit to lib/, the TypeScript sources run through ts-node instead — correct but a few
// seconds slower to start, with a one-line hint on a terminal — so a stale build never runs.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'lib', 'cli', 'main.ts');
const compiled = path.join(root, 'dist', 'node', 'cli', 'main.js');

function runCompiled() {
  // require() of an ES module without top-level await: synchronous on Node >= 20.19.
  return require(compiled).run();
}

function runSources(reason) {
  let tsNode;
  try {
    tsNode = require(require.resolve('ts-node', { paths: [root] }));
  } catch {
    process.stderr.write(`partstream: ${reason}, and ts-node is not installed to run lib/; run "npm run build" first\n`);
    process.exitCode = 2;
    return;
  }
  if (process.stderr.isTTY) process.stderr.write(`partstream: ${reason}; running lib/ through ts-node ("npm run build" makes it start fast)\n`);
  tsNode.register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
  return require(source).run();
}

if (!fs.existsSync(source)) {
  if (fs.existsSync(compiled)) {
    runCompiled();
  } else {
    process.stderr.write('partstream: cannot find the compiled command (dist/); reinstall the package\n');
    process.exitCode = 2;
  }
} else {
  const status = require(path.join(root, 'scripts', 'dist-status.js')).distStatus(root);
  if (status.fresh) runCompiled();
  else runSources(status.reason);
}
