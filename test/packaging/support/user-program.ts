import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const REPO = path.resolve(__dirname, '../../..');

/** One fenced TypeScript block of a Markdown file. */
export interface Snippet {
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly code: string;
}

/** The ```ts / ```typescript blocks of `markdown`, with the line of each opening fence. */
export function typeScriptBlocks(markdown: string): Snippet[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/i.exec(lines[i]);
    if (open === null) continue;
    const fence = open[2];
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence); i++) body.push(lines[i]);
    blocks.push({ line: start + 1, code: `${body.join('\n')}\n` });
  }
  return blocks;
}

/**
 * The compiler settings of a strict user project that depends on partstream: strict and
 * exactOptionalPropertyTypes, ES modules, 'partstream' resolved to the public entry (lib/index.ts,
 * whose declarations dist/ ships).
 */
export const USER_SETTINGS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // A snippet with top-level await and no import is still a module, as in any ESM project.
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  typeRoots: [path.join(REPO, 'node_modules', '@types')],
  skipLibCheck: true,
  esModuleInterop: true,
  paths: {
    partstream: [path.join(REPO, 'lib', 'index.ts')],
    'partstream/replay': [path.join(REPO, 'lib', 'replay.ts')],
    'partstream/http': [path.join(REPO, 'lib', 'http.ts')],
    'partstream/adapters': [path.join(REPO, 'lib', 'adapters.ts')],
    'partstream/relay': [path.join(REPO, 'lib', 'relay.ts')],
    'partstream/otel': [path.join(REPO, 'lib', 'otel.ts')],
    // The README's OpenTelemetry setup imports the SDK a user installs beside partstream.
    '@opentelemetry/*': [path.join(REPO, 'node_modules', '@opentelemetry', '*')],
  },
};

/** One program over the public entry, each README block (a file of its own) and each example. */
export interface UserProgram {
  readonly program: ts.Program;
  readonly entry: string;
  /** The conversation replay entry, `partstream/replay`. */
  readonly replayEntry: string;
  /** The HTTP clients' entry, `partstream/http`. */
  readonly httpEntry: string;
  /** The adapter authors' entry, `partstream/adapters`. */
  readonly adaptersEntry: string;
  /** The relay entry, `partstream/relay`. */
  readonly relayEntry: string;
  /** The OpenTelemetry entry, `partstream/otel`. */
  readonly otelEntry: string;
  /** Every public entry's source file, the root first (one per subpath export in package.json). */
  readonly entries: readonly string[];
  /** The README blocks' files, each with the block it holds. */
  readonly snippets: readonly { readonly file: string; readonly snippet: Snippet }[];
  readonly examples: readonly string[];
}

let cached: UserProgram | undefined;

/**
 * Builds the program once per test run (type-checking lib/ takes seconds), with the README blocks
 * written as they are, nothing added, into a temp folder that is removed at exit.
 */
export function userProgram(): UserProgram {
  if (cached !== undefined) return cached;
  const work = mkdtempSync(path.join(tmpdir(), 'partstream-snippets-'));
  process.once('exit', () => rmSync(work, { recursive: true, force: true }));
  const snippets = typeScriptBlocks(readFileSync(path.join(REPO, 'README.md'), 'utf8')).map((snippet) => {
    const file = path.join(work, `readme-line-${snippet.line}.ts`);
    writeFileSync(file, snippet.code);
    return { file, snippet };
  });
  const examples = readdirSync(path.join(REPO, 'examples'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(REPO, 'examples', file));
  const entry = path.join(REPO, 'lib', 'index.ts');
  const replayEntry = path.join(REPO, 'lib', 'replay.ts');
  const httpEntry = path.join(REPO, 'lib', 'http.ts');
  const adaptersEntry = path.join(REPO, 'lib', 'adapters.ts');
  const relayEntry = path.join(REPO, 'lib', 'relay.ts');
  const otelEntry = path.join(REPO, 'lib', 'otel.ts');
  const entries = [entry, replayEntry, httpEntry, adaptersEntry, relayEntry, otelEntry];
  const program = ts.createProgram({ rootNames: [...entries, ...snippets.map((s) => s.file), ...examples], options: USER_SETTINGS });
  cached = { program, entry, replayEntry, httpEntry, adaptersEntry, relayEntry, otelEntry, entries, snippets, examples };
  return cached;
}

/** The compiler's complaints about `files` (and nothing else the program pulls in), one line each. */
export function diagnosticsOf(program: ts.Program, files: readonly string[], describeFile: (file: string, line: number) => string): string[] {
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file);
      return source === undefined ? [] : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${describeFile(diagnostic.file.fileName, line + 1)}: TS${diagnostic.code}: ${message}`;
  });
}
