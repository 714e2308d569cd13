import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const LIB = join(ROOT, 'lib');
/** Only the command line may use Node: it runs on Node alone. */
const NODE_ONLY_DIR = join(LIB, 'cli');

/** Globals that exist on Node alone (`NodeJS` is the namespace of Node's own types). */
const NODE_GLOBALS = new Set(['Buffer', 'process', 'setImmediate', 'clearImmediate', 'global', 'require', '__dirname', '__filename', 'NodeJS']);
/** Methods of Node's timer objects; a browser's `setTimeout` returns a number that has none of them. */
const NODE_TIMER_METHODS = new Set(['unref', 'ref', 'hasRef', 'refresh']);
const NODE_MODULES = new Set(builtinModules);

/** Exceptions to the rules above, as `file: reason`. None today: keep it that way. */
const ALLOWED: Readonly<Record<string, string>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === NODE_ONLY_DIR ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function isNodeModule(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_MODULES.has(specifier) || NODE_MODULES.has(specifier.split('/')[0] as string);
}

/** Every Node-only use in one file's syntax tree (comments and strings do not count), as `line: what`. */
/**
 * True where naming `process` (or another Node global) is portable: a property name in a type
 * (`{ process?: … }`), or a guarded read of a property (`globalThis.process?.env`: undefined where
 * there is no Node). `globalThis.process` read without `?.` still counts as a use.
 */
function isPortableMention(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (parent === undefined) return false;
  if (ts.isPropertySignature(parent)) return parent.name === node;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
    const outer = parent.parent;
    return outer !== undefined && (ts.isPropertyAccessExpression(outer) || ts.isElementAccessExpression(outer)) && outer.expression === parent && outer.questionDotToken !== undefined;
  }
  return false;
}

function nodeOnlyUses(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const uses: string[] = [];
  const report = (node: ts.Node, what: string): void => {
    uses.push(`${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  };
  const checkSpecifier = (node: ts.Node | undefined): void => {
    if (node === undefined || !ts.isStringLiteralLike(node)) return;
    if (isNodeModule(node.text)) report(node, `imports the Node module '${node.text}'`);
    const target = join(path, '..', node.text);
    if (node.text.startsWith('.') && (target === NODE_ONLY_DIR || target.startsWith(NODE_ONLY_DIR + sep))) {
      report(node, `imports the Node-only command line ('${node.text}')`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) checkSpecifier(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) checkSpecifier(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) checkSpecifier(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) checkSpecifier(node.argument.literal);
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text) && !isPortableMention(node)) report(node, `names the Node global ${node.text}`);
    if (ts.isPropertyAccessExpression(node) && NODE_TIMER_METHODS.has(node.name.text)) report(node, `calls the Node timer method .${node.name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

describe('portable library source (runs in browsers, edge workers, Deno and Bun)', () => {
  const files = sourceFiles(LIB);

  it('scans the library (lib/ less lib/cli)', () => {
    expect(files.length).to.be.above(50);
    expect(files).to.include(join(LIB, 'index.ts'));
    expect(files.some((file) => file.startsWith(NODE_ONLY_DIR + sep))).to.equal(false);
  });

  it('has no file outside lib/cli that imports a node: module or names Buffer, process or setImmediate', () => {
    const found: string[] = [];
    for (const file of files) {
      const name = relative(ROOT, file);
      if (name in ALLOWED) continue;
      for (const use of nodeOnlyUses(file, readFileSync(file, 'utf8'))) found.push(`${name}:${use}`);
    }
    expect(found, 'Node-only APIs in portable code (use a WHATWG global instead, or move the code to lib/cli)').to.deep.equal([]);
  });

  it('keeps the allow-list empty', () => {
    expect(ALLOWED).to.deep.equal({});
  });

  describe('the scanner itself', () => {
    const scan = (text: string): string[] => nodeOnlyUses(join(LIB, 'parts', 'example.ts'), text);

    it('finds each kind of Node-only use', () => {
      const text = [
        "import { readFileSync } from 'node:fs';",
        "import type { Socket } from 'net';",
        "export { inspect } from 'util';",
        "const zlib = import('node:zlib');",
        "import { main } from '../cli/main';",
        'const bytes = Buffer.from("x");',
        'const env = globalThis.process;',
        'setImmediate(() => undefined);',
        'let timer: NodeJS.Timeout;',
        'setTimeout(() => undefined, 5).unref();',
      ].join('\n');
      expect(scan(text)).to.deep.equal([
        "1: imports the Node module 'node:fs'",
        "2: imports the Node module 'net'",
        "3: imports the Node module 'util'",
        "4: imports the Node module 'node:zlib'",
        "5: imports the Node-only command line ('../cli/main')",
        '6: names the Node global Buffer',
        '7: names the Node global process',
        '8: names the Node global setImmediate',
        '9: names the Node global NodeJS',
        '10: calls the Node timer method .unref',
      ]);
    });

    it('ignores comments, strings and portable globals', () => {
      const text = [
        '// Buffer and process are Node-only; see node:buffer',
        "const note = 'process the Buffer';",
        'const bytes = new TextEncoder().encode(note);',
        'const timer = setTimeout(() => undefined, 5); clearTimeout(timer);',
        'queueMicrotask(() => btoa(String.fromCharCode(...bytes)));',
        "const env = (globalThis as { process?: { env?: Record<string, string> } }).process?.env?.['HOME'];",
      ].join('\n');
      expect(scan(text)).to.deep.equal([]);
    });
  });
});
