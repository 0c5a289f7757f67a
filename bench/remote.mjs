import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The loopback server bench scenarios use: GET /json (small JSON), POST /v1/chat/completions (SSE
 * of N chunks), POST /v1/audio/transcriptions (JSON text), GET /gz/<file> (a file of
 * node_modules/.cache/vaani/ as a plain static server sends a `.gz`: application/gzip, no
 * Content-Encoding), GET /paced/<MiB per s>/<path> (a file under test/.fixtures/bench-store/ sent at
 * that rate, as a link of that speed would; 404 for any other), GET /paced-log (every /paced/
 * request since the last DELETE /paced-log: its path, status and the bytes sent).
 */
/** What /paced/ was asked for: path, status, bytes sent so far (a row grows while its file streams). */
let pacedLog = [];

/** Sends `/paced/<rate>/<path>` in 256 KiB slices read as they go, each no earlier than the rate allows. */
function paced(path, res) {
  const [, , rate, ...parts] = path.split('/');
  const entry = { path: parts.join('/'), status: 404, bytes: 0 };
  pacedLog.push(entry);
  const safe = parts.every((part) => /^[\w.-]+$/.test(part) && !/^\.+$/.test(part));
  const file = new URL(`../test/.fixtures/bench-store/${parts.join('/')}`, import.meta.url);
  const stat = safe ? statSync(file, { throwIfNoEntry: false }) : undefined;
  const size = stat?.isFile() ? stat.size : undefined;
  if (size === undefined || !(Number(rate) > 0)) return void res.writeHead(404).end();
  entry.status = 200;
  const fd = openSync(file, 'r');
  res.once('close', () => closeSync(fd));
  const perMs = (Number(rate) * 1024 * 1024) / 1000;
  const started = performance.now();
  res.writeHead(200, {
    // A module script (the eSpeak plug-in's espeak-ng.js) must come as JavaScript.
    'content-type': /\.m?js$/.test(file.pathname)
      ? 'text/javascript'
      : file.pathname.endsWith('.json')
        ? 'application/json'
        : 'application/octet-stream',
    'content-length': String(size),
    'cache-control': 'no-store',
  });
  let sent = 0;
  const next = () => {
    if (res.destroyed) return;
    if (sent >= size) return void res.end();
    const slice = Buffer.allocUnsafe(Math.min(262144, size - sent));
    readSync(fd, slice, 0, slice.length, sent);
    res.write(slice);
    sent += slice.length;
    entry.bytes = sent;
    setTimeout(next, Math.max(0, started + sent / perMs - performance.now()));
  };
  next();
}

export async function startBenchRemote() {
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
    res.setHeader('access-control-allow-methods', '*');
    res.setHeader('cross-origin-resource-policy', 'cross-origin');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname.startsWith('/gz/')) {
        const file = new URL(
          `../node_modules/.cache/vaani/${url.pathname.slice(4).replace(/[^\w.-]/g, '')}`,
          import.meta.url,
        );
        res.writeHead(200, { 'content-type': 'application/gzip', 'cache-control': 'no-store' }).end(readFileSync(file));
        return;
      }
      if (url.pathname.startsWith('/paced/')) return paced(url.pathname, res);
      if (url.pathname === '/paced-log') {
        if (req.method === 'DELETE') pacedLog = [];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pacedLog));
        return;
      }
      if (url.pathname.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"नमस्ते (remote)"}');
        return;
      }
      if (url.pathname === '/json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
        return;
      }
      const n = Number(JSON.parse(Buffer.concat(chunks).toString() || '{}').metadata?.n ?? 50);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'chat-v2' };
      let out = '';
      for (let i = 0; i < n; i++)
        out += `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'शब्द ' }, finish_reason: null }] })}\n\n`;
      res.end(
        `${out}data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
