import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = require.resolve('typescript/bin/tsc', { paths: [repo] });
const bin = (name: string): string => path.join(repo, 'node_modules', '.bin', name);
/** The largest minified browser bundle of \`import { textPart } from 'partstream'\` accepted, in bytes. */
const TEXT_PART_BUNDLE_LIMIT = 4_000;
/** The package's subpath entries, as package.json "exports" names them (besides the root). */
const SUBPATHS = ['replay', 'http', 'adapters', 'relay', 'otel'];
/** Every public entry's file name under dist/ (the root is `index`). */
const ENTRY_FILES = ['index', ...SUBPATHS].sort();

/** What `npm pack --json` reports. */
interface PackReport {
  readonly filename: string;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

function run(command: string, args: readonly string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  if (result.error) throw result.error;
  return result;
}

function runOk(command: string, args: readonly string[], cwd: string, input?: string): string {
  const result = run(command, args, cwd, input);
  if (result.status !== 0) {
    throw new Error(`Expected "${command} ${args.join(' ')}" to succeed, got exit ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** An SSE body of an OpenAI Chat stream, delivered in two pieces. */
const CHAT_STREAM_SCRIPT = `
const pieces = [
  'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"Hel"}}]}\\n\\n',
  'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n',
];
async function* source() { for (const piece of pieces) yield piece; }
const text = [];
const handler = { onPartialResponse: (p) => text.push(p.text), onCompleteResponse() {}, onError() {} };
`;

// Slow: one build, one `npm pack`, one offline install into a temp folder, publint, attw,
// esbuild and two compiler runs on the result (about 40 s in all).
// The package is copied to a temp folder first, so the working tree's dist/ is never touched.
describe('the packed npm package (slow: build + npm pack + install + lint + type checks, ~40 s)', function () {
  this.timeout(240_000);

  let work: string;
  let pack: PackReport;
  let app: string;

  before(function () {
    work = mkdtempSync(path.join(tmpdir(), 'partstream-pack-'));
    const pkg = path.join(work, 'pkg');
    mkdirSync(pkg);
    for (const entry of ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'scripts', 'bin', ...SUBPATHS, 'lib']) {
      if (existsSync(path.join(repo, entry))) cpSync(path.join(repo, entry), path.join(pkg, entry), { recursive: true });
    }
    symlinkSync(path.join(repo, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');

    // What `npm pack` does through its prepack script, in two steps so that the build's output
    // does not mix with the pack report.
    runOk(npm, ['run', 'build'], pkg);
    const reports = JSON.parse(runOk(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], pkg)) as PackReport[];
    pack = reports[0];

    // A real `npm install --offline` of the tarball. The npm cache may hold none of the
    // dependencies (no `npm ci` ran on this machine) and the network is never used, so each
    // dependency is packed from this repository's node_modules and installed beside it: npm
    // resolves partstream's range against that copy instead of asking the registry.
    app = path.join(work, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    // The OpenTelemetry API too, the optional peer dependency an application of 'partstream/otel' installs.
    const dependencies = [...Object.keys((JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {}), '@opentelemetry/api'];
    const tarballs = [path.join(work, pack.filename)];
    for (const dependency of dependencies) {
      const packed = JSON.parse(runOk(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], path.join(repo, 'node_modules', dependency))) as PackReport[];
      tarballs.push(path.join(work, packed[0].filename));
    }
    runOk(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], app);
  });

  after(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('ships only dist/, the bin launcher, one resolution stub folder per subpath entry, README, LICENSE and package.json', () => {
    const files = pack.files.map((file) => file.path);
    const topLevel = [...new Set(files.map((file) => file.split('/')[0]))].sort();
    const expected = ['README.md', 'bin', 'dist', 'package.json', ...SUBPATHS];
    if (existsSync(path.join(repo, 'LICENSE'))) expected.unshift('LICENSE');
    expect({ topLevel, bin: files.filter((file) => file.startsWith('bin/')) }).to.deep.equal({
      topLevel: expected.sort(),
      bin: ['bin/partstream.js'],
    });
  });

  it("ships one build per entry and condition: the entries' ES modules and declarations with what they import, the Node bundles, and the CommonJS files that load them", () => {
    const files = new Set(pack.files.map((file) => file.path));
    // Every module and declaration an entry reaches is shipped (a relative specifier names a shipped file) …
    const unresolved = [...files]
      .filter((file) => /^dist\/(esm\/.*\.js|cjs\/.*\.d\.cts)$/.test(file))
      .flatMap((file) => {
        const text = readFileSync(path.join(work, 'pkg', file), 'utf8');
        return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\r\n]*)\1/g)]
          .map((match) => path.posix.join(path.posix.dirname(file), match[2].replace(/\.cjs$/, file.endsWith('.d.cts') ? '.d.cts' : '.cjs')))
          .filter((target) => !files.has(target))
          .map((target) => `${file} -> ${target}`);
      });
    // … and nothing else: no module no entry reaches (the command's, bundled into dist/node), no test, bench or map.
    const reached = new Set<string>();
    const pending = ENTRY_FILES.flatMap((name) => [`dist/esm/${name}.js`, `dist/cjs/${name}.d.cts`]);
    while (pending.length > 0) {
      const file = pending.pop() as string;
      if (reached.has(file) || !files.has(file)) continue;
      reached.add(file);
      const text = readFileSync(path.join(work, 'pkg', file), 'utf8');
      for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\r\n]*)\1/g)) {
        pending.push(path.posix.join(path.posix.dirname(file), file.endsWith('.d.cts') ? match[2].replace(/\.cjs$/, '.d.cts') : match[2]));
      }
    }
    const unreached = [...files].filter((file) => /^dist\/(esm\/.*\.js|cjs\/.*\.d\.cts)$/.test(file) && !reached.has(file));
    const extraneous = [
      ...[...files].filter((file) => /(^|\/)(test|tests|bench)\/|\.(test|spec|bench)\.|\.map$|\.ts$(?<!\.d\.ts)/.test(file)),
      ...pack.files.filter((file) => file.size === 0).map((file) => `${file.path} (empty)`),
    ];
    const cjs = [...files].filter((file) => file.startsWith('dist/cjs/') && !file.endsWith('.d.cts')).sort();
    // The bundles: one per entry, besides the chunks of code entries share (named by content hash).
    const node = [...files].filter((file) => file.startsWith('dist/node/') && !/^dist\/node\/chunks\/[\w-]+\.js$/.test(file));
    // One set of declarations: the ES entries' declarations re-export the CommonJS ones.
    const esmDeclarations = [...files].filter((file) => file.startsWith('dist/esm/') && !file.endsWith('.js')).sort();
    expect({ unresolved, unreached, extraneous, esmDeclarations, cjs, node: node.sort() }).to.deep.equal({
      unresolved: [],
      unreached: [],
      extraneous: [],
      esmDeclarations: [...ENTRY_FILES.map((name) => `dist/esm/${name}.d.ts`), 'dist/esm/package.json'].sort(),
      cjs: ENTRY_FILES.map((name) => `dist/cjs/${name}.cjs`),
      node: [...ENTRY_FILES.map((name) => `dist/node/${name}.js`), 'dist/node/cli/main.js', 'dist/node/package.json'].sort(),
    });
    expect([...files]).to.include.members(ENTRY_FILES.flatMap((name) => [`dist/esm/${name}.js`, `dist/cjs/${name}.d.cts`]));
  });

  it('resolves in Node to the bundles, for import and require() alike (the "node" export condition)', () => {
    const script = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const required = createRequire(import.meta.url).resolve('partstream');
const tail = (file) => file.slice(file.lastIndexOf('/dist/') + 1);
console.log(JSON.stringify({
  imported: tail(new URL(import.meta.resolve('partstream')).pathname),
  required: tail(required),
  requiredLoads: /require\\("([^"]+)"\\)/.exec(readFileSync(required, 'utf8'))[1],
}));`;
    const out = runOk(process.execPath, ['--input-type=module', '-e', script], app);
    expect(JSON.parse(out)).to.deep.equal({ imported: 'dist/node/index.js', required: 'dist/cjs/index.cjs', requiredLoads: '../node/index.js' });
  });

  it("has the Node bundle require() its CommonJS dependency rather than import it (which starts the ES loader's export lexer)", () => {
    const bundle = readFileSync(path.join(app, 'node_modules', 'partstream', 'dist', 'node', 'index.js'), 'utf8');
    const imports = [...bundle.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)].map((match) => match[1]).filter((specifier) => !specifier.startsWith('./chunks/'));
    expect({ imports, requires: /createRequire\(import\.meta\.url\)\("eventemitter3"\)/.test(bundle) }).to.deep.equal({ imports: ['node:module'], requires: true });
  });

