import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/**
 * The policy a strict site sends (issue 36), also allowing one Trusted Types policy name, Vaani's
 * `vaani` (no other, no duplicates), with a report endpoint: reporting weakens nothing.
 */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
  "require-trusted-types-for 'script'; trusted-types vaani";
const REPORT = '/__csp-report';

/**
 * A static server for the repository (the built dist/, the pages, test/.fixtures, node_modules) and
 * ../shared at /shared that sends STRICT_CSP, cross-origin isolated, with every response: documents
 * and workers alike (a worker's policy is the one its script is served with). Collects the violation
 * reports the browser posts, from the page and from every worker.
 */
export async function serveStrict(root: string, shared: string) {
  const reports: unknown[] = [];
  const headers = (res: import('node:http').ServerResponse) => {
    res.setHeader('Content-Security-Policy', `${STRICT_CSP}; report-uri ${REPORT}`);
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  };
  const files = sirv(root, { dev: true, dotfiles: true, setHeaders: headers });
  const sharedFiles = sirv(shared, { dev: true, setHeaders: headers });
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === REPORT) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        reports.push(JSON.parse(Buffer.concat(chunks).toString() || 'null'));
        res.writeHead(204).end();
      });
      return;
    }
    const serve = url.startsWith('/shared/') ? sharedFiles : files;
    if (url.startsWith('/shared/')) req.url = url.slice('/shared'.length);
    serve(req, res, () => void res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    reports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
