import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext } from '@playwright/test';
import { SHARED_DIR } from '../support/shared';
import { openStorePage } from './store-fixture';
import { FileServer } from './support/file-server';

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const server = new FileServer();

/**
 * A browser whose user blocks all cookies and site data: Chromium then refuses IndexedDB in pages
 * and workers ("The user denied permission to access the database"), as private modes and
 * sandboxed frames may.
 */
async function browserWithoutSiteData(baseURL: string): Promise<BrowserContext> {
  const profile = test.info().outputPath('profile');
  await mkdir(join(profile, 'Default'), { recursive: true });
  await writeFile(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  return chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', baseURL });
}

test.beforeAll(async () => {
  for (const name of await readdir(UPSTREAM)) {
    const bytes = new Uint8Array(await readFile(`${UPSTREAM}${name}`));
    server.put(`/llama/${name}`, bytes);
    server.put(
      `/broken/${name}`,
      name === 'model.onnx' ? new TextEncoder().encode('{"error": "rate limited"}') : bytes,
    );
  }
  await server.start();
});
test.afterAll(() => server.stop());

test('without IndexedDB, chat still answers: files are fetched and checked every time, and ai.models says why nothing is cached', async ({
  baseURL,
}) => {
  const context = await browserWithoutSiteData(baseURL!);
  const page = context.pages()[0] ?? (await context.newPage());
  await openStorePage(page);
  expect(
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const request = indexedDB.open('probe');
          request.onsuccess = () => resolve('open');
          request.onerror = () => resolve(String(request.error));
        }),
    ),
  ).toMatch(/denied/);
  const result = await page.evaluate(async (base) => {
    const ask = async (ai: ReturnType<typeof window.Vaani.createVaani>) => {
      const response = await ai.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'chat-v2',
          messages: [{ role: 'user', content: 'नमस्ते' }],
          temperature: 0,
          max_tokens: 8,
        }),
      });
      const json = await response.json();
      return {
        status: response.status,
        text: json.choices?.[0]?.message.content as string | undefined,
        error: json.error?.message as string | undefined,
      };
    };
    const models = { 'chat-v2': { baseURL: `${base}llama/` } };
    const first = window.Vaani.createVaani({ backend: 'wasm', models });
    const progress: number[] = [];
    first.models.addEventListener('progress', (event) => progress.push((event as CustomEvent).detail.fraction));
    const one = await ask(first);
    const load = await first.models.load('chat-v2').then(
      () => 'loaded',
      (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
    );
    const cached = await first.models.cached();
    const status = await first.models.status('chat-v2');
    first.dispose();
    const second = window.Vaani.createVaani({ backend: 'wasm', models });
    const two = await ask(second);
    second.dispose();
    const broken = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: `${base}broken/` } } });
    const bad = await ask(broken);
    broken.dispose();
    const fine = window.Vaani.createVaani({ backend: 'wasm', models });
    const after = await ask(fine);
    fine.dispose();
    return { one, two, bad, after, load, cached, status: status.state, progress };
  }, server.url);
  await context.close();

  expect(result.one.status).toBe(200);
  expect(result.one.text!.length).toBeGreaterThan(0);
  expect(result.two).toEqual(result.one);
  expect(result.after).toEqual(result.one);
  expect(result.load).toMatch(/^storage_unavailable: Model chat-v2 cannot be cached: IndexedDB is not available/);
  expect(result.cached).toEqual([]);
  expect(result.status).toBe('absent');
  expect(result.progress.at(-1)).toBe(1);
  expect(server.gets('/llama/model.onnx.data')).toHaveLength(3);
  expect(result.bad.status).toBe(503);
  expect(result.bad.error).toMatch(
    /model\.onnx from http:\/\/.*\/broken\/model\.onnx is not the file: it does not start like an ONNX model/,
  );
});