  it('passes publint (strict) and @arethetypeswrong/cli in every resolution mode', () => {
    const tarball = path.join(work, pack.filename);
    const publint = run(bin('publint'), ['run', '--strict', tarball], repo);
    const attw = run(bin('attw'), [tarball, '--format', 'json'], repo);
    const problems = (JSON.parse(attw.stdout) as { analysis: { problems: unknown[] } }).analysis.problems;
    expect({ publint: publint.status, attw: attw.status, problems }).to.deep.equal({ publint: 0, attw: 0, problems: [] }, `publint said:\n${publint.stdout}${publint.stderr}`);
  });

  it(`bundles \`import { textPart } from 'partstream'\` for the browser, minified, in under ${TEXT_PART_BUNDLE_LIMIT} bytes (tree-shaken)`, () => {
    writeFileSync(path.join(app, 'only-text-part.mjs'), "import { textPart } from 'partstream';\nconsole.log(JSON.stringify(textPart('hi')));\n");
    const out = path.join(work, 'only-text-part.bundle.mjs');
    runOk(bin('esbuild'), ['only-text-part.mjs', '--bundle', '--minify', '--platform=browser', '--format=esm', `--outfile=${out}`, '--log-level=error'], app);
    const size = statSync(out).size;
    // The bundle still works: it is the real factory, not an empty shell.
    const printed = runOk(process.execPath, [out], app);
    expect({ underLimit: size < TEXT_PART_BUNDLE_LIMIT, printed: JSON.parse(printed) as unknown }).to.deep.equal(
      { underLimit: true, printed: { type: 'text', text: 'hi', payload: null, attributes: {} } },
      `bundle is ${size} bytes`,
    );
  });

