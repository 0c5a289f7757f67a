import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const SCRIPT_URL = '__vaaniScriptURL';

/**
 * onnxruntime-web's two `.wasm` builds (with WebGPU: the C++ EP's asyncify build; WASM only) were most
 * of what an install weighed (docs/performance.md). The library build ships them gzipped instead (gzip
 * because every browser inflates it with `DecompressionStream`): `vaani:ort-wasm` becomes their two URLs, which
 * src/common/backends/ort-wasm.ts fetches, inflates and hands to onnxruntime-web. onnxruntime-web's own
 * `new URL('ort-wasm-….wasm', import.meta.url)` is left unresolved (no asset, nothing for an app's
 * bundler to copy); it is never fetched once `env.wasm.wasmBinary` is set. Its
 * `new URL('ort.bundle.min.mjs', import.meta.url)` (its own file, for node) becomes the chunk it is
 * bundled into. On dev servers and in vitest `vaani:ort-wasm` is empty: onnxruntime-web loads its own
 * files from node_modules, and the CLI (`ship` false) never loads it.
 */
export const ortWasmGzipped = (ship = true): Plugin => {
  let build = false;
  return {
    name: 'vaani:ort-wasm-gzipped',
    enforce: 'pre',
    configResolved: (config) => void (build = ship && config.command === 'build'),
    resolveId: (id) => (id === 'vaani:ort-wasm' ? '\0vaani:ort-wasm' : null),
    load(id) {
      if (id !== '\0vaani:ort-wasm') return null;
      if (!build) return 'export default {};';
      const url = (file: string) => JSON.stringify(`${gzipped(file)}?url`);
      return [
        // `onnxruntime-web/webgpu` (src/common/backends/ort.ts): the C++ WebGPU EP, asyncify.
        `import webgpu from ${url('ort-wasm-simd-threaded.asyncify.wasm')};`,
        `import wasm from ${url('ort-wasm-simd-threaded.wasm')};`,
        'export default { webgpu, wasm };',
      ].join('\n');
    },
    transform: {
      filter: { id: /onnxruntime-web[\\/]dist[\\/].*\.mjs$/ },
      handler: (code) => ({
        code: code
          .replace(
            /new URL\("(ort-wasm-simd-threaded[\w.]*\.wasm)",import\.meta\.url\)/g,
            'new URL("$1",""+import.meta.url)',
          )
          .replace(/new (\w+)\("ort[\w.]*\.min\.mjs",import\.meta\.url\)/g, 'new $1(import.meta.url)'),
        map: null,
      }),
    },
  };
};

/** node_modules/.cache/vaani/<file>.gz: onnxruntime-web's dist/<file>, gzipped once per version. */
function gzipped(file: string): string {
  const source = fileURLToPath(new URL(`node_modules/onnxruntime-web/dist/${file}`, import.meta.url));
  const target = fileURLToPath(new URL(`node_modules/.cache/vaani/${file}.gz`, import.meta.url));
  if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) return target;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, gzipSync(readFileSync(source), { level: 9 }));
  renameSync(`${target}.tmp`, target);
  return target;
}

/**
 * Emscripten modules bundled from npm (the Speex resampler, Sonic) find their `.wasm` with
 * `new URL('x.wasm', import.meta.url)`, which library mode inlines as a `data:` URL they then
 * `fetch`: a page's `connect-src 'self'` refuses it. As a `?url` import it is emitted as a file
 * (urlImportsAsFiles) and fetched from the library's own origin. onnxruntime-web's are ortWasmGzipped's.
 */
const wasmAsFiles = (): Plugin => ({
  name: 'vaani:wasm-as-files',
  apply: 'build',
  transform: {
    filter: {
      id: /node_modules[\\/](?!onnxruntime-web[\\/])/,
      code: /new URL\("[\w.-]+\.wasm",\s*import\.meta\.url\)/,
    },
    handler(code) {
      const files: string[] = [];
      const body = code.replace(/new URL\("([\w.-]+\.wasm)",\s*import\.meta\.url\)/g, (_, file: string) => {
        files.push(file);
        return `new URL(__vaaniWasm${files.length - 1}, import.meta.url)`;
      });
      const imports = files.map((file, i) => `import __vaaniWasm${i} from ${JSON.stringify(`./${file}?url`)};`);
      return { code: `${imports.join('')}${body}`, map: null };
    },
  },
});

