/// <reference lib="webworker" />
import { speechBodyFromQuery, type PageReply, type PageToWorker, type WorkerToPage } from '../../protocol/sw';

/**
 * `vaani/sw`: a Service Worker that answers `<base>/*` (default `/v1`) for every fetch of its scope
 * by handing the request to a page that serves (`serveServiceWorker(ai)`), which answers it with
 * its own `ai.fetch`; it runs no engine. Settings come from its URL's query: `base`, `offline`
 * (keep the scope's scripts, workers, WASM and pages for a visit without network) and
 * `fallback=network` (no page serving: the request goes to the network instead of a 503).
 */
declare const self: ServiceWorkerGlobalScope;

const settings = new URL(self.location.href).searchParams;
const base = new URL(settings.get('base') ?? '/v1', self.location.href).pathname.replace(/\/+$/, '');
const offline = settings.has('offline') && settings.get('offline') !== '0';
const fallback = settings.get('fallback');
const CACHE = `vaani-sw:${self.registration.scope}`;
/** How long a page has to take a request before the next one is asked. */
const ACCEPT_MS = 1000;
/** How long a fresh worker waits for pages to say they serve. */
const WHO_MS = 300;

/** The pages that said they serve, by client id (lost when the browser stops this worker: `who` asks again). */
const servers = new Set<string>();
let asked = false;

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as PageToWorker;
  const client = event.source instanceof Client ? event.source : undefined;
  if (!client || typeof data?.vaani !== 'string') return;
  if (data.vaani === 'serve' && data.base.replace(/\/+$/, '').endsWith(base)) servers.add(client.id);
  else if (data.vaani === 'withdraw') servers.delete(client.id);
  else if (data.vaani === 'precache' && offline) event.waitUntil(precache(data.urls));
});

const answers = (url: URL) =>
  url.origin === self.location.origin && (url.pathname === base || url.pathname.startsWith(`${base}/`));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (answers(url)) event.respondWith(forward(event.request, event.clientId || event.resultingClientId));
  else if (offline && keeps(event.request, url)) event.respondWith(networkThenCopy(event.request));
});

/** Hands `request` to a serving page, the requesting one first; no page → 503 (or the network). */
async function forward(request: Request, requester: string): Promise<Response> {
  const original = fallback === 'network' ? request.clone() : undefined;
  const message = await toMessage(request);
  for (const client of await serving(requester)) {
    const answer = await ask(client, message, request.signal);
    if (answer) return answer;
    servers.delete(client.id);
  }
  if (original) return fetch(original);
  return noPage();
}

/** The request as the page gets it: the GET form of `/audio/speech` becomes its POST. */
async function toMessage(request: Request): Promise<Extract<WorkerToPage, { vaani: 'request' }>> {
  const url = new URL(request.url);
  const headers = [...request.headers];
  if (request.method === 'GET' && url.pathname === `${base}/audio/speech` && url.search) {
    const body = new TextEncoder().encode(JSON.stringify(speechBodyFromQuery(url.searchParams))).buffer;
    headers.push(['content-type', 'application/json']);
    return { vaani: 'request', url: `${url.origin}${url.pathname}`, method: 'POST', headers, body };
  }
  const body = ['GET', 'HEAD'].includes(request.method) ? null : await request.arrayBuffer();
  return { vaani: 'request', url: request.url, method: request.method, headers, body };
}

/** The window clients that serve, the requester first; a fresh worker asks every window first. */
async function serving(requester: string): Promise<Client[]> {
  if (!asked || servers.size === 0) {
    asked = true;
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of windows) client.postMessage({ vaani: 'who' } satisfies WorkerToPage);
    if (windows.length) await new Promise((resolve) => setTimeout(resolve, WHO_MS));
  }
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const served = windows.filter((client) => servers.has(client.id));
  return [...served.filter((client) => client.id === requester), ...served.filter((client) => client.id !== requester)];
}

/**
 * Posts the request to `client`: undefined when it does not take it within ACCEPT_MS. The body
 * streams from the page as a transferred ReadableStream; the request's abort, or the reader
 * cancelling the body, aborts the page's fetch; the page closing ends the answer with an error.
 */