  // Each subpath entry is tree-shakable too: one small name of it bundles without the rest of the
  // entry (with its modules marked side-effectful, each bundles to well over its limit; the otel entry is one function,
  // bundled without the rest of the library). Its peer dependency is the application's, installed
  // beside partstream, and stays an import.
  const SMALL_IMPORTS: readonly { subpath: string; code: string; limit: number; printed: unknown }[] = [
    { subpath: 'replay', code: "import { parsePartialJson } from 'partstream/replay';\nconsole.log(JSON.stringify(parsePartialJson('{\"a\": [1, 2, ')));\n", limit: 5_000, printed: { a: [1, 2] } },
    { subpath: 'http', code: "import { OPENAI_BASE_URL } from 'partstream/http';\nconsole.log(JSON.stringify(OPENAI_BASE_URL));\n", limit: 1_000, printed: 'https://api.openai.com/v1' },
    {
      subpath: 'adapters',
      code: "import { resolveFinishReason } from 'partstream/adapters';\nconsole.log(JSON.stringify(resolveFinishReason('STOP', 1)));\n",
      limit: 1_000,
      printed: 'TOOL_EXECUTION',
    },
    { subpath: 'relay', code: "import { RELAY_ID_PATTERN } from 'partstream/relay';\nconsole.log(JSON.stringify(RELAY_ID_PATTERN.test('a-1')));\n", limit: 1_000, printed: true },
    { subpath: 'otel', code: "import { openTelemetryListener } from 'partstream/otel';\nconsole.log(JSON.stringify(typeof openTelemetryListener));\n", limit: 16_000, printed: 'function' },
  ];
  for (const { subpath, code, limit, printed } of SMALL_IMPORTS) {
    it(`bundles one small name of 'partstream/${subpath}' for the browser, minified, in under ${limit} bytes (tree-shaken)`, () => {
      writeFileSync(path.join(app, `small-${subpath}.mjs`), code);
      const out = path.join(app, `small-${subpath}.bundle.mjs`);
      runOk(bin('esbuild'), [`small-${subpath}.mjs`, '--bundle', '--minify', '--platform=browser', '--format=esm', '--external:@opentelemetry/api', `--outfile=${out}`, '--log-level=error'], app);
      const size = statSync(out).size;
      expect({ underLimit: size < limit, printed: JSON.parse(runOk(process.execPath, [out], app)) as unknown }).to.deep.equal({ underLimit: true, printed }, `bundle is ${size} bytes`);
    });
  }

