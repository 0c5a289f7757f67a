import { defineConfig } from 'vite';
import { ortWasmGzipped } from './vite.config.ts';

/** `vaani` (the CLI, `bin` in package.json): one Node ES module with everything it imports bundled, beside the library in dist/. */
export default defineConfig({
  // The repository's public/ holds the demo's model files (public/models), not the package's.
  publicDir: false,
  plugins: [ortWasmGzipped(false)],
  build: {
    ssr: 'src/cli/vaani.ts',
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
    minify: false,
    rolldownOptions: {
      // The engines' file lists share modules with their runtimes, whose onnxruntime import the CLI never runs.
      external: [/^onnxruntime-web/],
      output: { entryFileNames: 'vaani.js', format: 'es' },
    },
  },
  ssr: { noExternal: true, target: 'node' },
});
