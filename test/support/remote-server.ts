import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/**
 * A loopback OpenAI-style server for remote-fallback tests. By default it answers chat completions
 * (JSON or SSE, echoing the last user message word by word); `script` can override any request.
 */
export async function startRemote(script?: (seen: Seen, res: ServerResponse, count: number) => boolean) {
  const requests: Seen[] = [];
  const streams = { completed: 0, cut: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
      res.setHeader('access-control-allow-methods', '*');
      res.setHeader('access-control-expose-headers', '*');
      res.setHeader('cross-origin-resource-policy', 'cross-origin');
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      const seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(seen);
      if (script?.(seen, res, requests.length)) return;
      answer(seen, res, streams);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** SSE answers that ran to [DONE], and ones whose client went away first. */
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(seen: Seen, res: ServerResponse, streams: { completed: number; cut: number }) {
  if (!new URL(seen.url, 'http://x').pathname.endsWith('/chat/completions')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ remote: true, path: seen.url }));
    return;
  }
  const body = JSON.parse(seen.body);
  const words: string[] = String(body.messages.at(-1).content).split(' ');
  const base = { id: 'chatcmpl-remote', created: 1, model: body.model };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: `remote: ${words.join(' ')}` }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: words.length, completion_tokens: words.length + 1, total_tokens: 2 * words.length + 1 },
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const parts = ['remote:', ...words];
  let i = 0;
  const timer = setInterval(
    () => {
      if (res.destroyed) {
        streams.cut++;
        return clearInterval(timer);
      }
      if (i < parts.length) res.write(chunk({ content: (i ? ' ' : '') + parts[i++] }, null));
      else {
        clearInterval(timer);
        streams.completed++;
        res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
      }
    },
    Number(body.metadata?.delay ?? 10),
  );
}