/**
 * `@mediabunny/flac-encoder` runs libFLAC in a worker it starts from a `blob:` URL of its own
 * source text: a page's `worker-src 'self'` refuses it, and Trusted Types would have to bless a
 * script made of a string. The build writes that text to a file (node_modules/.cache/vaani) and
 * the encoder starts it as a same-origin classic worker instead; dev servers keep the blob.
 */
const flacWorkerAsFile = (): Plugin => ({
  name: 'vaani:flac-worker-as-file',
  apply: 'build',
  transform: {
    filter: { id: /mediabunny-flac-encoder\.m?js$/, code: /inlineWorker\('/ },
    handler(code) {
      const call = /inlineWorker\(('(?:[^'\\]|\\.)*')\)/.exec(code);
      if (!call) throw new Error('vaani:flac-worker-as-file: @mediabunny/flac-encoder no longer inlines its worker.');
      const target = fileURLToPath(new URL('node_modules/.cache/vaani/flac-encoder.worker.js', import.meta.url));
      const text = String(runInNewContext(call[1]!));
      if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
      const start = 'Promise.resolve(new Worker(__vaaniFlacWorker))';
      return {
        code: `import __vaaniFlacWorker from ${JSON.stringify(`${target}?url`)};${code.replace(call[0], start)}`,
        map: null,
      };
    },
  },
});

/**
 * decode-named-character-reference (micromark's, under the Markdown parser) has a `browser` build
 * that decodes through `document`, which workers lack: the data worker parses Markdown, so every
 * build (and the dev servers' dependency pre-bundling) takes its DOM-free build.
 */
export const domFreeEntities = {
  find: /^decode-named-character-reference$/,
  replacement: fileURLToPath(new URL('node_modules/decode-named-character-reference/index.js', import.meta.url)),
};

/**
 * Library mode inlines every `import url from './file?url'` as base64 in the bundle (the recorder's
 * 2.3 MB VAD model would triple the entry's size). `&no-inline` makes vite emit the file instead. A
 * script emitted so (XGrammar's bundle) loses its `//# sourceMappingURL=` line: its map is not
 * shipped, and a reference to a missing map makes every app's dev server warn.
 */
const urlImportsAsFiles = (): Plugin => ({
  name: 'vaani:url-imports-as-files',
  enforce: 'pre',
  resolveId(id, importer) {
    if (!/[?&]url$/.test(id) || /[?&]worker\b/.test(id)) return null;
    return this.resolve(`${id}&no-inline`, importer, { skipSelf: true });
  },
  generateBundle(_, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type !== 'asset' || !file.fileName.endsWith('.js')) continue;
      const text = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
      file.source = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    }
  },
});

/**
 * audio-decode imports one package per format, and some it does not depend on (e.g.
 * `@audio/decode-ape`). A format whose decoder is not installed becomes a module that fails when
 * loaded, so decoding that format is a clear error instead of the whole build failing.
 */
export const missingAudioDecoders = (): Plugin => ({
  name: 'vaani:missing-audio-decoders',
  async resolveId(id, importer) {
    if (!id.startsWith('@audio/decode-')) return null;
    const found = await this.resolve(id, importer, { skipSelf: true });
    return found ?? `\0vaani-missing:${id}`;
  },
  load(id) {
    if (!id.startsWith('\0vaani-missing:')) return null;
    const name = id.slice('\0vaani-missing:'.length);
    return `throw new Error(${JSON.stringify(`The audio decoder ${name} is not installed.`)});`;
  },
});

/**
 * The script-tag build has no `import.meta`: the page's code resolves URLs against the script's
 * own URL instead. Workers stay ES modules with a real `import.meta.url`, so this plugin is a
 * top-level one (vite does not run those in worker bundles), unlike `define`.
 */
const scriptUrlForImportMeta = (): Plugin => ({
  name: 'vaani:script-url-for-import-meta',
  enforce: 'post',
  transform: {
    filter: { code: /import\.meta\.url/ },
    handler: (code) => ({ code: code.replaceAll('import.meta.url', SCRIPT_URL), map: null }),
  },
});

