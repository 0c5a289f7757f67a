import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { ServedServiceWorker } from '../../src/index';
import { openHarness } from './support/page';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';
const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const SCRIPT = '/dist/vaani-sw.js';
const CHAT = { model: 'chat-v2', messages: [{ role: 'user', content: 'Name a river.' }], temperature: 0 };

type Gate = 'head' | 'end';
interface Tracked {
  url: string;
  aborted: boolean;
}
declare global {
  interface Window {
    /** Every request the page's Vaani answered for the worker. */
    served: Tracked[];
    /**
     * While `head` is closed a request waits before it reaches the Vaani; while `end` is, an
     * answer's body ends only once `openGate('end')` is called.
     */
    gates: Record<Gate, { open: boolean; waiting: (() => void)[] }>;
    openGate(gate: Gate): void;
    sw: ServedServiceWorker;
  }
}

/**
 * Starts a Vaani in `page` and serves the worker (registering it when `register`), through a
 * wrapper that records each request it answers and can hold back the end of an answer's body.
 */
function serve(page: Page, register: boolean, fallback?: 'network'): Promise<void> {
  return page.evaluate(
    async ({ register, fallback, script, upstream, espeak }) => {
      window.served = [];
      window.gates = { head: { open: true, waiting: [] }, end: { open: true, waiting: [] } };
      window.openGate = (name) => {
        window.gates[name].open = true;
        for (const go of window.gates[name].waiting.splice(0)) go();
      };
      const passed = (name: Gate) =>
        window.gates[name].open ? undefined : new Promise<void>((go) => void window.gates[name].waiting.push(go));
      const ai = window.Vaani.createVaani({
        auth: 'optional',
        backend: 'wasm',
        models: { 'chat-v2': { baseURL: upstream }, 'espeak-ng': { baseURL: espeak } },
      });
      const tracked = {
        baseURL: ai.baseURL,
        async fetch(input: RequestInfo | URL, init?: RequestInit) {
          const entry = { url: String(input), aborted: false };
          window.served.push(entry);
          init?.signal?.addEventListener('abort', () => void (entry.aborted = true));
          await passed('head');
          const response = await ai.fetch(input, init);
          const held = new TransformStream<Uint8Array, Uint8Array>({ flush: () => passed('end') });
          return new Response(response.body?.pipeThrough(held), response);
        },
      };
      window.sw = await window.Vaani.serveServiceWorker(
        tracked,
        register ? { url: script, scope: '/', offline: true, ...(fallback && { fallback }) } : {},
      );
      if (!navigator.serviceWorker.controller)
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    },
    { register, fallback, script: SCRIPT, upstream: UPSTREAM, espeak: ESPEAK_BASE },
  );
}

/** A GET of `path` with the page's own `fetch`, as status, JSON (or null) and the page-side requests. */
const get = (page: Page, path: string) =>
  page.evaluate(async (path) => {
    const response = await fetch(path);
    const text = await response.text();
    let json: { error?: { code: string; type: string } } | null = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, json, retry: response.headers.get('x-should-retry') };
  }, path);

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL });
  page = await context.newPage();
  await openHarness(page);
  await serve(page, true);
});
test.afterAll(() => context.close());

