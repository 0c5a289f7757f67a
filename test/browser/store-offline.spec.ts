import { readdir, readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { FileServer } from './support/file-server';
import { openStorePage } from './store-fixture';
import { SHARED_DIR } from '../support/shared';

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const server = new FileServer();

test.beforeAll(async () => {
  for (const name of await readdir(UPSTREAM))
    server.put(`/llama/${name}`, new Uint8Array(await readFile(`${UPSTREAM}${name}`)));
  await server.start();
});
test.afterAll(() => server.stop());

/** A greedy chat completion through a fresh service (so a fresh engine worker that must load the model again). */
function complete(page: Page, base: string) {
  return page.evaluate(async (base) => {
    window.ai?.dispose();
    window.ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    window.events = [];
    window.ai.models.addEventListener('progress', (event) =>
      window.events.push({ type: 'progress', detail: (event as CustomEvent).detail }),
    );
    const response = await window.ai.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'chat-v2',
        messages: [{ role: 'user', content: 'नमस्ते' }],
        temperature: 0,
        max_tokens: 12,
      }),
    });
    return { status: response.status, body: await response.json() };
  }, base);
}

/**
 * The model's host goes away (the page's own scripts and ORT's wasm stay reachable: under the vite dev
 * server they are never cached, so a Playwright offline context would stop the engine worker itself
 * from starting; store-manage.spec.ts covers the store under `context.setOffline`).
 */
test('a chat model cached by its first request answers again with its file server gone', async ({ page }) => {
  await openStorePage(page);
  const base = `${server.url}llama/`;
  const online = await complete(page, base);
  expect(online.status).toBe(200);
  const text = online.body.choices[0].message.content;
  expect(text.length).toBeGreaterThan(0);
  const progress = await page.evaluate(() => window.events.map((e) => e.detail as { model: string; fraction: number }));
  expect(progress.some((p) => p.model === 'chat-v2' && p.fraction === 1)).toBe(true);
  expect((await page.evaluate(() => window.ai.models.cached())).map((m) => m.id)).toEqual(['chat-v2']);

  const requests = server.log.length;
  await server.stop();
  const offline = await complete(page, base);
  expect(offline.status).toBe(200);
  expect(offline.body.choices[0].message.content).toBe(text);
  expect(server.log.length).toBe(requests);
});

test('ai.models.load fetches the files the chat engine lists; the first request then downloads nothing', async ({
  page,
}) => {
  const preload = new FileServer();
  for (const name of await readdir(UPSTREAM))
    preload.put(`/llama/${name}`, new Uint8Array(await readFile(`${UPSTREAM}${name}`)));
  await preload.start();
  await openStorePage(page);
  const base = `${preload.url}llama/`;
  const status = await page.evaluate(async (base) => {
    window.ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    return window.ai.models.load('chat-v2');
  }, base);
  expect(status.state).toBe('cached');
  expect(status.files.map((file) => file.file)).toEqual(
    expect.arrayContaining(['model.onnx', 'model.onnx.data', 'tokenizer.json']),
  );
  // The folder's vaani-manifest.json is looked up on each load (here a 404: this folder has none); no model file is fetched again.
  const fileGets = () =>
    preload.log.filter((entry) => entry.method === 'GET' && !entry.path.endsWith('/vaani-manifest.json')).length;
  const gets = fileGets();
  const answer = await complete(page, base);
  expect(answer.status).toBe(200);
  expect(fileGets()).toBe(gets);
  await preload.stop();
});

test('ai.models.import: a model folder picked from disk answers with its host unreachable; a wrong file is refused', async ({
  page,
}) => {
  await openStorePage(page);
  // The same files served, for the text they answer with (the tests above stop the shared server).
  const served = new FileServer();
  for (const name of await readdir(UPSTREAM))
    served.put(`/llama/${name}`, new Uint8Array(await readFile(`${UPSTREAM}${name}`)));
  await served.start();
  const reference = await complete(page, `${served.url}llama/`);
  await served.stop();
  expect(reference.status).toBe(200);

  // No server holds these files: they exist only as what the folder picker gives.
  const nowhere = 'http://127.0.0.1:9/imported/llama/';
  await page.evaluate(() => {
    const input = Object.assign(document.createElement('input'), { type: 'file', id: 'folder' });
    input.webkitdirectory = true;
    document.body.append(input);
  });
  await page.setInputFiles('#folder', UPSTREAM);
  const imported = await page.evaluate(async (base) => {
    window.ai?.dispose();
    window.ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    const files = document.querySelector<HTMLInputElement>('#folder')!.files!;
    const fractions: number[] = [];
    const model = await window.ai.models.import('chat-v2', files, {
      onProgress: (p) => fractions.push(p.fraction ?? 0),
    });
    return { model, names: [...files].map((file) => file.webkitRelativePath), last: fractions.at(-1) };
  }, nowhere);
  expect(imported.names.length).toBe((await readdir(UPSTREAM)).length);
  expect(imported.model.files.sort()).toEqual((await readdir(UPSTREAM)).sort());
  expect(imported.last).toBe(1);
  const answer = await complete(page, nowhere);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.choices[0].message.content).toBe(reference.body.choices[0].message.content);

  // A manifest's SHA-256 is checked, and an HTML page is not a model.
  const refused = await page.evaluate(async () => {
    const manifest = JSON.stringify({ vaani: 1, files: [{ name: 'tokenizer.json', size: 2, sha256: '0'.repeat(64) }] });
    const attempt = (files: { path: string; file: Blob }[]) =>
      window.ai.models.import('embed-v1', files).then(
        () => 'imported',
        (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
      );
    return [
      await attempt([
        { path: 'vaani-manifest.json', file: new Blob([manifest]) },
        { path: 'tokenizer.json', file: new Blob(['{}']) },
      ]),
      await attempt([{ path: 'onnx/model.onnx', file: new Blob(['<!doctype html><title>Not found</title>']) }]),
    ];
  });
  expect(refused[0]).toMatch(/^bad_checksum: /);
  expect(refused[1]).toMatch(/^not_a_file: /);
});
