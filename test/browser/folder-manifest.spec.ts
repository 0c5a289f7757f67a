import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseTarget, planPull } from '../../src/cli/plan';
import { pull } from '../../src/cli/pull';
import { FOLDER_MANIFEST, type FolderManifest } from '../../src/common/weights';
import { ensureDecoderFixture, fixturesRoot } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { startHub } from '../support/hub-server';
import { complete } from './support/chat';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const HINDI = [{ role: 'user', content: 'नमस्ते! Answer briefly.' }];
const quiet = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
const root = join(fixturesRoot, `pulled-${process.pid}`);
const url = (folder: string) => `/test/.fixtures/${relative(fixturesRoot, folder)}/`;

async function filesOf(dir: string, under = ''): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, await filesOf(dir, path));
    else if (entry.name !== 'fixture.json') out[path] = new Uint8Array(await readFile(join(dir, path)));
  }
  return out;
}

let pulled: string;
let manifest: FolderManifest;

test.beforeAll(async () => {
  const fixture = await ensureDecoderFixture('tiny-qwen2', tinyQwen2);
  // The generated export, served by a hub-shaped loopback server, pulled by `vaani pull`'s own code.
  const hub = await startHub({ 'test-org/tiny-qwen2': await filesOf(fixture.dir) });
  try {
    const plan = await planPull(parseTarget('chat-v2=test-org/tiny-qwen2', hub.url));
    manifest = await pull(plan, { to: root, log: quiet });
  } finally {
    await hub.close();
  }
  pulled = join(root, 'chat-v2');
});
test.afterAll(() => rm(root, { recursive: true, force: true }));

/** Every response the page and its workers get, with its method. */
function watch(page: import('@playwright/test').Page) {
  const seen: { method: string; url: string; status: number }[] = [];
  page
    .context()
    .on('response', (response) =>
      seen.push({ method: response.request().method(), url: response.url(), status: response.status() }),
    );
  return seen;
}

test('a pulled folder answers chat reading only its manifest and the files it lists: no probing, no 404', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const seen = watch(page);
  const [answer] = await complete(page, { baseURL: url(pulled) }, [{ messages: HINDI, temperature: 0, max_tokens: 8 }]);
  expect(errors).toEqual([]);
  expect(answer!.status, JSON.stringify(answer!.json)).toBe(200);
  expect(answer!.json.choices[0]!.message.content!.length).toBeGreaterThan(0);
  const folderRequests = seen.filter((r) => r.url.includes(url(pulled)));
  expect(folderRequests.filter((r) => r.status >= 400)).toEqual([]);
  expect(folderRequests.filter((r) => r.method === 'HEAD')).toEqual([]);
  const names = new Set([FOLDER_MANIFEST, ...manifest.files.map((f) => f.name)]);
  for (const request of folderRequests) expect(names).toContain(decodeURI(request.url.split(url(pulled))[1]!));
});

test('ai.models.load lists the manifest files with their sizes, and a file that differs from its SHA-256 is refused', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const listed = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    await ai.models.clear();
    const files: { file: string; total: number | undefined }[] = [];
    await ai.models.load('chat-v2', {
      onProgress: (p) => ((files.length = 0), files.push(...p.files.map((f) => ({ file: f.file, total: f.total })))),
    });
    return files;
  }, url(pulled));
  const required = manifest.files.filter((f) => listed.some((l) => l.file === f.name));
  expect(required.length).toBeGreaterThanOrEqual(3);
  for (const file of required) expect(listed.find((l) => l.file === file.name)!.total).toBe(file.size);

  const tampered = join(root, 'tampered');
  await cp(pulled, tampered, { recursive: true });
  const config = JSON.parse(await readFile(join(tampered, 'tokenizer_config.json'), 'utf8'));
  await writeFile(join(tampered, 'tokenizer_config.json'), JSON.stringify({ ...config, padding_side: 'left' }));
  const [answer] = await complete(page, { baseURL: url(tampered) }, [{ messages: HINDI, max_tokens: 4 }]);
  expect(answer!.status).toBe(503);
  expect(answer!.json.error!.message).toMatch(/tokenizer_config\.json .* has the wrong (size|SHA-256)/);
});

test('a missing file is an error naming the folder, the file, the files the manifest lists and the vaani pull line', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const partial = join(root, 'partial');
  await cp(pulled, partial, { recursive: true });
  const graph = manifest.files.find((f) => f.name.endsWith('.onnx'))!.name;
  await rm(join(partial, graph));
  const [answer] = await complete(page, { baseURL: url(partial) }, [{ messages: HINDI, max_tokens: 4 }]);
  expect(answer!.status).toBe(503);
  const message = answer!.json.error!.message;
  expect(message).toContain(`The folder http://localhost`);
  expect(message).toContain(`${url(partial)} has no ${graph}, which its vaani-manifest.json lists with`);
  expect(message).toContain('tokenizer.json');
  expect(message).toContain('`npx vaani pull chat-v2 --to public/models`');

  const bare = join(root, 'bare');
  await mkdir(bare, { recursive: true });
  const [empty] = await complete(page, { baseURL: url(bare) }, [{ messages: HINDI, max_tokens: 4 }]);
  expect(empty!.status).toBe(503);
  expect(empty!.json.error!.message).toMatch(
    /has no tokenizer(_config)?\.json \(and no vaani-manifest\.json listing the model's files\)\. Fetch .* `npx vaani pull chat-v2 --to public\/models`/,
  );
  expect((await stat(join(pulled, FOLDER_MANIFEST))).size).toBeGreaterThan(0);
});
