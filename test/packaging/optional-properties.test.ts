import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';
import { REPO, userProgram } from './support/user-program';

// A project compiled with exactOptionalPropertyTypes cannot pass `undefined` to `x?: T`, only to
// `x?: T | undefined` — so `{ apiKey: process.env.OPENAI_API_KEY }` would not compile against an
// options type written the first way. This walks every type reachable from the public entry
// (exported types, classes, functions, their parameters, results and properties, recursively)
// and lists each optional property declared in lib/ whose type does not accept undefined.
// Optional methods (the handler's `onPartialResponse?(…)`) are left alone: a method keeps its
// bivariant parameter checking, which a function-typed property would lose.

const repo = REPO;
const libDir = `${path.join(repo, 'lib')}${path.sep}`;

/** `file:line Type.property` for each optional property reachable from `entry` that rejects undefined. */
function optionalPropertiesRejectingUndefined(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`Expected ${entry} to be a module, got none`);

  const inLib = (node: ts.Node): boolean => path.resolve(node.getSourceFile().fileName).startsWith(libDir);
  const seen = new Set<ts.Type>();
  const found = new Set<string>();

  // A class's private members (and the wire types they hold) are not part of what a user writes.
  const isPrivate = (node: ts.Declaration): boolean =>
    (ts.getCombinedModifierFlags(node) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
    ((ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node)) && ts.isPrivateIdentifier(node.name));
  const acceptsUndefined = (type: ts.Type): boolean =>
    (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Unknown | ts.TypeFlags.Any | ts.TypeFlags.Void)) !== 0 || (type.isUnion() && type.types.some(acceptsUndefined));

  function visitSignature(signature: ts.Signature): void {
    for (const parameter of signature.getParameters()) visit(checker.getTypeOfSymbol(parameter));
    visit(signature.getReturnType());
  }

  function visit(type: ts.Type): void {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.isUnionOrIntersection()) {
      type.types.forEach(visit);
      return;
    }
    if ((type.flags & ts.TypeFlags.Object) === 0) return;
    const reference = type as ts.TypeReference;
    if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) checker.getTypeArguments(reference).forEach(visit);
    // Types from Node, the DOM or the standard library: only their type arguments are partstream's.
    const declarations = type.getSymbol()?.getDeclarations() ?? [];
    if (declarations.length > 0 && !declarations.some(inLib)) return;
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration;
      if (declaration === undefined || !inLib(declaration) || isPrivate(declaration)) continue;
      if (
        (property.flags & ts.SymbolFlags.Optional) !== 0 &&
        (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) &&
        declaration.type !== undefined &&
        !acceptsUndefined(checker.getTypeFromTypeNode(declaration.type))
      ) {
        const file = declaration.getSourceFile();
        const line = file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
        const owner = (declaration.parent as ts.Node & { name?: ts.Node }).name?.getText() ?? '(type literal)';
        found.add(`${path.relative(repo, file.fileName)}:${line} ${owner}.${property.getName()}`);
      }
      visit(checker.getTypeOfSymbolAtLocation(property, declaration));
    }
    type.getCallSignatures().forEach(visitSignature);
    type.getConstructSignatures().forEach(visitSignature);
  }

  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)) visit(checker.getDeclaredTypeOfSymbol(symbol));
    if (symbol.flags & ts.SymbolFlags.Value) visit(checker.getTypeOfSymbol(symbol));
  }
  return [...found].sort();
}

describe('public option types under exactOptionalPropertyTypes', function () {
  this.timeout(60_000);

  it('declares every optional property reachable from each entry (lib/index.ts, replay, http, adapters, relay, otel) as `?: T | undefined`', () => {
    const { program, entries } = userProgram();
    const found = entries.flatMap((entry) => optionalPropertiesRejectingUndefined(program, entry).map((name) => `${path.basename(entry)}: ${name}`));
    expect([...new Set(found)]).to.deep.equal([]);
  });
});
