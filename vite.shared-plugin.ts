import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Plugin } from 'vite';

const TYPES: Record<string, string> = {
  '.flac': 'audio/flac',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.data': 'application/octet-stream',
  '.md': 'text/markdown',
};

/** Serves the folder `root` (the project's ../shared) read-only at `/shared/`, for tests and the bench. */
export function serveShared(root: string): Plugin {
  return {
    name: 'vaani-serve-shared',
    configureServer(server) {
      server.middlewares.use('/shared', (req, res, next) => {
        const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
        if (!path.startsWith(root)) return next();
        let size: number;
        try {
          const stat = statSync(path);
          if (!stat.isFile()) return next();
          size = stat.size;
        } catch {
          return next();
        }
        res.setHeader('content-type', TYPES[extname(path)] ?? 'application/octet-stream');
        res.setHeader('content-length', String(size));
        res.setHeader('cross-origin-resource-policy', 'same-origin');
        if (req.method === 'HEAD') return void res.end();
        createReadStream(path).pipe(res);
      });
    },
  };
}
