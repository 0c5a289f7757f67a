/** XGrammar compiled to WASM (the wasm is inlined in the module, about 1 MB: loaded on first use). */
export type XGrammar = typeof import('@mlc-ai/web-xgrammar');

/**
 * The package is a UMD bundle under `"type": "module"`: a bundler may hand it back as a CommonJS
 * namespace (on `default`) or as a plain script that sets `globalThis.xgrammar`.
 */
export async function loadXGrammar(): Promise<XGrammar> {
  const module = (await import('@mlc-ai/web-xgrammar')) as Partial<XGrammar> & { default?: Partial<XGrammar> };
  const found = [module, module.default, (globalThis as { xgrammar?: Partial<XGrammar> }).xgrammar].find(
    (candidate) => candidate?.GrammarCompiler,
  );
  if (!found) throw new Error('@mlc-ai/web-xgrammar did not load');
  return found as XGrammar;
}
