import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { commitOf, startHub } from '../support/hub-server';
import { complete } from './support/chat';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const REPO = 'test-org/tiny-qwen2';
// Read whatever dtype or backend the engine tries, so a refusal cannot be routed around.
const TOKENIZER = 'tokenizer.json';
const HINDI = [{ role: 'user', content: 'नमस्ते! Answer briefly.' }];
const body = { messages: HINDI, temperature: 0, max_tokens: 4 };

async function filesOf(dir: string, under = ''): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, await filesOf(dir, path));
    else if (entry.name !== 'fixture.json') out[path] = new Uint8Array(await readFile(join(dir, path)));
  }
  return out;
}

let hub: Awaited<ReturnType<typeof startHub>>;
let files: Record<string, Uint8Array>;

test.beforeAll(async () => {
  files = await filesOf((await ensureDecoderFixture('tiny-qwen2', tinyQwen2)).dir);
  hub = await startHub({ [REPO]: files });
});
test.afterAll(() => hub.close());
test.afterEach(() => {
  hub.requests.length = 0;
  hub.options.headers = true;
  for (const name of Object.keys(files)) hub.tamper(REPO, name, undefined);
});

/** The page's console warnings from Vaani. */
function warnings(page: Page) {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('Vaani:')) seen.push(message.text());
  });
  return seen;
}

/** What the weight store and Cache Storage hold of one URL: its manifest, its chunks, its cached responses. */
function storedOf(page: Page, url: string) {
  return page.evaluate(async (url) => {
    const open = (name: string) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const allKeys = async (name: string, store: string) => {
      const db = await open(name);
      if (!db.objectStoreNames.contains(store)) return [];
      return new Promise<IDBValidKey[]>((resolve) => {
        const request = db.transaction(store).objectStore(store).getAllKeys();
        request.onsuccess = () => resolve(request.result);
      });
    };
    const chunks = (await allKeys('vaani-weights', 'chunks')).filter((key) => (key as string[])[0] === url).length;
    const entries = (await allKeys('vaani-weights-index', 'entries')) as string[][];
    const manifest = entries.some((key) => key[0] === 'manifest' && key[1] === url);
    let responses = 0;
    for (const name of await caches.keys()) responses += (await (await caches.open(name)).keys()).length;
    return { chunks, manifest, responses };
  }, url);
}

const source = (revision: string) => ({ repo: REPO, host: hub.url, revision });
const fileUrl = (revision: string, file: string) => `${hub.url}/${REPO}/resolve/${revision}/${file}`;

test('a pinned revision is in every file URL, with no warning; a branch warns once per source', async ({ page }) => {
  await openHarness(page, PAGE);
  const warned = warnings(page);
  const commit = commitOf(REPO);
  const [answer] = await complete(page, source(commit), [body]);
  expect(answer!.status, JSON.stringify(answer!.json)).toBe(200);
  const fetched = hub.requests.filter((r) => r.path.includes('/resolve/'));
  expect(fetched.length).toBeGreaterThanOrEqual(3);
  for (const request of fetched) expect(request.path).toContain(`/${REPO}/resolve/${commit}/`);
  expect(warned).toEqual([]);

  const answers = await complete(page, source('main'), [body, body]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  await complete(page, source('main'), [body]);
  expect(warned).toHaveLength(1);
  expect(warned[0]).toContain(
    `chat-v2 loads ${REPO} from ${hub.url}/${REPO}/resolve/main/, a branch ('main'), not a commit`,
  );
  expect(warned[0]).toContain('trust-on-first-use');
});

test("a file with the right size and the wrong bytes is refused by the hub's X-Linked-Etag; nothing of it is cached; the good file loads next", async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const commit = commitOf(REPO);
  const wrong = files[TOKENIZER]!.slice();
  wrong[wrong.length - 100]! ^= 0xff;
  hub.tamper(REPO, TOKENIZER, wrong);
  const [refused] = await complete(page, source(commit), [body]);
  expect(refused!.status).toBe(503);
  expect(refused!.json.error!.message).toMatch(
    new RegExp(
      `${TOKENIZER} from .* has the wrong SHA-256: got [0-9a-f]{64}, expected [0-9a-f]{64} \\(the hub's X-Linked-Size / X-Linked-Etag\\)\\. It was not cached\\.`,
    ),
  );
  expect(await storedOf(page, fileUrl(commit, TOKENIZER))).toEqual({ chunks: 0, manifest: false, responses: 0 });

  hub.tamper(REPO, TOKENIZER, undefined);
  const [good] = await complete(page, source(commit), [body]);
  expect(good!.status, JSON.stringify(good!.json)).toBe(200);
  expect((await storedOf(page, fileUrl(commit, TOKENIZER))).manifest).toBe(true);
});

test("a file of the wrong size is refused by the hub's X-Linked-Size before it is read; nothing is cached; the good file loads next", async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const commit = commitOf(REPO);
  const shorter = files[TOKENIZER]!.slice(0, files[TOKENIZER]!.byteLength - 4096);
  hub.tamper(REPO, TOKENIZER, shorter);
  const [refused] = await complete(page, source(commit), [body]);
  expect(refused!.status).toBe(503);
  expect(refused!.json.error!.message).toContain(
    `has the wrong size: got ${shorter.byteLength} bytes, expected ${files[TOKENIZER]!.byteLength} (the hub's X-Linked-Size / X-Linked-Etag)`,
  );
  expect(await storedOf(page, fileUrl(commit, TOKENIZER))).toEqual({ chunks: 0, manifest: false, responses: 0 });

  hub.tamper(REPO, TOKENIZER, undefined);
  const [good] = await complete(page, source(commit), [body]);
  expect(good!.status, JSON.stringify(good!.json)).toBe(200);
});

test('without hub headers, the first download is recorded (trust-on-first-use) and a changed file is refused on the next download', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  hub.options.headers = false;
  const [first] = await complete(page, source('main'), [body]);
  expect(first!.status, JSON.stringify(first!.json)).toBe(200);
  const config = fileUrl('main', 'config.json');
  const recorded = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani({ backend: 'wasm' });
    const deleted = await ai.models.delete('chat-v2');
    ai.dispose();
    return deleted;
  });
  expect(recorded).toBe(true);
  expect(await storedOf(page, config)).toEqual({ chunks: 0, manifest: false, responses: 0 });

  // Upstream changes config.json at the same branch.
  const changed = JSON.stringify({ ...JSON.parse(new TextDecoder().decode(files['config.json'])), vaani_test: 1 });
  hub.tamper(REPO, 'config.json', new TextEncoder().encode(changed));
  const [refused] = await complete(page, source('main'), [body]);
  expect(refused!.status).toBe(503);
  const message = refused!.json.error!.message;
  expect(message).toMatch(/config\.json from .* has the wrong (size|SHA-256)/);
  expect(message).toContain('recorded when it was first downloaded (trust-on-first-use)');
  expect(message).toContain('changed since this browser first downloaded it');
  expect(await storedOf(page, config)).toEqual({ chunks: 0, manifest: false, responses: 0 });

  hub.tamper(REPO, 'config.json', undefined);
  const [again] = await complete(page, source('main'), [body]);
  expect(again!.status, JSON.stringify(again!.json)).toBe(200);
});
