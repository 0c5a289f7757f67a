import { defineConfig } from 'vite';

/**
 * The library build, run twice: `vite build` → dist/vaani.js (ESM; workers and plug-ins as chunks),
 * `vite build --mode iife` → dist/vaani.iife.js (global `Vaani` for a script tag). In the IIFE
 * build, asset and worker URLs resolve against the script's own URL.
 */
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  return {
    base: './',
    define: iife ? { 'import.meta.url': '__vaaniScriptURL' } : {},
    build: {
      target: 'es2022',
      sourcemap: true,
      emptyOutDir: !iife,
      lib: {
        entry: 'src/index.ts',
        name: 'Vaani',
        formats: [iife ? 'iife' : 'es'],
        fileName: () => (iife ? 'vaani.iife.js' : 'vaani.js'),
      },
      rolldownOptions: iife
        ? { output: { banner: 'var __vaaniScriptURL = (document.currentScript && document.currentScript.src) || location.href;' } }
        : {},
    },
    experimental: iife
      ? { renderBuiltUrl: (filename: string) => ({ runtime: `new URL(${JSON.stringify(filename)}, __vaaniScriptURL).href` }) }
      : {},
    worker: { format: 'es' },
  };
});