  it('works with require(): consumeStream reads a stream', () => {
    const script = `${CHAT_STREAM_SCRIPT}
const { consumeStream, StreamError } = require('partstream');
consumeStream(source(), handler, { format: 'auto' }).then((outcome) => {
  console.log(JSON.stringify({ status: outcome.status, text: text.join(''), final: outcome.response.aiMessage.text, error: typeof StreamError }));
});`;
    const out = runOk(process.execPath, ['-e', script], app);
    expect(JSON.parse(out)).to.deep.equal({ status: 'completed', text: 'Hello', final: 'Hello', error: 'function' });
  });

  it('gives require() and import one copy of the package: the same classes, and instanceof across both', () => {
    const script = `
const required = require('partstream');
import('partstream').then((imported) => {
  const names = Object.keys(required).sort();
  const error = new required.StreamError('network', 'down');
  console.log(JSON.stringify({
    sameNames: JSON.stringify(names) === JSON.stringify(Object.keys(imported).sort()),
    sameObjects: names.every((name) => required[name] === imported[name]),
    streamError: required.StreamError === imported.StreamError,
    instanceofAcross: error instanceof imported.StreamError,
  }));
});`;
    const out = runOk(process.execPath, ['-e', script], app);
    expect(JSON.parse(out)).to.deep.equal({ sameNames: true, sameObjects: true, streamError: true, instanceofAcross: true });
  });

  it('serves each subpath entry to require() and import as one copy, with runtime names of its own (none on the root)', () => {
    const script = `
const subpaths = ${JSON.stringify(SUBPATHS)};
const root = require('partstream');
Promise.all(subpaths.map((subpath) => import('partstream/' + subpath))).then((imported) => {
  console.log(JSON.stringify(subpaths.map((subpath, i) => {
    const required = require('partstream/' + subpath);
    const names = Object.keys(required).sort();
    return { subpath, count: names.length, sameObjects: names.every((name) => required[name] === imported[i][name]), onRoot: names.filter((name) => name in root) };
  })));
});`;
    const out = runOk(process.execPath, ['-e', script], app);
    // The runtime (value) names per entry, counted from lib/<entry>.ts's value exports.
    expect(JSON.parse(out)).to.deep.equal([
      { subpath: 'replay', count: 14, sameObjects: true, onRoot: [] },
      { subpath: 'http', count: 13, sameObjects: true, onRoot: [] },
      { subpath: 'adapters', count: 41, sameObjects: true, onRoot: [] },
      { subpath: 'relay', count: 14, sameObjects: true, onRoot: [] },
      { subpath: 'otel', count: 1, sameObjects: true, onRoot: [] },
    ]);
  });

  it("gives require() a working adapter kit: a mapper's framing, a tool-call accumulator, SPEC §10's finish-reason rule", () => {
    const script = `
const { AnthropicMapper, ToolCallAccumulator, resolveFinishReason } = require('partstream/adapters');
console.log(JSON.stringify({ framing: new AnthropicMapper().framing, accumulator: typeof new ToolCallAccumulator(), resolved: resolveFinishReason('STOP', 1) }));`;
    const out = runOk(process.execPath, ['-e', script], app);
    expect(JSON.parse(out)).to.deep.equal({ framing: 'sse', accumulator: 'object', resolved: 'TOOL_EXECUTION' });
  });

  it('works with import: named exports are the same objects as require() gives', () => {
    const script = `${CHAT_STREAM_SCRIPT}
import { createRequire } from 'node:module';
import { consumeStream, StreamError, ChatStream } from 'partstream';
const required = createRequire(import.meta.url)('partstream');
const outcome = await consumeStream(source(), handler, { format: 'openai-chat' });
console.log(JSON.stringify({
  status: outcome.status,
  text: text.join(''),
  same: required.consumeStream === consumeStream && required.StreamError === StreamError && required.ChatStream === ChatStream,
}));`;
    const out = runOk(process.execPath, ['--input-type=module', '-e', script], app);
    expect(JSON.parse(out)).to.deep.equal({ status: 'completed', text: 'Hello', same: true });
  });