function ask(client: Client, message: WorkerToPage, signal: AbortSignal): Promise<Response | undefined> {
  const channel = new MessageChannel();
  const port = channel.port1;
  const abortPage = () => port.postMessage({ type: 'abort' });
  const watching = new AbortController();
  const stop = () => {
    watching.abort();
    signal.removeEventListener('abort', abortPage);
  };
  return new Promise((resolve) => {
    let gone = () => {
      stop();
      resolve(pageGone());
    };
    const timer = setTimeout(() => {
      port.close();
      resolve(undefined);
    }, ACCEPT_MS);
    signal.addEventListener('abort', abortPage, { once: true });
    port.onmessage = ({ data }: MessageEvent<PageReply>) => {
      if (data.type === 'accepted') {
        clearTimeout(timer);
        // Taking the page's lock succeeds only once the page is gone.
        navigator.locks.request(data.lock, { signal: watching.signal }, () => gone()).catch(() => {});
      } else if (data.type === 'error') {
        stop();
        resolve(failed(data.message));
      } else {
        const body = data.body && passOn(data.body, abortPage, stop);
        if (body) gone = () => body.fail(new Error('The page serving Vaani closed during this answer.'));
        else stop();
        resolve(
          new Response(body?.stream, { status: data.status, statusText: data.statusText, headers: data.headers }),
        );
      }
    };
    const transfer: Transferable[] = [channel.port2];
    if (message.vaani === 'request' && message.body) transfer.push(message.body);
    client.postMessage(message, transfer);
  });
}

/** The page's body, passed on as read: the reader cancelling tells the page; `fail` errors it. */
function passOn(body: ReadableStream<Uint8Array>, cancelled: () => void, ended: () => void) {
  const reader = body.getReader();
  let fail!: (error: Error) => void;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        fail = (error) => {
          ended();
          controller.error(error);
          void reader.cancel(error).catch(() => {});
        };
      },
      async pull(controller) {
        const read = await reader.read().catch((error: unknown) => {
          ended();
          throw error;
        });
        if (!read.done) return controller.enqueue(read.value);
        ended();
        controller.close();
      },
      cancel(reason) {
        cancelled();
        ended();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, fail };
}

const errorResponse = (status: number, message: string, code: string, type = 'server_error') =>
  new Response(JSON.stringify({ error: { message, type, param: null, code } }), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-should-retry': 'false',
      'x-request-id': `req_${crypto.randomUUID().replaceAll('-', '')}`,
    },
  });

const noPage = () =>
  errorResponse(
    503,
    'No page is serving Vaani: open a page of this site that runs createVaani() with serveServiceWorker(ai).',
    'no_page',
  );

const pageGone = () =>
  errorResponse(503, 'The page serving Vaani closed before it answered this request.', 'page_closed');

const failed = (message: string) => errorResponse(500, message, 'service_worker_error');

/** What the offline copy keeps: same-origin pages, scripts, workers, styles and WASM; never `/v1`. */
function keeps(request: Request, url: URL): boolean {
  if (request.method !== 'GET' || url.origin !== self.location.origin || request.headers.has('range')) return false;
  return (
    ['document', 'script', 'worker', 'sharedworker', 'style'].includes(request.destination) ||
    /\.(m?js|wasm)$|\.wasm[\w.-]*\.gz$/.test(url.pathname)
  );
}

/** Network first (a new deploy is seen at once); the kept copy when the network fails. */
async function networkThenCopy(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === 'basic') {
      const copy = response.clone();
      void caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    const copy = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}

/** Keeps the URLs a page loaded before this worker controlled it. */
async function precache(urls: string[]): Promise<void> {
  const cache = await caches.open(CACHE);
  await Promise.all(
    urls.map(async (href) => {
      const url = new URL(href, self.location.href);
      if (url.origin !== self.location.origin || answers(url)) return;
      const response = await fetch(url, { cache: 'no-cache' }).catch(() => undefined);
      if (response?.status === 200) await cache.put(url, response);
    }),
  );
}
