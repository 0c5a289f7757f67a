import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

const isolate = (res: ServerResponse) => {
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
};

/**
 * A plain static file server, cross-origin isolated, like the one a site would deploy a built app
 * to: each URL prefix maps to a folder (e.g. `{ '/': 'dist', '/shared': '../shared' }`), longest first.
 */
export async function serveFolders(mounts: Record<string, string>): Promise<StaticServer> {
  const handlers = Object.entries(mounts)
    .sort(([a], [b]) => b.length - a.length)
    .map(([prefix, dir]) => ({
      prefix: prefix.replace(/\/+$/, ''),
      serve: sirv(dir, { dev: true, setHeaders: isolate }),
    }));
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const mount = handlers.find(({ prefix }) => url === prefix || url.startsWith(`${prefix}/`));
    if (!mount) return void res.writeHead(404).end();
    req.url = url.slice(mount.prefix.length) || '/';
    mount.serve(req, res, () => void res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
