import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XGrammar } from '../../src/common/text/grammar/xgrammar';

const require = createRequire(import.meta.url);
let copy: string | undefined;

/**
 * A fresh @mlc-ai/web-xgrammar in Node (a new module each call, as `loadXGrammar` gives in the
 * browser): its UMD bundle sits under `"type": "module"`, which Node runs as ESM where the bundle's
 * CommonJS branch cannot work, so a copy named .cjs is required instead, out of require's cache.
 */
export async function loadXGrammarInNode(): Promise<XGrammar> {
  copy ??= join(mkdtempSync(join(tmpdir(), 'xgrammar-')), 'index.cjs');
  if (!existsSync(copy)) copyFileSync(require.resolve('@mlc-ai/web-xgrammar'), copy);
  delete require.cache[copy];
  return require(copy) as XGrammar;
}
