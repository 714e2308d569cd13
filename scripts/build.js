#!/usr/bin/env node
'use strict';
/**
 * `npm run build` (also run by `prepare`, so `npm install` in a clone builds). Two builds of lib/:
 *
 * - dist/esm: tsc's ES modules, one file per source file, so that a bundler keeps only what is
 *   imported (the package is `sideEffects: false`), without comments (the declarations keep the
 *   JSDoc). What bundlers read. tsc keeps relative specifiers as written (`'./parts/factories'`), which
 *   Node's ES module loader does not resolve, so each one in the output is rewritten to the file it
 *   names (`'./parts/factories.js'`, `'./providers/index.js'`); one that names no emitted file
 *   fails the build.
 * - dist/node: what Node (and Deno and Bun, which honour the "node" export condition) load: the
 *   same modules bundled by esbuild into one ES module per entry of ENTRIES, the command's too
 *   (code that entries share goes to a chunk they all import: one copy of each module). A fresh process reads one file of the package
 *   instead of one per source module: the per-module cost of Node's ES module loader (resolve,
 *   read, compile, link) was most of the package's load time.
 *
 * Each public entry also gets a CommonJS file, dist/cjs/<name>.cjs, that is `require()` of the
 * Node bundle (Node >= 20.19 loads an ES module synchronously): in Node, `import` and `require`
 * reach the same single copy of every module, so classes keep one identity (instanceof works across
 * both).
 *
 * Both also share one set of types, and it is CommonJS: tsc's declarations are moved to dist/cjs as
 * `.d.cts` files whose relative specifiers name `.cjs` files (which TypeScript reads as the `.d.cts`
 * beside them). A CommonJS declaration may not import an ES module declaration (TS1479 under
 * `module: node16`), while an ES module may import a CommonJS one, so each ES entry's declaration,
 * dist/esm/<name>.d.ts, is one line re-exporting dist/cjs/<name>.d.cts.
 *
 * What no exported entry reaches is removed from dist/esm and dist/cjs at the end (the command's
 * modules, bundled into dist/node, and type-only modules), so the tarball ships one build per entry
 * and condition and nothing else.
 *
 * The build's start time is recorded as the modification time of dist/esm/package.json, set last:
 * scripts/dist-status.js compares it with lib/ to tell a stale build.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const esmDir = path.join(dist, 'esm');
const cjsDir = path.join(dist, 'cjs');
const nodeDir = path.join(dist, 'node');
const started = new Date();

/**
 * The entries bundled into dist/node: `name` is the module's path under lib/ (and dist/esm) without
 * its extension, and its bundle's path under dist/node; `exported` says the package exports it (in
 * package.json "exports"), which gives it a CommonJS file. A new subpath export is one line here
 * plus its entry in "exports".
 */
/**
 * The CommonJS dependencies, with the names lib/ imports from each. The Node bundles load them with
 * `createRequire(import.meta.url)` instead of `import`: importing a CommonJS module makes Node's ES
 * module loader start its export lexer, which cost about 6 ms of CPU in a fresh process, as much as
 * the rest of the package's load. The modules are the same (one cache), so nothing else changes.
 */
const COMMONJS_DEPENDENCIES = { eventemitter3: ['EventEmitter'] };

const ENTRIES = [
  { name: 'index', exported: true },
  { name: 'replay', exported: true },
  { name: 'http', exported: true },
  { name: 'adapters', exported: true },
  { name: 'relay', exported: true },
  { name: 'otel', exported: true },
  // The `partstream` command, run by bin/partstream.js.
  { name: 'cli/main', exported: false },
];

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

// The JavaScript keeps no comments: the JSDoc a reader needs is in the declarations (dist/cjs),
// and in the modules it only made the package larger (a third of dist/esm). esbuild's transform
// drops them and keeps every statement, import and `@__PURE__` annotation as tsc wrote it.
const esbuild = require(require.resolve('esbuild', { paths: [root] }));

