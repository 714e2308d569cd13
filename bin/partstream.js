#!/usr/bin/env node
'use strict';
// Launcher of the `partstream` command. In a source checkout (lib/ beside bin/, ts-node
// installed) it runs the TypeScript directly, so `npm start` needs no build and never runs a
// stale one. The published package ships no lib/: it runs the compiled dist/ and needs no ts-node.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'lib', 'cli', 'main.ts');
const compiled = path.join(root, 'dist', 'cjs', 'cli', 'main.js');

function tsNode() {
  if (!fs.existsSync(source)) return null;
  try {
    return require(require.resolve('ts-node', { paths: [root] }));
  } catch {
    return null;
  }
}

const tsNodeModule = tsNode();
if (tsNodeModule !== null) {
  tsNodeModule.register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
  require(source).run();
} else if (fs.existsSync(compiled)) {
  require(compiled).run();
} else {
  process.stderr.write('partstream: cannot find the compiled command (dist/); run "npm install" or "npm run build" first\n');
  process.exitCode = 2;
}
