import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { domFreeEntities, ortWasmGzipped } from './vite.config.ts';
import { serveShared } from './vite.shared-plugin.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Serves the browser-test pages, cross-origin isolated. `vaani` is the built library (dist/);
 * VAANI_SRC=1 points it at src/ for quick iteration. The project's ../shared folder (recorded
 * speech, upstream model fixtures) is served at /shared/.
 */
export default defineConfig({
  root: here('.'),
  // The repository's public/ holds the demo's model files (public/models): tests see only their fixtures.
  publicDir: false,
  // One pre-bundle cache per port: test servers of parallel runs must not rewrite each other's.
  cacheDir: here(`node_modules/.vite-test-${process.env.VAANI_TEST_PORT ?? 5174}`),
  plugins: [serveShared(here('../shared')), ortWasmGzipped()],
  server: {
    port: Number(process.env.VAANI_TEST_PORT ?? 5174),
    strictPort: true,
    headers: {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      // The Service Worker spec registers dist/vaani-sw.js for the whole site.
      'Service-Worker-Allowed': '/',
    },
    fs: { allow: [here('.'), here('../shared')] },
  },
  resolve: {
    alias: [
      domFreeEntities,
      { find: /^vaani$/, replacement: here(process.env.VAANI_SRC ? 'src/index.ts' : 'dist/vaani.js') },
      {
        find: /^vaani\/widgets$/,
        replacement: here(process.env.VAANI_SRC ? 'src/widgets/index.ts' : 'dist/widgets.js'),
      },
      {
        find: /^vaani\/ai-sdk$/,
        replacement: here(process.env.VAANI_SRC ? 'src/ai-sdk/index.ts' : 'dist/ai-sdk.js'),
      },
    ],
  },
  optimizeDeps: {
    // Emscripten modules that find their .wasm beside themselves must not be pre-bundled.
    exclude: [
      'onnxruntime-web',
      'vaani',
      'vaani/widgets',
      'vaani/ai-sdk',
      '@echogarden/speex-resampler-wasm',
      '@echogarden/sonic-wasm',
    ],
    // Dependencies reached only from workers: listed so vite does not discover them mid-test and reload.
    include: [
      'openai',
      'marked',
      'dompurify',
      'audio-decode',
      'audio-type',
      'pitchy',
      'fft.js',
      '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js',
      'comlink',
      '@huggingface/tokenizers',
      '@huggingface/jinja',
      '@huggingface/transformers',
      '@orama/orama',
      '@petamoriken/float16',
      'pure-rand/distribution/uniformFloat64',
      'pure-rand/generator/xoroshiro128plus',
      'zod',
      'ajv',
      'openai/helpers/zod',
      'ai',
      '@ai-sdk/openai',
      '@ai-sdk/openai-compatible',
      '@langchain/openai',
      'eventsource-parser/stream',
      '@mediabunny/flac-encoder',
      'mediabunny',
      '@mozilla/readability',
      'hono',
      'idb-keyval',
      'linkedom',
      'mdast-util-from-markdown',
      'onnx-proto',
      'p-limit',
      'papaparse',
      'pdfjs-dist',
      'pdfjs-dist/build/pdf.worker.mjs',
      'valibot',
    ],
  },
  worker: { format: 'es' },
});
