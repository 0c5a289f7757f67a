import { expect, test, type Page } from '@playwright/test';
import { FileServer } from './support/file-server';
import { CHUNK, fixtureModel, loadModel, openStorePage, setup, storedKeys } from './store-fixture';

const server = new FileServer();
const small = fixtureModel(7, 300_000);
const large = fixtureModel(9);
const sizeOf = (files: typeof small) => files.reduce((sum, file) => sum + file.bytes.length, 0);
const publish = (dir: string, files = large) => {
  for (const file of files) server.put(`/${dir}/${file.name}`, file.bytes);
  return { baseURL: `${server.url}${dir}/`, files: files.map((file) => file.name) };
};

/** Every file of the model is either complete or has left no trace. */
async function consistent(page: Page, base: string, files = large) {
  for (const file of files) {
    const keys = await storedKeys(page, `${base}${file.name}`);
    const complete = keys.manifest && !keys.partial && keys.chunks === Math.ceil(file.bytes.length / CHUNK);
    const absent = !keys.manifest && !keys.partial && keys.chunks === 0;
    expect(complete || absent, `${file.name}: ${JSON.stringify(keys)}`).toBe(true);
  }
}

test.beforeAll(() => server.start());
test.afterAll(() => server.stop());
test.beforeEach(async ({ page }) => {
  await openStorePage(page);
});

test('too little browser quota is a clear error naming the bytes needed and what could be evicted; nothing is written', async ({
  page,
}) => {
  const models = { a: publish('qa', small), b: publish('qb') };
  await setup(page, models);
  expect((await loadModel(page, 'a')).status?.state).toBe('cached');
  await page.evaluate(() =>
    Object.defineProperty(navigator.storage, 'estimate', {
      value: async () => ({ quota: 10_000_000, usage: 9_500_000 }),
    }),
  );
  const refused = await loadModel(page, 'b');
  expect(refused.error).toMatchObject({ code: 'quota_exceeded' });
  expect(refused.error!.message).toContain('browser storage');
  expect(refused.error!.message).toContain(`needs ${(sizeOf(large) / 1024 / 1024).toFixed(1)} MB`);
  expect(refused.error!.message).toContain('but 488.3 KB is free');
  expect(refused.error!.message).toMatch(/a \(332\.1 KB\).*ai\.models\.delete/);
  for (const file of large)
    expect(await storedKeys(page, `${models.b.baseURL}${file.name}`)).toEqual({
      chunks: 0,
      manifest: false,
      partial: false,
    });
  expect((await page.evaluate(() => window.ai.models.cached())).map((model) => model.id)).toEqual(['a']);
});

test('a QuotaExceededError while writing leaves nothing half-written, and the next load works', async ({ page }) => {
  const b = publish('qx');
  await setup(page, { b });
  await page.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    let blobs = 0;
    (window as unknown as { restorePut(): void }).restorePut = () => (IDBObjectStore.prototype.put = put);
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (value instanceof Blob && ++blobs > 3)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.call(this, value, key);
    };
  });
  const refused = await loadModel(page, 'b');
  expect(refused.error).toMatchObject({ code: 'quota_exceeded' });
  expect(refused.error!.message).toMatch(
    /The browser refused to store \S+ from http:\/\/127\.0\.0\.1:\d+\/qx\/\S+ \(QuotaExceededError\): it needs .*Nothing of it was kept/,
  );
  await consistent(page, b.baseURL);
  expect(await storedKeys(page, `${b.baseURL}model.onnx_data`)).toEqual({ chunks: 0, manifest: false, partial: false });

  await page.evaluate(() => (window as unknown as { restorePut(): void }).restorePut());
  expect((await loadModel(page, 'b')).status?.state).toBe('cached');
  await consistent(page, b.baseURL);
});

test('a byte budget evicts the least recently used model, and refuses a model larger than the budget', async ({
  page,
}) => {
  const models = { a: publish('ba'), b: publish('bb'), c: publish('bc') };
  await setup(page, models, { chunkSize: CHUNK, budget: Math.floor(sizeOf(large) * 2.5) });
  for (const id of ['a', 'b', 'a', 'c']) expect((await loadModel(page, id)).status?.state, id).toBe('cached');
  expect((await page.evaluate(() => window.ai.models.cached())).map((model) => model.id).sort()).toEqual(['a', 'c']);
  await expect
    .poll(() => page.evaluate(() => window.events.filter((e) => e.type === 'evicted').map((e) => e.detail)))
    .toEqual([{ model: 'b' }]);
  await consistent(page, models.b.baseURL);
  expect(await page.evaluate(() => window.ai.models.status('b').then((status) => status.state))).toBe('absent');

  await setup(page, { d: publish('bd') }, { chunkSize: CHUNK, budget: 1_000_000 });
  const refused = await loadModel(page, 'd');
  expect(refused.error).toMatchObject({ code: 'quota_exceeded' });
  expect(refused.error!.message).toContain('the cache budget');
  expect(refused.error!.message).toMatch(/a \(1\.5 MB\), c \(1\.5 MB\)|c \(1\.5 MB\), a \(1\.5 MB\)/);
});

