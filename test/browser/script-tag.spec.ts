import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { serveFolders, type StaticServer } from './support/consumer-server';
import { MODELS } from '../../src/catalogue/families';

/**
 * The built library (`npm run build` → dist/) used the old-fashioned way: a page whose only script
 * is `<script src=".../vaani.iife.js">`, served as plain files.
 */
const root = process.cwd();
const dist = join(root, 'dist');
let server: StaticServer;

test.beforeAll(async () => {
  if (!existsSync(join(dist, 'vaani.iife.js')))
    throw new Error('dist/vaani.iife.js is missing: run `npm run build` first.');
  server = await serveFolders({ '/': root, '/shared': join(root, '../shared') });
});

test.afterAll(async () => {
  await server?.close();
});

test('a page with only <script src="vaani.iife.js"> answers /v1 with a real model in a worker', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(`${server.origin}/test/browser/pages/script-tag.html`);
  const result = await page.evaluate(async () => {
    const { createVaani } = (window as unknown as { Vaani: typeof import('../../src/index') }).Vaani;
    const ai = createVaani({
      backend: 'wasm',
      models: { 'chat-v2': { baseURL: '/shared/fixtures/tiny-random-llama-fp16-genai/' } },
    });
    ai.install();
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    const models = await (await fetch('/v1/models', { headers })).json();
    const response = await fetch('/v1/chat/completions', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'chat-v2',
        messages: [{ role: 'user', content: 'Hello' }],
        max_tokens: 8,
        temperature: 0,
      }),
    });
    const body = await response.json();
    ai.dispose();
    return {
      isolated: crossOriginIsolated,
      status: response.status,
      backend: response.headers.get('x-vaani-backend'),
      body,
      models: models.data.length,
    };
  });
  expect(errors).toEqual([]);
  expect(result.isolated).toBe(true);
  expect(result.models).toBe(MODELS.length); // every catalogue model, embed-v1 included
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  expect(result.backend).toBe('wasm');
  expect(result.body.usage.completion_tokens).toBeGreaterThan(0);
  expect(result.body.choices[0].message.content.length).toBeGreaterThan(0);
  // The worker and onnxruntime-web's gzipped .wasm came from beside the script, as files.
  expect(fetched.some((path) => /^\/dist\/assets\/chat\.worker-[\w-]+\.js$/.test(path))).toBe(true);
  expect(fetched.filter((path) => /\/ort-wasm-simd-threaded[\w.-]*$/.test(path))).toEqual([
    expect.stringMatching(/^\/dist\/assets\/ort-wasm-simd-threaded[\w.-]*\.gz$/),
  ]);
});

test("onnxruntime-web's .wasm that cannot be fetched is a clear 503; the next request fetches it again", async ({
  page,
}) => {
  let refused = 0;
  await page.route(/\/ort-wasm-simd-threaded[\w.-]*\.gz$/, (route) =>
    refused++ === 0 ? route.fulfill({ status: 404, body: 'Not found' }) : route.continue(),
  );
  await page.goto(`${server.origin}/test/browser/pages/script-tag.html`);
  const { first, second } = await page.evaluate(async () => {
    const { createVaani } = (window as unknown as { Vaani: typeof import('../../src/index') }).Vaani;
    const ai = createVaani({
      backend: 'wasm',
      models: { 'chat-v2': { baseURL: '/shared/fixtures/tiny-random-llama-fp16-genai/' } },
    });
    const ask = async () => {
      const response = await ai.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 }),
      });
      return { status: response.status, body: await response.json() };
    };
    const answers = { first: await ask(), second: await ask() };
    ai.dispose();
    return answers;
  });
  expect(refused).toBe(2);
  expect(first.status).toBe(503);
  expect(first.body.error.message).toMatch(
    /onnxruntime-web's WASM \(.*ort-wasm-simd-threaded.*\.gz\) could not be loaded: HTTP 404/,
  );
  expect(second.status, JSON.stringify(second.body)).toBe(200);
});

/** Strings only the GPL engines' own code contains (eSpeak-NG's C API, Rubber Band's emscripten glue). */
const GPL_CODE = /espeak_VOICE|_rubberband_new\s*=|rubberband\.wasm/;

test('dist/ holds the two onnxruntime-web .wasm builds gzipped, as files; GPL plug-in code is never in the entries, only in chunks loaded on use', () => {
  const assets = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  const ortWasm = readdirSync(join(dist, 'assets')).filter((file) => file.startsWith('ort-wasm-simd'));
  expect(ortWasm).toEqual([
    expect.stringMatching(/^ort-wasm-simd-threaded\.asyncify\.wasm-[\w-]+\.gz$/),
    expect.stringMatching(/^ort-wasm-simd-threaded\.wasm-[\w-]+\.gz$/),
  ]);
  for (const entry of ['vaani.js', 'vaani.iife.js']) {
    const code = readFileSync(join(dist, entry), 'utf8');
    expect(code.length).toBeLessThan(1_000_000);
    expect(code).not.toMatch(GPL_CODE);
    expect(code).not.toContain('data:application/wasm');
  }
  const code = Object.fromEntries(assets.map((file) => [file, readFileSync(join(dist, 'assets', file), 'utf8')]));
  for (const gpl of assets.filter((file) => GPL_CODE.test(code[file]!))) {
    const staticImport = new RegExp(`(from|import)\\s*["'\`]\\./${gpl.replace(/[.]/g, '\\.')}["'\`]`);
    expect(
      assets.filter((file) => staticImport.test(code[file]!)),
      `${gpl} must only be loaded by dynamic import`,
    ).toEqual([]);
  }
});

test("the same script tag registers the voice widgets; <vaani-chat> answers through the page's first Vaani", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.origin}/test/browser/pages/widgets-script-tag.html`);
  const defined = await page.evaluate(() =>
    ['vaani-dictate', 'vaani-speak', 'vaani-chat', 'vaani-voice-assistant'].map(
      (name) => !!customElements.get(name) && document.querySelector(name)!.shadowRoot !== null,
    ),
  );
  expect(defined).toEqual([true, true, true, true]);
  const answer = await page.evaluate(async () => {
    const { createVaani } = (window as unknown as { Vaani: typeof import('../../src/iife') }).Vaani;
    createVaani({
      backend: 'wasm',
      models: { 'chat-v2': { baseURL: '/shared/fixtures/tiny-random-llama-fp16-genai/' } },
    });
    const chat = document.querySelector('vaani-chat')!;
    return chat.send('Hello');
  });
  expect(answer.stopped).toBe(false);
  expect(answer.backend).toBe('wasm');
  expect(answer.completionTokens).toBe(8);
  await expect(page.locator('vaani-chat .message.assistant')).not.toBeEmpty();
  expect(errors).toEqual([]);
});
