import { copyFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { XGrammar } from '../../src/text/grammar/xgrammar';

const require = createRequire(import.meta.url);
let loaded: XGrammar | undefined;

/**
 * @mlc-ai/web-xgrammar in Node: its UMD bundle sits under `"type": "module"`, which Node runs as
 * ESM where the bundle's CommonJS branch cannot work, so a copy named .cjs is required instead.
 */
export async function loadXGrammarInNode(): Promise<XGrammar> {
  if (loaded) return loaded;
  const copy = join(mkdtempSync(join(tmpdir(), 'xgrammar-')), 'index.cjs');
  copyFileSync(require.resolve('@mlc-ai/web-xgrammar'), copy);
  return (loaded = require(copy) as XGrammar);
}