  it('type-checks in an ES module project and a CommonJS project, with skipLibCheck off, under module node16 and under bundler resolution', () => {
    // The same program in both projects: the root and the adapters entry, a few types, a misuse
    // the types must reject (an unused @ts-expect-error is an error too, so types that collapsed
    // to `any` fail the check).
    const program = `import { consumeStream, StreamError, textPart, type ChatResponse, type FinishReason, type StreamingChatResponseHandler } from 'partstream';
import { streamAnthropic, type HttpStreamOutcome } from 'partstream/http';
import { toAnthropicMessages, userMessage, type AnthropicMessagesInput } from 'partstream/replay';
import { AnthropicMapper, mapOpenAIChatFinishReason } from 'partstream/adapters';

const handler: StreamingChatResponseHandler = {
  onPartialResponse: (partial) => void partial.text.length,
  onCompleteResponse: (response: ChatResponse) => void response.aiMessage.parts,
  onError: (error) => void (error instanceof StreamError ? error.kind : error.message),
};

export async function read(source: AsyncIterable<string>): Promise<FinishReason | null> {
  const outcome = await consumeStream(source, handler, { format: 'anthropic' });
  // @ts-expect-error: not a wire format
  void consumeStream(source, handler, { format: 'claude' });
  return outcome.status === 'completed' ? outcome.response.metadata.finishReason : null;
}

export function ask(): Promise<HttpStreamOutcome> {
  return streamAnthropic({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }, handler);
}

export const framing: string = new AnthropicMapper().framing;
export const finish: FinishReason | null = mapOpenAIChatFinishReason('stop');
export const part = textPart('hi');
export const history: AnthropicMessagesInput = toAnthropicMessages([userMessage('Hi')]);
// @ts-expect-error: the converters take messages, not strings
void toAnthropicMessages(['Hi']);
`;
    // Two projects under the one install (Node and TypeScript take a file's module format from the
    // nearest package.json); one compiler run per resolution mode checks both.
    for (const [project, type] of [
      ['esm-project', 'module'],
      ['cjs-project', 'commonjs'],
    ] as const) {
      mkdirSync(path.join(app, project));
      writeFileSync(path.join(app, project, 'package.json'), JSON.stringify({ name: project, private: true, type }));
      writeFileSync(path.join(app, project, 'index.ts'), program);
    }
    const modes = { node16: { module: 'node16', moduleResolution: 'node16' }, bundler: { module: 'esnext', moduleResolution: 'bundler' } };
    const results = Object.entries(modes).map(([mode, resolution]) => {
      writeFileSync(
        path.join(app, `tsconfig.${mode}.json`),
        JSON.stringify({
          compilerOptions: {
            ...resolution,
            target: 'es2022',
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
            typeRoots: [path.join(repo, 'node_modules', '@types')],
          },
          files: ['esm-project/index.ts', 'cjs-project/index.ts'],
        }),
      );
      const check = run(process.execPath, [tsc, '-p', `tsconfig.${mode}.json`], app);
      return { mode, status: check.status, output: check.stdout.trim() };
    });
    expect(results).to.deep.equal([
      { mode: 'node16', status: 0, output: '' },
      { mode: 'bundler', status: 0, output: '' },
    ]);
  });

  it('runs "partstream replay --json" from dist, without ts-node, and rejects garbage with one line and no stack trace', () => {
    const bin = path.join(app, 'node_modules', 'partstream', 'bin', 'partstream.js');
    const demo = run(process.execPath, [bin, 'replay', '--json'], app);
    const events = demo.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string });
    writeFileSync(path.join(app, 'garbage.bin'), '\u0000\u0001not a stream at all\n');
    const garbage = run(process.execPath, [bin, 'replay', 'garbage.bin'], app);
    expect({
      demo: { status: demo.status, stderr: demo.stderr, last: events[events.length - 1].event },
      garbage: { status: garbage.status, stderrLines: garbage.stderr.split('\n').length, stack: garbage.stderr.includes('    at ') },
    }).to.deep.equal({
      demo: { status: 0, stderr: '', last: 'completeResponse' },
      garbage: { status: 1, stderrLines: 2, stack: false },
    });
  });
});
