import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A repo the hub-shaped server serves: path → bytes. */
export type RepoFiles = Record<string, Uint8Array>;

export interface HubRequest {
  method: string;
  path: string;
  range: string | undefined;
}

/** Overrides one request (return true when answered). */
export type HubScript = (req: HubRequest, res: ServerResponse, count: number) => boolean;

/** Bytes that start like an ONNX ModelProto (ir_version, then a graph field holding the rest). */
export function onnxLike(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x08, 0x07, 0x3a]);
  const length = size - 3;
  let at = 3;
  const varint: number[] = [];
  // The length field's own bytes come out of the graph's length.
  for (let guess = length; ;) {
    varint.length = 0;
    let v = guess;
    do {
      varint.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>>= 7;
    } while (v > 0);
    if (guess + varint.length === length) break;
    guess = length - varint.length;
  }
  bytes.set(varint, at);
  at += varint.length;
  for (let i = at; i < size; i++) bytes[i] = (i * 31 + seed * 17) & 0xff;
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The stand-in's commit of a repo: a fixed 40-hex name derived from the repo, as the hub's commits look. */
export const commitOf = (repo: string) => createHash('sha1').update(`commit:${repo}`).digest('hex');

/** Files over this size are LFS files: listed with their SHA-256, sent with X-Linked-Etag / X-Linked-Size. */
const LFS_OVER = 1024;

export interface HubOptions {
  /** Send the hub's X-Repo-Commit, X-Linked-Etag and X-Linked-Size headers (default true). */
  headers?: boolean;
  /** A repo's commit where it is not `commitOf(repo)` (e.g. the catalogue's pinned one). */
  commits?: Record<string, string>;
}

/** Headers a browser page on another origin needs to read the answers and the hub's own headers. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Repo-Commit, X-Linked-Etag, X-Linked-Size, ETag, Content-Range, Content-Length, Accept-Ranges',
};

/**
 * A loopback server shaped like the Hugging Face hub: `/api/models/{repo}/tree/{rev}?recursive=true`
 * (paged by two with `Link: rel="next"`, files over 1 KB listed as LFS with their SHA-256) and
 * `/{repo}/resolve/{rev}/{path}` with Range requests, at `main` or the repo's commit (`commitOf`).
 * Answers carry the hub's X-Repo-Commit (and, for LFS files, X-Linked-Etag / X-Linked-Size) unless
 * `options.headers` is false, and CORS headers for pages. `tamper` serves other bytes for a file
 * while its listing and headers still describe the real one; `script` can cut, fail or replace any answer.
 */
export async function startHub(repos: Record<string, RepoFiles>, script?: HubScript, options: HubOptions = {}) {
  const requests: HubRequest[] = [];
  const tampered = new Map<string, Uint8Array>();
  const commit = (repo: string) => options.commits?.[repo] ?? commitOf(repo);
  const revisionOk = (repo: string, revision: string) => revision === 'main' || revision === commit(repo);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://hub');
    const seen = { method: req.method!, path: decodeURIComponent(url.pathname), range: req.headers.range };
    if (req.method === 'OPTIONS')
      return void res.writeHead(204, { ...CORS, 'access-control-allow-headers': '*' }).end();
    requests.push(seen);
    if (script?.(seen, res, requests.length)) return;
    const tree = seen.path.match(/^\/api\/models\/(.+)\/tree\/([^/]+)$/);
    if (tree) {
      const files = repos[tree[1]!];
      if (!files || !revisionOk(tree[1]!, tree[2]!))
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Repository not found"}');
      const entries = Object.entries(files).map(([path, bytes]) => ({
        type: 'file',
        path,
        size: bytes.byteLength > LFS_OVER ? 134 : bytes.byteLength,
        oid: createHash('sha1').update(bytes).digest('hex'),
        ...(bytes.byteLength > LFS_OVER
          ? { lfs: { oid: sha256(bytes), size: bytes.byteLength, pointerSize: 134 } }
          : {}),
      }));
      const page = Number(url.searchParams.get('cursor') ?? 0);
      const next =
        page + 2 < entries.length ? `<${url.pathname}?recursive=true&cursor=${page + 2}>; rel="next"` : undefined;
      res.writeHead(200, { 'content-type': 'application/json', ...(next ? { link: next } : {}) });
      return void res.end(JSON.stringify([{ type: 'directory', path: 'onnx' }, ...entries.slice(page, page + 2)]));
    }
    const file = seen.path.match(/^\/(.+?\/.+?)\/resolve\/([^/]+)\/(.+)$/);
    const real = file && revisionOk(file[1]!, file[2]!) ? repos[file[1]!]?.[file[3]!] : undefined;
    if (!real) return void res.writeHead(404, { 'content-type': 'text/plain', ...CORS }).end('Entry not found');
    const bytes = tampered.get(`${file![1]}/${file![3]}`) ?? real;
    const start = Number(seen.range?.match(/^bytes=(\d+)-$/)?.[1] ?? 0);
    if (start >= bytes.byteLength && start > 0)
      return void res.writeHead(416, { 'content-range': `bytes */${bytes.byteLength}`, ...CORS }).end();
    const lfs = real.byteLength > LFS_OVER;
    const hub =
      options.headers === false
        ? {}
        : {
            'x-repo-commit': commit(file![1]!),
            ...(lfs ? { 'x-linked-etag': `"${sha256(real)}"`, 'x-linked-size': String(real.byteLength) } : {}),
          };
    const headers = {
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
      etag: `"${sha256(bytes)}"`,
      ...hub,
      ...CORS,
    };
    if (seen.range)
      res.writeHead(206, {
        ...headers,
        'content-length': bytes.byteLength - start,
        'content-range': `bytes ${start}-${bytes.byteLength - 1}/${bytes.byteLength}`,
      });
    else res.writeHead(200, { ...headers, 'content-length': bytes.byteLength });
    res.end(bytes.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    options,
    /** Serves `bytes` for `repo`'s `path` (undefined: the real file again); the listing and headers stay the real file's. */
    tamper(repo: string, path: string, bytes: Uint8Array | undefined) {
      if (bytes) tampered.set(`${repo}/${path}`, bytes);
      else tampered.delete(`${repo}/${path}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends the first `bytes` of a file with its full length announced, then destroys the connection. */
export function cutAfter(res: ServerResponse, data: Uint8Array, bytes: number) {
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': data.byteLength,
    'accept-ranges': 'bytes',
  });
  res.write(data.subarray(0, bytes), () => setTimeout(() => res.destroy(), 50));
}