let rewritten = 0;
for (const file of listFiles(esmDir)) {
  if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
  const text = fs.readFileSync(file, 'utf8');
  let next = text.replace(RELATIVE_SPECIFIER, (whole, lead, quote, specifier) => {
    rewritten++;
    return `${lead}${quote}${withExtension(file, specifier)}${quote}`;
  });
  if (file.endsWith('.js')) next = esbuild.transformSync(next, { loader: 'js', format: 'esm', target: 'es2022', legalComments: 'none' }).code;
  if (next !== text) fs.writeFileSync(file, next);
}

// The declarations: one tree, CommonJS, under dist/cjs (see above). `./x.js` becomes `./x.cjs`; the
// withExtension pass above has given every relative specifier a `.js` (or `.json`) extension.
let declarations = 0;
const entryDeclarations = new Set(ENTRIES.filter((entry) => entry.exported).map(({ name }) => path.join(esmDir, `${name}.d.ts`)));
for (const file of listFiles(esmDir)) {
  if (!file.endsWith('.d.ts')) continue;
  const target = path.join(cjsDir, path.relative(esmDir, file).replace(/\.d\.ts$/, '.d.cts'));
  const text = fs.readFileSync(file, 'utf8').replace(RELATIVE_SPECIFIER, (whole, lead, quote, specifier) => `${lead}${quote}${specifier.replace(/\.js$/, '.cjs')}${quote}`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  declarations++;
  if (entryDeclarations.has(file)) {
    const relative = path
      .relative(path.dirname(file), target.replace(/\.d\.cts$/, '.cjs'))
      .split(path.sep)
      .join('/');
    fs.writeFileSync(file, `export * from ${JSON.stringify(relative)};\n`);
  } else {
    fs.rmSync(file);
  }
}

// The Node bundles: one ES module per entry, from tsc's output (the same code dist/esm holds);
// dependencies stay imports (CommonJS ones become requires, see COMMONJS_DEPENDENCIES).
// lib/cli/main.ts runs itself when executed directly (`require.main === module`, under ts-node);
// `require` is undefined in an ES module, so the bundle drops that branch rather than shim it.

/** An esbuild plugin that turns `import { a } from 'dep'` into `require('dep').a` (through createRequire) for each dependency of `names`. */
function requireCommonJs(names) {
  const filter = new RegExp(
    `^(${Object.keys(names)
      .map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('|')})$`,
  );
  return {
    name: 'require-commonjs-dependencies',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'commonjs-dependency' }));
      build.onLoad({ filter: /.*/, namespace: 'commonjs-dependency' }, (args) => ({
        contents: [
          "import { createRequire } from 'node:module';",
          `const dependency = createRequire(import.meta.url)(${JSON.stringify(args.path)});`,
          ...names[args.path].map((name) => `export const ${name} = dependency.${name};`),
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * Removes the files of `dir` ending in `extension` that no exported entry's file reaches through
 * relative specifiers (`from './x.js'`, `import('./x.cjs')`; a declaration's `./x.cjs` names
 * `./x.d.cts`). Returns how many were removed.
 */
function prune(dir, extension) {
  const reached = new Set();
  const pending = ENTRIES.filter((entry) => entry.exported).map(({ name }) => path.join(dir, `${name}${extension}`));
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const [, , , specifier] of fs.readFileSync(file, 'utf8').matchAll(RELATIVE_SPECIFIER)) {
      const target = path.resolve(path.dirname(file), extension === '.d.cts' ? specifier.replace(/\.cjs$/, '.d.cts') : specifier);
      if (!fs.existsSync(target)) throw new Error(`Expected ${JSON.stringify(specifier)} in ${path.relative(root, file)} to name a built file, got no such file`);
      pending.push(target);
    }
  }
  let removed = 0;
  for (const file of listFiles(dir)) {
    if (!file.endsWith(extension) || reached.has(file)) continue;
    fs.rmSync(file);
    removed++;
  }
  for (const folder of listFolders(dir).reverse()) if (fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
  return removed;
}

/** Every folder under `dir`, parents before children. */
function listFolders(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return [full, ...listFolders(full)];
    });
}

/** Bundles, writes the CommonJS files, checks them and dates the stamp (esbuild's plugins need its asynchronous API). */
async function finish() {
  // All entries, the command's too, are bundled together, so that code they share goes to a chunk
  // they all import: one identity per class whichever subpath it is reached through, and one copy
  // of each module in the package (a command bundled alone repeated most of the library).
  const groups = [ENTRIES];
  let bundledFiles = 0;
  for (const group of groups) {
    const bundled = await esbuild.build({
      absWorkingDir: root,
      entryPoints: group.map(({ name }) => ({ in: path.join(esmDir, `${name}.js`), out: name })),
      outdir: nodeDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      packages: 'external',
      external: ['node:*'],
      define: { require: 'undefined' },
      plugins: [requireCommonJs(COMMONJS_DEPENDENCIES)],
      chunkNames: 'chunks/[name]-[hash]',
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
    });
    bundledFiles += Object.keys(bundled.metafile.outputs).length;
  }
  // A chunk esbuild leaves empty (all its modules' code shaken out, kept for import order) is
  // dropped with the side-effect-free imports of it: one file less to ship and to load.
  const emptyChunks = listFiles(nodeDir).filter((file) => file.endsWith('.js') && fs.readFileSync(file, 'utf8').trim() === '');
  for (const chunk of emptyChunks) {
    for (const file of listFiles(nodeDir).filter((other) => other.endsWith('.js') && other !== chunk)) {
      const name = path.basename(chunk).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const text = fs.readFileSync(file, 'utf8');
      const next = text.replace(new RegExp(`^import "(?:\\.{1,2}/)+(?:chunks/)?${name}";\\n`, 'gm'), '');
      if (next !== text) fs.writeFileSync(file, next);
      if (next.includes(path.basename(chunk))) throw new Error(`Expected ${path.relative(root, file)} to import the empty ${path.basename(chunk)} only for its side effects, got another use`);
    }
    fs.rmSync(chunk);
    bundledFiles--;
  }
  fs.writeFileSync(path.join(nodeDir, 'package.json'), `${JSON.stringify({ type: 'module', sideEffects: false }, null, 2)}\n`);

  // The CommonJS files: the Node bundles themselves, required (their declarations are written above).
  for (const { name } of ENTRIES.filter((entry) => entry.exported)) {
    const file = path.join(cjsDir, `${name}.cjs`);
    const specifier = (target) => {
      const relative = path.relative(path.dirname(file), target).split(path.sep).join('/');
      return JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`);
    };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        "'use strict';",
        '// The CommonJS entry is the ES module bundle, loaded with require() (Node >= 20.19): import and',
        '// require share one copy of every module, so classes keep one identity (instanceof works across both).',
        `module.exports = require(${specifier(path.join(nodeDir, `${name}.js`))});`,
        '',
      ].join('\n'),
    );
  }

  // Loading each CommonJS entry proves the bundles resolve and that require() works; the ES build
  // must export the same names.
  const counts = ENTRIES.filter((entry) => entry.exported).map(({ name }) => {
    const names = Object.keys(require(path.join(cjsDir, `${name}.cjs`))).sort();
    if (names.length === 0) throw new Error(`Expected dist/cjs/${name}.cjs to have runtime exports, got none`);
    const unbundled = Object.keys(require(path.join(esmDir, `${name}.js`))).sort();
    if (names.join() !== unbundled.join()) {
      throw new Error(`Expected dist/node/${name}.js to export what dist/esm/${name}.js exports, got ${names.join(', ')} against ${unbundled.join(', ')}`);
    }
    return `${name}: ${names.length}`;
  });

  // What ships is what an entry reaches: the modules (dist/esm) and declarations (dist/cjs) that
  // no exported entry imports, directly or through others, are removed (the command's modules,
  // bundled above into dist/node, and the type-only modules, whose JavaScript is empty).
  const pruned = prune(esmDir, '.js') + prune(cjsDir, '.d.cts');

  // Dated last, with the build's start time: a complete build, and what it was built from.
  fs.utimesSync(stamp, started, started);

  process.stdout.write(
    `built dist/esm (${rewritten} relative specifiers given extensions), ${declarations} declarations in dist/cjs (${pruned} unreachable files pruned), dist/node (${bundledFiles} bundled files) and dist/cjs (runtime exports: ${counts.join(', ')})\n`,
  );
}

finish().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