test('delete removes a model but keeps files another model shares; clear empties the cache', async ({ page }) => {
  const shared = publish('shared');
  const other = publish('other', small);
  await setup(page, { x: shared, y: shared, z: other });
  for (const id of ['x', 'y', 'z']) expect((await loadModel(page, id)).status?.state).toBe('cached');
  expect(server.gets('/shared/model.onnx_data')).toHaveLength(1);
  expect(await page.evaluate(() => window.ai.models.delete('x'))).toBe(true);
  expect(await page.evaluate(() => window.ai.models.delete('x'))).toBe(false);
  expect(await storedKeys(page, `${shared.baseURL}model.onnx_data`)).toMatchObject({ manifest: true });
  expect((await page.evaluate(() => window.ai.models.cached())).map((model) => model.id).sort()).toEqual(['y', 'z']);
  expect(await page.evaluate(() => window.ai.models.delete('y'))).toBe(true);
  await consistent(page, shared.baseURL);
  expect(await storedKeys(page, `${shared.baseURL}model.onnx_data`)).toEqual({
    chunks: 0,
    manifest: false,
    partial: false,
  });
  await page.evaluate(() => window.ai.models.clear());
  expect(await page.evaluate(() => window.ai.models.cached())).toEqual([]);
  expect(await storedKeys(page, `${other.baseURL}model.onnx_data`)).toEqual({
    chunks: 0,
    manifest: false,
    partial: false,
  });
  await expect
    .poll(() =>
      page.evaluate(() => window.events.filter((e) => e.type !== 'progress' && e.type !== 'loaded').map((e) => e.type)),
    )
    .toEqual(['deleted', 'deleted', 'cleared']);
});

test("two tabs loading the same model download it once; the second sees the first one's progress", async ({
  page,
  context,
}) => {
  const m = publish('tabs');
  server.behave('/tabs/model.onnx_data', { bytesPerSecond: 1_000_000 });
  const second = await context.newPage();
  await openStorePage(second);
  await setup(page, { m });
  await setup(second, { m });
  const first = loadModel(page, 'm');
  await expect.poll(() => server.gets('/tabs/model.onnx_data').length).toBe(1);
  await expect
    .poll(() => page.evaluate(() => window.ai.models.status('m').then((status) => status.state)))
    .toBe('downloading');
  const [one, two] = await Promise.all([first, loadModel(second, 'm')]);
  expect(one.status?.state).toBe('cached');
  expect(two.status?.state).toBe('cached');
  for (const file of large) expect(server.gets(`/tabs/${file.name}`)).toHaveLength(1);
  const seen = two.progress.filter((value) => value.fraction! > 0.1 && value.fraction! < 0.95);
  expect(seen.length).toBeGreaterThan(1);
  expect(two.progress.at(-1)).toMatchObject({ fraction: 1, loaded: sizeOf(large) });
  expect(await second.evaluate(() => window.events.some((e) => e.type === 'progress'))).toBe(true);
});

test('a cached model loads with the network off, in the page and in a worker', async ({ page, context }) => {
  const m = publish('offline');
  const absent = publish('never', small);
  await setup(page, { m, absent });
  expect((await loadModel(page, 'm')).status?.state).toBe('cached');
  await page.evaluate(() => {
    const worker = window.storeWorker();
    (window as unknown as { worker: typeof worker }).worker = worker;
    return worker.has('http://127.0.0.1:1/', 'x.json');
  });
  const requests = server.log.length;
  await context.setOffline(true);
  await setup(page, { m, absent });
  expect((await loadModel(page, 'm')).status).toMatchObject({ state: 'cached', bytes: sizeOf(large) });
  const inWorker = await page.evaluate(
    (base) =>
      (window as unknown as { worker: ReturnType<typeof window.storeWorker> }).worker.load(base, 'model.onnx_data', {
        chunkSize: 256 * 1024,
      }),
    m.baseURL,
  );
  expect(inWorker.sha256).toBe(large[2]!.sha256);
  const failed = await loadModel(page, 'absent');
  expect(failed.error).toMatchObject({ code: 'network_error' });
  expect(failed.error!.message).toContain(absent.baseURL);
  expect(server.log.length).toBe(requests);
  await consistent(page, absent.baseURL, small);
  await context.setOffline(false);
});

test('a model with no known files is a clear error, and nothing is recorded for it', async ({ page }) => {
  await setup(page, {});
  // The browser's own model has no files of ours (image-v1, once without defaults, now has them).
  const outcome = await loadModel(page, 'builtin-chat');
  expect(outcome.error).toMatchObject({ code: 'unknown_model' });
  expect(outcome.error!.message).toContain("models: { 'builtin-chat': { baseURL, files: [...] } }");
  expect(await page.evaluate(() => window.ai.models.cached())).toEqual([]);
  expect(await page.evaluate(() => window.ai.models.delete('builtin-chat'))).toBe(false);
});
