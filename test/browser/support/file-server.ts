import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server misbehaves for one path. */
export interface Behaviour {
  /** Close the connection after this many body bytes, `cutTimes` times (default once). */
  cutAfter?: number;
  cutTimes?: number;
  /** At `cutAfter`, go silent with the connection left open instead of closing it. */
  stallInsteadOfCut?: boolean;
  /** Answer every GET with the whole file and 200, Range or not. */
  ignoreRange?: boolean;
  /** Answer an open-ended Range with at most this many bytes (as some CDNs do). */
  rangeCap?: number;
  /** Answer 200 with an HTML page instead of the file. */
  html?: boolean;
  /** Answer this status with a short text body. */
  status?: number;
  /** Send at most this many body bytes per second. */
  bytesPerSecond?: number;
}

export interface Served {
  method: string;
  path: string;
  range: string | undefined;
  status: number;
  /** Body bytes actually written. */
  sent: number;
}

const PIECE = 16 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A loopback file server for the weight store's browser tests: CORS + CORP so a cross-origin
 * isolated page may fetch it, Range support, and per-path misbehaviour (cut, ignore Range, HTML, status, slow).
 */
export class FileServer {
  readonly log: Served[] = [];
  private readonly files = new Map<string, Uint8Array>();
  private readonly behaviours = new Map<string, Behaviour>();
  private server: Server | undefined;
  url = '';

  put(path: string, bytes: Uint8Array, behaviour: Behaviour = {}): void {
    this.files.set(path, bytes);
    this.behaviours.set(path, behaviour);
  }

  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  /** GET requests for a path (HEAD and OPTIONS excluded). */
  gets(path: string): Served[] {
    return this.log.filter((entry) => entry.method === 'GET' && entry.path === path);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.answer(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
    res.setHeader('access-control-expose-headers', 'content-length, content-range, etag, accept-ranges');
    res.setHeader('cross-origin-resource-policy', 'cross-origin');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const path = new URL(req.url!, 'http://x').pathname;
    const entry: Served = { method: req.method!, path, range: req.headers.range, status: 0, sent: 0 };
    this.log.push(entry);
    const file = this.files.get(path);
    const behaviour = this.behaviours.get(path) ?? {};
    const finish = (status: number, headers: Record<string, string | number>, body: Uint8Array) =>
      this.send(req, res, entry, status, headers, body, behaviour);

    if (behaviour.html)
      return finish(
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        new TextEncoder().encode('<!DOCTYPE html><html><body>Sign in to continue</body></html>'),
      );
    if (behaviour.status || !file)
      return finish(
        behaviour.status ?? 404,
        { 'content-type': 'text/plain' },
        new TextEncoder().encode('Entry not found'),
      );
    const etag = `"${createHash('sha1').update(file).digest('hex')}"`;
    const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', etag };
    const range = req.headers.range?.match(/^bytes=(\d+)-(\d*)$/);
    if (range && !behaviour.ignoreRange) {
      const start = Number(range[1]);
      const asked = range[2] ? Math.min(Number(range[2]), file.length - 1) : file.length - 1;
      const end = behaviour.rangeCap ? Math.min(asked, start + behaviour.rangeCap - 1) : asked;
      if (start >= file.length) return finish(416, { 'content-range': `bytes */${file.length}` }, new Uint8Array(0));
      return finish(
        206,
        { ...headers, 'content-range': `bytes ${start}-${end}/${file.length}` },
        file.subarray(start, end + 1),
      );
    }
    return finish(200, headers, file);
  }

  private async send(
    req: IncomingMessage,
    res: ServerResponse,
    entry: Served,
    status: number,
    headers: Record<string, string | number>,
    body: Uint8Array,
    behaviour: Behaviour,
  ): Promise<void> {
    entry.status = status;
    res.writeHead(status, { ...headers, 'content-length': body.length });
    if (req.method === 'HEAD') return void res.end();
    const cut = behaviour.cutAfter !== undefined && (behaviour.cutTimes ?? 1) > 0 ? behaviour.cutAfter : undefined;
    if (cut !== undefined) behaviour.cutTimes = (behaviour.cutTimes ?? 1) - 1;
    for (let at = 0; at < body.length; at += PIECE) {
      if (res.destroyed) return;
      let piece = body.subarray(at, at + PIECE);
      if (cut !== undefined && entry.sent + piece.length >= cut) {
        piece = piece.subarray(0, cut - entry.sent);
        res.write(piece);
        entry.sent += piece.length;
        if (behaviour.stallInsteadOfCut) {
          await new Promise((resolve) => res.once('close', resolve));
          return;
        }
        // Chromium drops bytes it has not handed to the page when the connection breaks: give it time to read them.
        await sleep(400);
        res.destroy();
        return;
      }
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      entry.sent += piece.length;
      if (behaviour.bytesPerSecond) await sleep((piece.length / behaviour.bytesPerSecond) * 1000);
    }
    res.end();
  }
}
