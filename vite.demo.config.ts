import { existsSync, readdirSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { defineConfig, type Plugin } from 'vite';
import { domFreeEntities, missingAudioDecoders, ortWasmGzipped } from './vite.config.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Where `npm run demo` serves model files from, at /models/: public/models, the folder `vaani pull`
 * writes to by default and a vite site serves at /models/. `VAANI_MODELS_DIR` overrides it.
 */
const modelsDir = resolve(process.env.VAANI_MODELS_DIR ?? here('public/models'));
/** The folder as the `--to` of a `vaani pull` line run in this checkout. */
export const modelsFolder = relative(here('.'), modelsDir).split(sep).join('/') || '.';

const sameOrigin = (res: ServerResponse) => res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');

const notFound = (res: ServerResponse) => {
  res.statusCode = 404;
  res.end('Not found');
};

const filesUnder = (dir: string, prefix = ''): { name: string; size: number }[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    const stat = statSync(path);
    return stat.isDirectory()
      ? filesUnder(path, `${prefix}${entry}/`)
      : [{ name: `${prefix}${entry}`, size: stat.size }];
  });

/** `{ folder, models: { [id]: FileSpec[] } }`: the folder's path, one model per sub-folder. */
function folderIndex() {
  const entries = (() => {
    try {
      return readdirSync(modelsDir).filter((entry) => statSync(join(modelsDir, entry)).isDirectory());
    } catch {
      return [];
    }
  })();
  return {
    folder: modelsFolder,
    models: Object.fromEntries(entries.map((id) => [id, filesUnder(join(modelsDir, id))])),
  };
}

/**
 * Serves the local models folder at /models/ (with Range, HEAD and sizes, so downloads resume and
 * show progress) and its listing at /models/index.json, for machines with no model hub.
 */
const localModels = (): Plugin => ({
  name: 'vaani-demo:local-models',
  configureServer(server) {
    const files = sirv(modelsDir, { dev: true, setHeaders: sameOrigin });
    server.middlewares.use((req, res, next) => {
      if (!req.url?.startsWith('/models/')) return next();
      req.url = req.url.slice('/models'.length);
      if (req.url.split('?')[0] === '/index.json') {
        res.setHeader('content-type', 'application/json');
        return void res.end(JSON.stringify(folderIndex()));
      }
      files(req, res, () => notFound(res));
    });
    server.httpServer?.once('listening', () => {
      server.config.logger.info(`  Model files: ${modelsDir} at /models/`);
      // The folder the demo served before public/models.
      if (!process.env.VAANI_MODELS_DIR && existsSync(here('models')) && !existsSync(modelsDir))
        server.config.logger.warn(`  ./models is not served: move its model folders to ${modelsFolder}/.`);
    });
  },
});

/**
 * Optional (L)GPL plug-ins the demo serves when they are installed (`createVaani({ models: { key: { baseURL } } })`
 * says where a plug-in is): key → the folder to serve.
 */
const PLUGINS: Record<string, string> = {
  'espeak-ng': here('node_modules/@echogarden/espeak-ng-emscripten'),
  lamejs: here('node_modules/@breezystack/lamejs/dist'),
};

/** Serves each installed plug-in's folder at /plugins/{key}/ and their list at /plugins/index.json. */
const plugins = (): Plugin => ({
  name: 'vaani-demo:plugins',
  configureServer(server) {
    const installed = Object.entries(PLUGINS).filter(([, dir]) => existsSync(dir));
    const served = installed.map(([key, dir]) => ({
      prefix: `/plugins/${key}/`,
      files: sirv(dir, { dev: true, setHeaders: sameOrigin }),
    }));
    server.middlewares.use((req, res, next) => {
      if (req.url === '/plugins/index.json') {
        res.setHeader('content-type', 'application/json');
        return void res.end(
          JSON.stringify(Object.fromEntries(served.map(({ prefix }) => [prefix.split('/')[2], prefix]))),
        );
      }
      const plugin = served.find(({ prefix }) => req.url?.startsWith(prefix));
      if (!plugin) return next();
      req.url = req.url!.slice(plugin.prefix.length - 1);
      plugin.files(req, res, () => notFound(res));
    });
  },
});

/** `npm run demo`: the demo site, cross-origin isolated so WASM threads work. */
export default defineConfig({
  root: here('demo'),
  resolve: { alias: [domFreeEntities] },
  plugins: [localModels(), plugins(), missingAudioDecoders(), ortWasmGzipped()],
  server: {
    port: Number(process.env.VAANI_DEMO_PORT ?? 5173),
    headers: {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      // The Service Worker setting registers src/worker/sw/vaani-sw.ts for the whole site.
      'Service-Worker-Allowed': '/',
    },
    fs: { allow: [here('.')] },
  },
  // Its own dependency cache (the test server has another), pre-bundled from the workers too, so
  // the page is not reloaded when a worker first imports a dependency.
  cacheDir: here('node_modules/.vite-demo'),
  optimizeDeps: {
    entries: ['index.html', '../src/worker/**/*.worker.ts'],
    exclude: ['onnxruntime-web'],
    include: ['openai'],
  },
  worker: { format: 'es', plugins: () => [missingAudioDecoders(), ortWasmGzipped()] },
});
