/**
 * Every named type `VaaniOptions` reaches (its fields' types, theirs in turn) is exported from the
 * package entry, so an app can write its configuration with the library's own names. Walks the
 * types with the TypeScript checker (a program of protocol/options.ts alone, which is quick) and
 * reads the entry's export list; a new option type without an export fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const OPTIONS = fileURLToPath(new URL('../../src/protocol/options.ts', import.meta.url));
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The names of the types declared under src/ that `root` reaches. */
function reachedTypes(checker: ts.TypeChecker, root: ts.Type): Set<string> {
  const names = new Set<string>();
  const seen = new Set<ts.Type>();
  const ours = (symbol: ts.Symbol | undefined) =>
    symbol?.declarations?.some((declaration) => declaration.getSourceFile().fileName.startsWith(SRC)) ?? false;
  const visit = (type: ts.Type) => {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.aliasSymbol && ours(type.aliasSymbol)) names.add(type.aliasSymbol.name);
    type.aliasTypeArguments?.forEach(visit);
    if (type.isUnionOrIntersection()) type.types.forEach(visit);
    if (type.flags & ts.TypeFlags.Object) {
      const symbol = type.getSymbol();
      if (ours(symbol) && symbol!.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) names.add(symbol!.name);
      if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)
        checker.getTypeArguments(type as ts.TypeReference).forEach(visit);
      for (const property of type.getProperties())
        if (ours(property)) visit(checker.getNonNullableType(checker.getTypeOfSymbol(property)));
      for (const info of checker.getIndexInfosOfType(type)) visit(info.type);
    }
  };
  visit(root);
  return names;
}

/** The names src/index.ts exports (every export there is a named `export { … } from`). */
function entryExports(): Set<string> {
  const source = ts.createSourceFile(ENTRY, readFileSync(ENTRY, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements)
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
      for (const element of statement.exportClause.elements) names.add(element.name.text);
  return names;
}

describe('the option types', () => {
  it('every type VaaniOptions uses is exported from the entry', () => {
    const program = ts.createProgram([OPTIONS], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(OPTIONS)!)!;
    const options = checker.getExportsOfModule(module).find((symbol) => symbol.name === 'VaaniOptions')!;
    const reached = reachedTypes(checker, checker.getDeclaredTypeOfSymbol(options));
    const exported = entryExports();
    expect(exported).toContain('VaaniOptions');
    // The walk sees the known option types (a check on the walk itself).
    for (const name of ['ModelSource', 'EmbeddingSettings', 'IndicSource', 'StoreOptions', 'AuthMode'])
      expect(reached).toContain(name);
    expect([...reached].filter((name) => !exported.has(name)).sort()).toEqual([]);
  });
});
