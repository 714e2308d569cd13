#!/usr/bin/env node
'use strict';
/**
 * `npm run build` (also run by `prepare`, so `npm install` in a clone builds): compiles lib/ once,
 * to ES modules with type declarations (dist/esm, one file per source file, so a bundler keeps only
 * what is imported), then writes the CommonJS entry dist/cjs/index.cjs, which is `require()` of
 * that ES build (Node ≥ 20.19 loads an ES module synchronously). `import` and `require` thus reach
 * the same single copy of every module: one class identity, no dual-package hazard.
 *
 * tsc keeps relative specifiers as written (`'./parts/factories'`), which Node's ES module loader
 * does not resolve, so each relative specifier in the output is rewritten to the file it names
 * (`'./parts/factories.js'`, `'./providers/index.js'`); one that names no emitted file fails the
 * build. The build's start time is recorded as the modification time of dist/esm/package.json,
 * set last: scripts/dist-status.js compares it with lib/ to tell a stale build.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const esmDir = path.join(dist, 'esm');
const cjsDir = path.join(dist, 'cjs');
const started = new Date();

fs.rmSync(dist, { recursive: true, force: true });

const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

const esmEntry = path.join(esmDir, 'index.js');
if (!fs.existsSync(esmEntry)) {
  throw new Error(`Expected the compiler to write ${path.relative(root, esmEntry)}, got no such file (is lib/index.ts missing?)`);
}

/** Every file under `dir`, as absolute paths. */
function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

// `from './x'`, `import './x'`, `import('./x')` and `import("./x").T` in declarations; only
// specifiers starting with ./ or ../ are touched (package names stay as they are).
const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\r\n]*)\2/g;

/** The specifier with the extension Node's ES module loader needs, checked against the emitted files. */
function withExtension(file, specifier) {
  const target = path.resolve(path.dirname(file), specifier);
  if (/\.(js|json)$/.test(specifier) && fs.existsSync(target)) return specifier;
  if (fs.existsSync(`${target}.js`)) return `${specifier}.js`;
  if (fs.existsSync(path.join(target, 'index.js'))) return `${specifier.replace(/\/$/, '')}/index.js`;
  throw new Error(`Expected ${JSON.stringify(specifier)} in ${path.relative(root, file)} to name an emitted module, got no such file`);
}

// dist/esm is ES modules whatever the root package.json says; it is also the build stamp (see
// above), dated 1970 until the build has succeeded, so a failed build never looks fresh.
const stamp = path.join(esmDir, 'package.json');
fs.writeFileSync(stamp, `${JSON.stringify({ type: 'module', sideEffects: false }, null, 2)}\n`);
fs.utimesSync(stamp, new Date(0), new Date(0));

let rewritten = 0;
for (const file of listFiles(esmDir)) {
  if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(RELATIVE_SPECIFIER, (whole, lead, quote, specifier) => {
    rewritten++;
    return `${lead}${quote}${withExtension(file, specifier)}${quote}`;
  });
  if (next !== text) fs.writeFileSync(file, next);
}

// The CommonJS entries, one per public entry point (package.json "exports"): the ES build itself,
// required. Each declaration re-exports the ES build's declarations, so both also share one set of types.
const ENTRIES = ['index', 'adapters'];
fs.mkdirSync(cjsDir, { recursive: true });
for (const entry of ENTRIES) {
  fs.writeFileSync(
    path.join(cjsDir, `${entry}.cjs`),
    [
      "'use strict';",
      '// The CommonJS entry is the ES module build, loaded with require() (Node >= 20.19): import and',
      '// require share one copy of every module, so classes keep one identity (instanceof works across both).',
      `module.exports = require('../esm/${entry}.js');`,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(cjsDir, `${entry}.d.cts`), `export * from '../esm/${entry}.js';\n`);
}

// Loading the CommonJS entry proves the rewritten specifiers resolve and that require() works.
const names = Object.keys(require(path.join(cjsDir, 'index.cjs')));
if (names.length === 0) throw new Error('Expected the built package to have runtime exports, got none');
for (const entry of ENTRIES) {
  if (Object.keys(require(path.join(cjsDir, `${entry}.cjs`))).length === 0) throw new Error(`Expected dist/cjs/${entry}.cjs to have runtime exports, got none`);
}

// Dated last, with the build's start time: a complete build, and what it was built from.
fs.utimesSync(stamp, started, started);

process.stdout.write(`built dist/esm (${rewritten} relative specifiers given extensions) and dist/cjs (${names.length} runtime exports)\n`);
