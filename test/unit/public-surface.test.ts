/**
 * Golden test of the package's public surface (__golden__/public-surface.json): for the entries of
 * `vaani` (src/index.ts), `vaani/widgets` (src/widgets/index.ts) and `vaani/ai-sdk`, the value exports with their
 * `typeof`, the type-only exports (read from the entry's source: with `verbatimModuleSyntax` every
 * type export says `type`), and the widgets' tag names. Moving files must leave it as it is; after a
 * deliberate change, rewrite it with `UPDATE_GOLDEN=1 npx vitest run test/unit/public-surface.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, it, vi } from 'vitest';
import { expectGolden } from './golden';

const ENTRIES = {
  vaani: '../../src/index.ts',
  'vaani/widgets': '../../src/widgets/index.ts',
  'vaani/ai-sdk': '../../src/ai-sdk/index.ts',
};

const values = (module: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(module)
      .sort()
      .map((name) => [name, typeof module[name]]),
  );

/** The names an entry exports as types only, sorted. */
function typeExports(url: URL): string[] {
  const source = ts.createSourceFile(fileURLToPath(url), readFileSync(url, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause))
        throw new Error(`${fileURLToPath(url)}: name the exports of "${statement.getText(source)}" for this test`);
      for (const element of statement.exportClause.elements)
        if (statement.isTypeOnly || element.isTypeOnly) names.push(element.name.text);
    } else if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    )
      names.push(statement.name.text);
  }
  return names.sort();
}

/** The widgets module defines custom elements on import: just enough of a DOM for that, then restored. */
async function importWidgets(): Promise<Record<string, unknown>> {
  vi.stubGlobal('HTMLElement', globalThis.HTMLElement ?? class {});
  vi.stubGlobal('customElements', globalThis.customElements ?? { get: () => undefined, define: () => {} });
  try {
    return await import('../../src/widgets/index');
  } finally {
    vi.unstubAllGlobals();
  }
}

describe('the public surface', () => {
  it('exports what __golden__/public-surface.json records', async () => {
    const vaani = await import('../../src/index');
    const widgets = await importWidgets();
    const aiSdk = await import('../../src/ai-sdk/index');
    const surface = {
      vaani: { values: values(vaani), types: typeExports(new URL(ENTRIES.vaani, import.meta.url)) },
      'vaani/widgets': {
        values: values(widgets),
        types: typeExports(new URL(ENTRIES['vaani/widgets'], import.meta.url)),
        elements: Object.keys(widgets.ELEMENTS as object).sort(),
      },
      'vaani/ai-sdk': { values: values(aiSdk), types: typeExports(new URL(ENTRIES['vaani/ai-sdk'], import.meta.url)) },
    };
    await expectGolden(new URL('__golden__/public-surface.json', import.meta.url), surface);
  });
});