const WRAPPED_WORKER_URL =
  /new URL\(\s*\/\* @vite-ignore \*\/\s*new URL\("(assets\/[^"]+\.js)", import\.meta\.url\)\.href,\s*"" \+ import\.meta\.url\s*\)/g;

/**
 * Vite writes a built worker's URL as `new URL(/* @vite-ignore *\/ new URL("assets/x.js", import.meta.url).href, …)`,
 * which an app's bundler copies as a plain file, losing the worker's own imports (onnxruntime-web's
 * chunks and .wasm). The plain `new Worker(new URL("./assets/x.js", import.meta.url))` lets the
 * app's bundler (vite, webpack 5, rollup, parcel) bundle each worker with everything it imports.
 * Line breaks are kept so the source map still lines up.
 */
const workerUrlsForBundlers = (): Plugin => ({
  name: 'vaani:worker-urls-for-bundlers',
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      chunk.code = chunk.code.replace(
        WRAPPED_WORKER_URL,
        (wrapped, file: string) =>
          `new URL(${JSON.stringify(`./${file}`)}, import.meta.url${'\n'.repeat(wrapped.split('\n').length - 1)})`,
      );
    }
  },
});

/**
 * `vite build --mode sw` → dist/vaani-sw.js (`vaani/sw`): the Service Worker, one file with no
 * imports (a classic or a module worker, or imported by a site's own worker). It only routes.
 */
const serviceWorkerBuild = {
  publicDir: false as const,
  build: {
    target: 'es2022',
    sourcemap: 'hidden' as const,
    emptyOutDir: false,
    lib: { entry: 'src/worker/sw/vaani-sw.ts', formats: ['es' as const], fileName: () => 'vaani-sw.js' },
  },
};

/**
 * The library build, run twice: `vite build` → dist/vaani.js (ESM; workers and plug-ins as chunks),
 * `vite build --mode iife` → dist/vaani.iife.js (global `Vaani` for a script tag). In the IIFE
 * build, the page's asset and worker URLs resolve against the script's own URL; worker chunks
 * resolve theirs against themselves.
 */
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  if (mode === 'sw') return serviceWorkerBuild;
  return {
    base: './',
    // The repository's public/ holds the demo's model files (public/models), not the package's.
    publicDir: false,
    resolve: { alias: [domFreeEntities] },
    plugins: [
      ortWasmGzipped(),
      urlImportsAsFiles(),
      wasmAsFiles(),
      flacWorkerAsFile(),
      missingAudioDecoders(),
      iife ? scriptUrlForImportMeta() : workerUrlsForBundlers(),
    ],
    build: {
      target: 'es2022',
      // Maps are written for debugging this repository but not referenced: the package leaves them out
      // (`files`), and a reference to a missing map makes every app's dev server warn.
      sourcemap: 'hidden',
      emptyOutDir: !iife,
      lib: {
        // ESM: `vaani`, `vaani/widgets` (which registers the elements on import) and `vaani/ai-sdk` share chunks.
        entry: iife
          ? 'src/iife.ts'
          : { vaani: 'src/index.ts', widgets: 'src/widgets/index.ts', 'ai-sdk': 'src/ai-sdk/index.ts' },
        name: 'Vaani',
        formats: [iife ? 'iife' : 'es'],
        fileName: (_format: string, entry: string) => (iife ? 'vaani.iife.js' : `${entry}.js`),
      },
      rolldownOptions: {
        // vaani/ai-sdk's optional peers: the app's copies, which share @ai-sdk/provider-utils with its `ai`.
        external: [/^@ai-sdk\//],
        output: {
          assetFileNames: 'assets/[name]-[hash][extname]',
          ...(iife
            ? { banner: `var ${SCRIPT_URL} = (document.currentScript && document.currentScript.src) || location.href;` }
            : {}),
        },
      },
    },
    experimental: iife
      ? {
          renderBuiltUrl: (filename: string, { hostId }: { hostId: string }) =>
            hostId.endsWith('vaani.iife.js')
              ? { runtime: `new URL(${JSON.stringify(filename)}, ${SCRIPT_URL}).href` }
              : { relative: true },
        }
      : {},
    worker: {
      format: 'es',
      plugins: () => [ortWasmGzipped(), urlImportsAsFiles(), wasmAsFiles(), flacWorkerAsFile(), missingAudioDecoders()],
    },
  };
});
