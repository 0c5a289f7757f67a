import type { PageReply, PageToWorker, WorkerReply, WorkerToPage } from '../../protocol/sw';
import { hold } from '../share/locks';

/** What `serveServiceWorker` needs of a Vaani: its `fetch` answers every request the worker forwards. */
export interface ServedVaani {
  readonly baseURL: string;
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

export interface ServiceWorkerOptions {
  /**
   * The worker script (`vaani/sw`, copied to the site, e.g. `/vaani-sw.js`) to register. Without it
   * the page serves the worker already registered for it (`navigator.serviceWorker.ready`).
   */
  url?: string | URL;
  /** The registration's scope. Default: the script's folder. */
  scope?: string;
  /** 'module' for a script with imports (a dev server's); the built `vaani/sw` runs as either. Default 'classic'. */
  type?: WorkerType;
  /** Keep the scope's scripts, workers, WASM and pages for a visit without network. Default false. */
  offline?: boolean;
  /** With no page serving: 'error' answers 503 `no_page` (the default); 'network' sends the request on. */
  fallback?: 'error' | 'network';
}

export interface ServedServiceWorker {
  readonly registration: ServiceWorkerRegistration;
  /** This page stops answering (the worker asks another page, or answers 503). */
  stop(): void;
  /** Stops and unregisters the worker: its scope's fetches go to the network again. */
  unregister(): Promise<boolean>;
}

let current: { stop(): void } | undefined;

/**
 * Registers the Vaani Service Worker (with `url`) and answers the requests it forwards with
 * `ai.fetch`: `/v1` fetches of every page and worker in its scope, including media elements'
 * GETs and libraries that kept their own `fetch`. One Vaani per page serves: a later call
 * replaces the earlier one.
 */
export async function serveServiceWorker(
  ai: ServedVaani,
  options: ServiceWorkerOptions = {},
): Promise<ServedServiceWorker> {
  const container = navigator.serviceWorker;
  if (!container) throw new Error('Service Workers are not available here (they need a secure context).');
  const registration = options.url
    ? await container.register(scriptURL(ai, options), { scope: options.scope, type: options.type })
    : await container.ready;
  const worker = await activeWorker(registration);
  current?.stop();

  const lock = `vaani:sw-page:${crypto.randomUUID()}`;
  const release = hold(lock);
  // Held before the worker hears of this page: the worker takes this lock to learn the page is gone,
  // so a request accepted while the page's own request for it was still pending read as a closed page.
  await release;
  const running = new Set<AbortController>();
  const post = (message: PageToWorker) => (registration.active ?? worker).postMessage(message);
  const onMessage = ({ data, ports }: MessageEvent<WorkerToPage>) => {
    if (data?.vaani === 'who') post({ vaani: 'serve', base: ai.baseURL });
    else if (data?.vaani === 'request' && ports[0]) void answer(ai, data, ports[0], lock, running);
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  const onChange = () => post({ vaani: 'serve', base: ai.baseURL });
  container.addEventListener('controllerchange', onChange);
  post({ vaani: 'serve', base: ai.baseURL });
  if (options.offline) post({ vaani: 'precache', urls: loaded() });

  const served = {
    stop() {
      if (current !== served) return;
      current = undefined;
      container.removeEventListener('message', onMessage);
      container.removeEventListener('controllerchange', onChange);
      for (const controller of running) controller.abort();
      post({ vaani: 'withdraw' });
      void release.then((free) => free());
    },
  };
  current = served;
  return {
    registration,
    stop: served.stop,
    async unregister() {
      served.stop();
      return registration.unregister();
    },
  };
}

/** The script's URL with the settings the worker reads from it. */
function scriptURL(ai: ServedVaani, options: ServiceWorkerOptions): string {
  const url = new URL(options.url!, location.href);
  url.searchParams.set('base', new URL(ai.baseURL).pathname);
  if (options.offline) url.searchParams.set('offline', '1');
  if (options.fallback === 'network') url.searchParams.set('fallback', 'network');
  return url.href;
}

function activeWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  if (registration.active) return Promise.resolve(registration.active);
  const pending = (registration.installing ?? registration.waiting)!;
  return new Promise((resolve, reject) => {
    pending.addEventListener('statechange', () => {
      if (pending.state === 'activated') resolve(pending);
      else if (pending.state === 'redundant') reject(new Error('The Vaani Service Worker failed to install.'));
    });
  });
}

/** This page and the scripts, styles and WASM it loaded before the worker controlled it. */
function loaded(): string[] {
  const resources = performance
    .getEntriesByType('resource')
    .filter(
      (entry) =>
        entry.name.startsWith(location.origin) && /(\.(m?js|css|wasm)|\.wasm[\w.-]*\.gz)(\?|$)/.test(entry.name),
    )
    .map((entry) => entry.name);
  return [location.href.replace(/#.*$/, ''), ...resources];
}

/** Answers one forwarded request with `ai.fetch`; an abort from the worker aborts it. */
async function answer(
  ai: ServedVaani,
  request: Extract<WorkerToPage, { vaani: 'request' }>,
  port: MessagePort,
  lock: string,
  running: Set<AbortController>,
): Promise<void> {
  const reply = (message: PageReply, transfer: Transferable[] = []) => port.postMessage(message, transfer);
  if (!request.url.startsWith(ai.baseURL)) return port.close(); // not this Vaani's: the worker asks another page
  reply({ type: 'accepted', lock });
  const controller = new AbortController();
  running.add(controller);
  port.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
    if (data.type === 'abort') controller.abort();
  };
  try {
    const response = await ai.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    const done = () => running.delete(controller);
    const body = response.body && untilCancelled(response.body, controller, done);
    reply(
      {
        type: 'response',
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body,
      },
      body ? [body] : [],
    );
    if (!body) done();
  } catch (error) {
    running.delete(controller);
    reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

/** `body`, read as the worker pulls; the worker cancelling it aborts the request. */
function untilCancelled(
  body: ReadableStream<Uint8Array>,
  controller: AbortController,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(stream) {
        const read = await reader.read().catch((error: unknown) => {
          done();
          throw error;
        });
        if (!read.done) return stream.enqueue(read.value);
        done();
        stream.close();
      },
      cancel(reason) {
        done();
        controller.abort(reason);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
