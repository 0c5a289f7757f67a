import { defineConfig } from 'vite';

/** The library build: dist/vaani.js (ESM, with worker chunks) and dist/vaani.iife.js (global Vaani). */
export default defineConfig({
  build: {
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: 'src/index.ts',
      name: 'Vaani',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'vaani.js' : 'vaani.iife.js'),
    },
  },
  worker: { format: 'es' },
});