test('a library holding its own fetch gets /v1 answers through the worker', async () => {
  const result = await page.evaluate(async () => {
    // The openai SDK with no `fetch` option keeps the page's own.
    const client = new window.OpenAI({
      baseURL: `${location.origin}/v1`,
      apiKey: 'k',
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    const models = await client.models.list();
    return { ids: models.data.map((model) => model.id), served: window.served.map((entry) => entry.url) };
  });
  expect(result.ids).toContain('chat-v2');
  expect(result.served).toEqual([`${new URL(page.url()).origin}/v1/models`]);
});

test('an <audio> element plays the GET form of /v1/audio/speech', async () => {
  const result = await page.evaluate(async () => {
    const query = new URLSearchParams({ model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते', speed: '1.2' });
    const audio = new Audio(`/v1/audio/speech?${query}`);
    await new Promise((resolve, reject) => {
      audio.addEventListener('canplaythrough', resolve, { once: true });
      audio.addEventListener('error', () => reject(new Error(`media error ${audio.error?.code}`)), { once: true });
    });
    return audio.duration;
  });
  expect(result).toBeGreaterThan(0.2);
});

test('SSE through the worker arrives incrementally: the first chunk comes before the answer ends', async () => {
  const result = await page.evaluate(async (chat) => {
    window.gates.end.open = false;
    // The page's answer cannot end before the first chunk is read: a worker that buffered it never answers.
    const opened = (async () => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...chat, stream: true, max_tokens: 8 }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      return { type: response.headers.get('content-type'), reader, first: await reader.read() };
    })();
    const early = await Promise.race([opened, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
    window.openGate('end');
    if (!early) return null;
    let rest = '';
    for (let read = await early.reader.read(); !read.done; read = await early.reader.read()) rest += read.value;
    return { type: early.type, first: early.first.value ?? '', rest };
  }, CHAT);
  expect(result, 'no chunk before the answer ended').not.toBeNull();
  expect(result!.type).toContain('text/event-stream');
  expect(result!.first).toMatch(/^data: \{/);
  // The gate holds the body's close, not its events: on a busy machine the first read may carry them all.
  expect((result!.first + result!.rest).trimEnd()).toMatch(/data: \[DONE\]$/);
});

test("an abort in the requesting page aborts the serving page's request, before its head and mid-stream", async () => {
  const aborted = await page.evaluate(async (chat) => {
    const request = (signal: AbortSignal) =>
      fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...chat, stream: true, max_tokens: 8 }),
        signal,
      });
    const abortedSoon = async (entry: Tracked) => {
      for (let i = 0; i < 100 && !entry.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return entry.aborted;
    };
    // Before the head: the request waits in the serving page, its answer stays open.
    window.gates.end.open = false;
    window.gates.head.open = false;
    const early = new AbortController();
    const count = window.served.length;
    const pending = request(early.signal).catch(() => 'aborted');
    while (window.served.length === count) await new Promise((resolve) => setTimeout(resolve, 20));
    early.abort();
    // Chromium does not abort a fetch event's request.signal: the page learns it once its answer starts.
    window.openGate('head');
    const beforeHead = [await pending, await abortedSoon(window.served.at(-1)!)];
    // Mid-stream: after the first chunk, while the answer is held open.
    const late = new AbortController();
    const response = await request(late.signal);
    await response.body!.getReader().read();
    late.abort();
    const midStream = await abortedSoon(window.served.at(-1)!);
    window.openGate('end');
    return { beforeHead, midStream };
  }, CHAT);
  expect(aborted).toEqual({ beforeHead: ['aborted', true], midStream: true });
});

test("a second tab's fetch is answered by the serving tab; with none serving, 503 no_page", async () => {
  const other = await context.newPage();
  await openHarness(other);
  expect(await other.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  const before = await page.evaluate(() => window.served.length);
  const answered = await get(other, '/v1/models');
  expect(answered.status).toBe(200);
  expect(await page.evaluate(() => window.served.length)).toBe(before + 1);

  await page.evaluate(() => window.sw.stop());
  const refused = await get(other, '/v1/models');
  expect(refused.status).toBe(503);
  expect(refused.json?.error).toMatchObject({ type: 'server_error', code: 'no_page' });
  expect(refused.retry).toBe('false');
  await other.close();
});

test('offline, a reload loads the library from the kept copy and answers (chat included)', async () => {
  // The copy of what the page loaded before the worker controlled it is kept.
  await page.waitForFunction(async () => !!(await caches.match(location.href)));
  await context.setOffline(true);
  try {
    const missing = await page.evaluate(() =>
      fetch(`/never-loaded-${Date.now()}.js`).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    expect(missing).toBe('failed');
    await openHarness(page);
    await serve(page, false);
    const answer = await page.evaluate(async (chat) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...chat, max_tokens: 4 }),
      });
      return { status: response.status, json: await response.json() };
    }, CHAT);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.choices[0].message.role).toBe('assistant');
  } finally {
    await context.setOffline(false);
  }
});

test('unregistering stops the interception', async () => {
  expect(await page.evaluate(() => window.sw.unregister())).toBe(true);
  await openHarness(page);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(false);
  const answer = await get(page, '/v1/models');
  expect(answer.status).not.toBe(200);
  expect(answer.json?.error).toBeUndefined();
});

test("the serving page closing: 503 page_closed before the head, an error mid-stream; then fallback 'network'", async ({
  browser,
  baseURL,
}) => {
  const own = await browser.newContext({ baseURL });
  try {
    const asker = await own.newPage();
    await openHarness(asker);
    let server = await own.newPage();
    await openHarness(server);
    await serve(server, true, 'network');
    await asker.reload();
    await asker.waitForFunction(() => !!navigator.serviceWorker.controller);
    const servedCount = () => server.evaluate(() => window.served.length);

    // Before the head: the serving page took the request and closes while it waits.
    await server.evaluate(() => void (window.gates.head.open = false));
    const early = asker.evaluate(async () => {
      const response = await fetch('/v1/models');
      return { status: response.status, json: await response.json() };
    });
    await expect.poll(servedCount).toBe(1);
    await server.close();
    expect(await early).toMatchObject({ status: 503, json: { error: { code: 'page_closed', type: 'server_error' } } });

    // Mid-stream: after the first chunk, while the answer is held open.
    server = await own.newPage();
    await openHarness(server);
    await serve(server, false);
    await server.evaluate(() => void (window.gates.end.open = false));
    await asker.evaluate(async (chat) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...chat, stream: true, max_tokens: 8 }),
      });
      const reader = response.body!.getReader();
      (window as unknown as { reader: typeof reader }).reader = reader;
      await reader.read();
    }, CHAT);
    await server.close();
    const rest = await asker.evaluate(async () => {
      const reader = (window as unknown as { reader: ReadableStreamDefaultReader<Uint8Array> }).reader;
      try {
        while (!(await reader.read()).done);
        return 'ended';
      } catch (error) {
        return `failed: ${error}`;
      }
    });
    expect(rest).toMatch(/^failed: /);

    // No page serves: with fallback 'network' the request goes to the network, as if no worker were there.
    const direct = await asker.request.get('/v1/models');
    const viaWorker = await get(asker, '/v1/models');
    expect(viaWorker.status).toBe(direct.status());
    expect(viaWorker.json?.error).toBeUndefined();
  } finally {
    await own.close();
  }
});
