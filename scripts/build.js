#!/usr/bin/env node
'use strict';
/**
 * `npm run build`: compiles lib/ to CommonJS with type declarations (dist/cjs), then writes the
 * ES module entry (dist/esm/index.mjs + index.d.mts), which re-exports the CommonJS build's named
 * exports. One compiled copy serves both `import` and `require`, so classes keep one identity
 * (`instanceof` works across both) and relative imports need no `.js` extensions.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const cjsEntry = path.join(dist, 'cjs', 'index.js');

fs.rmSync(dist, { recursive: true, force: true });

const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

if (!fs.existsSync(cjsEntry)) {
  throw new Error(`Expected the compiler to write ${path.relative(root, cjsEntry)}, got no such file (is lib/index.ts missing?)`);
}

// Loading the build is the reliable way to learn its runtime exports (types are erased).
const names = Object.keys(require(cjsEntry)).filter((name) => name !== 'default' && name !== '__esModule');
const invalid = names.filter((name) => !/^[A-Za-z_$][\w$]*$/.test(name));
if (invalid.length > 0) throw new Error(`Expected identifier export names, got ${invalid.join(', ')}`);
names.sort();

const esmDir = path.join(dist, 'esm');
fs.mkdirSync(esmDir, { recursive: true });
fs.writeFileSync(
  path.join(esmDir, 'index.mjs'),
  [
    '// ES module entry: the named exports of the CommonJS build (one copy of every class).',
    "import partstream from '../cjs/index.js';",
    '',
    `export const {\n${names.map((name) => `  ${name},`).join('\n')}\n} = partstream;`,
    '',
  ].join('\n'),
);
fs.writeFileSync(path.join(esmDir, 'index.d.mts'), "export * from '../cjs/index.js';\n");

process.stdout.write(`built dist/cjs and dist/esm (${names.length} runtime exports)\n`);
