import { expect, test } from '@playwright/test';
import { FileServer } from './support/file-server';
import { CHUNK, fixtureModel, loadModel, openStorePage, setup, storedKeys } from './store-fixture';

const server = new FileServer();
const files = fixtureModel(1);
const data = files[2]!;
const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
const put = (dir: string) => files.forEach((file) => server.put(`/${dir}/${file.name}`, file.bytes));
/** Complete chunks kept after a break at `cutAfter` bytes: all of them, or one fewer when bytes in flight were lost with the connection. */
const keptBefore = (cutAfter: number) => [Math.floor(cutAfter / CHUNK) - 1, Math.floor(cutAfter / CHUNK)];
const resumedAt = (range: string | undefined) => Number(range?.match(/^bytes=(\d+)-$/)?.[1]) / CHUNK;
const model = (dir: string) => ({ baseURL: `${server.url}${dir}/`, files: files.map((file) => file.name) });

test.beforeAll(() => server.start());
test.afterAll(() => server.stop());
test.beforeEach(async ({ page }) => {
  await openStorePage(page);
});

test('loads a model with progress per file and in total, caches it, and reads it back in a worker as one buffer', async ({
  page,
}) => {
  put('a');
  server.behave('/a/model.onnx_data', { bytesPerSecond: 3_000_000 });
  await setup(page, { m: model('a') });
  const { status, progress, error } = await loadModel(page, 'm');
  expect(error).toBeUndefined();
  expect(status).toMatchObject({ id: 'm', state: 'cached', bytes: total, total });
  const last = progress.at(-1)!;
  expect(last).toMatchObject({ model: 'm', loaded: total, total, fraction: 1, eta: 0 });
  expect(last.files.map((file) => file.file).sort()).toEqual(['config.json', 'model.onnx', 'model.onnx_data']);
  const middle = progress.find((value) => value.fraction! > 0.2 && value.fraction! < 0.9);
  expect(middle?.total).toBe(total);
  expect(progress.some((value) => value.rate > 0 && value.eta !== undefined && value.eta > 0)).toBe(true);
  const fractions = progress.map((value) => value.fraction!);
  expect(fractions).toEqual([...fractions].sort((a, b) => a - b));

  await expect
    .poll(() => page.evaluate(() => window.events.filter((e) => e.type === 'progress').length))
    .toBeGreaterThan(0);
  expect(await page.evaluate(() => window.events.some((e) => e.type === 'loaded'))).toBe(true);
  const cached = await page.evaluate(() => window.ai.models.cached());
  expect(cached).toEqual([
    expect.objectContaining({ id: 'm', bytes: total, files: expect.arrayContaining(['model.onnx_data']) }),
  ]);
  expect(await storedKeys(page, `${server.url}a/model.onnx_data`)).toEqual({
    chunks: Math.ceil(data.bytes.length / CHUNK),
    manifest: true,
    partial: false,
  });

  const gets = server.log.length;
  const inWorker = await page.evaluate(
    (base) => window.storeWorker().load(base, 'model.onnx_data', { chunkSize: 256 * 1024, model: 'm' }),
    `${server.url}a/`,
  );
  expect(inWorker).toEqual({
    byteLength: data.bytes.length,
    bufferByteLength: data.bytes.length,
    offset: 0,
    sha256: data.sha256,
  });
  expect((await loadModel(page, 'm')).status?.state).toBe('cached');
  expect(server.log.length).toBe(gets);
  for (const file of files) expect(server.gets(`/a/${file.name}`)).toHaveLength(1);
});

test('a connection cut halfway resumes from the last complete chunk with Range', async ({ page }) => {
  put('cut');
  const url = `${server.url}cut/model.onnx_data`;
  server.behave('/cut/model.onnx_data', { cutAfter: 700_000 });
  await setup(page, { m: model('cut') }, { chunkSize: CHUNK, retries: 0 });
  const failed = await loadModel(page, 'm');
  expect(failed.error).toMatchObject({ code: 'network_error' });
  expect(failed.error!.message).toContain('model.onnx_data');
  expect(failed.error!.message).toContain(url);
  const kept = await storedKeys(page, url);
  expect(kept).toMatchObject({ manifest: false, partial: true });
  expect(keptBefore(700_000)).toContain(kept.chunks);
  const status = await page.evaluate(() => window.ai.models.status('m'));
  expect(status.state).toBe('partial');
  expect(status.files.find((file) => file.file === 'model.onnx_data')).toMatchObject({
    state: 'partial',
    bytes: kept.chunks * CHUNK,
  });

  const resumed = await loadModel(page, 'm');
  expect(resumed.status?.state).toBe('cached');
  const gets = server.gets('/cut/model.onnx_data');
  expect(gets).toHaveLength(2);
  expect(gets[1]).toMatchObject({
    range: `bytes=${kept.chunks * CHUNK}-`,
    status: 206,
    sent: data.bytes.length - kept.chunks * CHUNK,
  });
  const read = await page.evaluate(
    (base) => window.storeWorker().load(base, 'model.onnx_data', { chunkSize: 256 * 1024 }),
    `${server.url}cut/`,
  );
  expect(read.sha256).toBe(data.sha256);
});

test('a broken connection is resumed within one load, and a server ignoring Range gets a full download', async ({
  page,
}) => {
  put('retry');
  server.behave('/retry/model.onnx_data', { cutAfter: 600_000 });
  await setup(page, { m: model('retry') });
  expect((await loadModel(page, 'm')).status?.state).toBe('cached');
  const retried = server.gets('/retry/model.onnx_data');
  expect(retried.map((get) => get.status)).toEqual([200, 206]);
  expect(keptBefore(600_000)).toContain(resumedAt(retried[1]!.range));

  put('norange');
  server.behave('/norange/model.onnx_data', { cutAfter: 900_000, ignoreRange: true });
  await setup(page, { n: model('norange') });
  const outcome = await loadModel(page, 'n');
  expect(outcome.status?.state).toBe('cached');
  const gets = server.gets('/norange/model.onnx_data');
  expect(gets.map((get) => get.status)).toEqual([200, 200]);
  expect(keptBefore(900_000)).toContain(resumedAt(gets[1]!.range));
  expect(gets[1]!.sent).toBe(data.bytes.length);
  const read = await page.evaluate(
    (base) => window.storeWorker().load(base, 'model.onnx_data', { chunkSize: 256 * 1024 }),
    `${server.url}norange/`,
  );
  expect(read.sha256).toBe(data.sha256);
});

test('a server that answers a Range with fewer bytes than the file has left is asked again until the file is whole', async ({
  page,
}) => {
  put('capped');
  server.behave('/capped/model.onnx_data', { cutAfter: 300_000, rangeCap: 500_000 });
  await setup(page, { m: model('capped') }, { chunkSize: CHUNK, retries: 5 });
  const outcome = await loadModel(page, 'm');
  expect(outcome.error).toBeUndefined();
  expect(outcome.status?.state).toBe('cached');
  const gets = server.gets('/capped/model.onnx_data');
  expect(gets[0]!.status).toBe(200);
  expect(gets.length).toBeGreaterThan(2);
  expect(gets.slice(1).every((get) => get.status === 206 && get.sent <= 500_000)).toBe(true);
  expect(gets.slice(1).map((get) => resumedAt(get.range))).toEqual(
    [...gets.slice(1).map((get) => resumedAt(get.range))].sort((a, b) => a - b),
  );
  const read = await page.evaluate(
    (base) => window.storeWorker().load(base, 'model.onnx_data', { chunkSize: 256 * 1024 }),
    `${server.url}capped/`,
  );
  expect(read.sha256).toBe(data.sha256);
});

test('an aborted load keeps its complete chunks and the next load resumes', async ({ page }) => {
  put('abort');
  server.behave('/abort/model.onnx_data', { bytesPerSecond: 2_000_000 });
  await setup(page, { m: model('abort') });
  const aborted = await loadModel(page, 'm', 800_000);
  expect(aborted.error?.name).toBe('AbortError');
  const url = `${server.url}abort/model.onnx_data`;
  const kept = await storedKeys(page, url);
  expect(kept.manifest).toBe(false);
  expect(kept.chunks).toBeGreaterThanOrEqual(2);
  server.behave('/abort/model.onnx_data', {});
  expect((await loadModel(page, 'm')).status?.state).toBe('cached');
  expect(server.gets('/abort/model.onnx_data').at(-1)?.range).toBe(`bytes=${kept.chunks * CHUNK}-`);
});

test('a server that stops sending is broken off after stallMs and the load resumes from the kept chunks', async ({
  page,
}) => {
  put('stall');
  server.behave('/stall/model.onnx_data', { cutAfter: 600_000, stallInsteadOfCut: true });
  await setup(page, { m: model('stall') }, { chunkSize: CHUNK, stallMs: 1000 });
  const outcome = await loadModel(page, 'm');
  expect(outcome.status?.state).toBe('cached');
  const gets = server.gets('/stall/model.onnx_data');
  expect(gets.map((get) => get.status)).toEqual([200, 206]);
  expect(keptBefore(600_000)).toContain(resumedAt(gets[1]!.range));

  put('stall2');
  server.behave('/stall2/model.onnx_data', { cutAfter: 600_000, stallInsteadOfCut: true });
  await setup(page, { m: model('stall2') }, { chunkSize: CHUNK, stallMs: 1000, retries: 0 });
  const failed = await loadModel(page, 'm');
  expect(failed.error).toMatchObject({ code: 'network_error' });
  expect(failed.error!.message).toContain('no data arrived for 1 s');
  const kept = await storedKeys(page, `${server.url}stall2/model.onnx_data`);
  expect(kept).toMatchObject({ manifest: false, partial: true });
  expect(keptBefore(600_000)).toContain(kept.chunks);
});

test('responses that are not the file are rejected, named, and leave nothing cached', async ({ page }) => {
  const cases: [string, object, string, Record<string, unknown>][] = [
    ['model.onnx', { html: true }, 'not_a_file', {}],
    ['model.onnx_data', { status: 404 }, 'file_not_found', {}],
    ['model.onnx_data', { status: 500 }, 'http_error', {}],
    ['model.onnx_data', {}, 'wrong_size', { size: data.bytes.length + 1 }],
    ['model.onnx_data', {}, 'bad_checksum', { sha256: '0'.repeat(64) }],
  ];
  for (const [i, [name, behaviour, code, spec]] of cases.entries()) {
    put(`bad${i}`);
    const base = `${server.url}bad${i}/`;
    server.behave(`/bad${i}/${name}`, behaviour);
    const specs = files.map((file) => (file.name === name ? { name, ...spec } : file.name));
    await setup(page, { m: { baseURL: base, files: specs } });
    const outcome = await loadModel(page, 'm');
    expect(outcome.error, `${name} ${code}`).toMatchObject({ code });
    expect(outcome.error!.message).toContain(`${base}${name}`);
    expect(await storedKeys(page, `${base}${name}`)).toEqual({ chunks: 0, manifest: false, partial: false });
  }
  put('bad');
  const base = `${server.url}bad/`;
  server.put(
    '/bad/lfs.onnx',
    new TextEncoder().encode('version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 133\n'),
  );
  server.put('/bad/garbage.onnx', new TextEncoder().encode('PK\u0003\u0004 this is a zip, not a model'.repeat(40)));
  for (const name of ['lfs.onnx', 'garbage.onnx']) {
    await setup(page, { m: { baseURL: base, files: [name] } });
    const outcome = await loadModel(page, 'm');
    expect(outcome.error).toMatchObject({ code: 'not_a_file' });
    expect(outcome.error!.message).toContain(`${base}${name}`);
  }

  await setup(page, {
    m: {
      baseURL: base,
      files: [
        ...files.map((file) => ({ name: file.name, sha256: file.sha256, size: file.bytes.length })),
        { name: 'generation_config.json', optional: true },
      ],
    },
  });
  const good = await loadModel(page, 'm');
  expect(good.status).toMatchObject({ state: 'cached', bytes: total });
  expect(good.status!.files.find((file) => file.file === 'generation_config.json')?.state).toBe('absent');
});

test('a FileLoader in a worker caches on first load, answers has(), names the URL of a missing file, and its progress reaches ai.models events', async ({
  page,
}) => {
  put('w');
  server.behave('/w/model.onnx_data', { bytesPerSecond: 3_000_000 });
  const base = `${server.url}w/`;
  await setup(page, {});
  const result = await page.evaluate(async (base) => {
    const worker = window.storeWorker();
    const first = await worker.load(base, 'config.json', { chunkSize: 256 * 1024 });
    const second = await worker.load(base, 'config.json', { chunkSize: 256 * 1024 });
    const data = await worker.load(base, 'model.onnx_data', { chunkSize: 256 * 1024, model: 'engine-model' });
    // The first load handed over the buffer it downloaded into; this one reads the chunks written from it.
    const again = await worker.load(base, 'model.onnx_data', { chunkSize: 256 * 1024, model: 'engine-model' });
    const missing = await worker.load(base, 'nope.json', {}).catch((error: Error) => error.message);
    return {
      first,
      second,
      data,
      again,
      missing,
      has: await worker.has(base, 'model.onnx'),
      hasNot: await worker.has(base, 'nope.json'),
    };
  }, base);
  expect(result.first.sha256).toBe(files[0]!.sha256);
  expect(result.second).toEqual(result.first);
  expect(result.data.sha256).toBe(data.sha256);
  expect(result.again).toEqual(result.data);
  expect(server.gets('/w/model.onnx_data')).toHaveLength(1);
  expect(server.gets('/w/config.json')).toHaveLength(1);
  expect(result.missing).toContain(`${base}nope.json`);
  expect(result).toMatchObject({ has: true, hasNot: false });
  const events = await page.evaluate(() =>
    window.events
      .filter((e) => e.type === 'progress')
      .map((e) => e.detail as { model: string; fraction: number; rate: number }),
  );
  expect(events.every((event) => event.model === 'engine-model')).toBe(true);
  expect(events.some((event) => event.fraction > 0 && event.fraction < 1 && event.rate > 0)).toBe(true);
  expect(events.at(-1)?.fraction).toBe(1);
  expect(await page.evaluate(() => window.ai.models.cached())).toEqual([
    expect.objectContaining({ id: 'engine-model', bytes: data.bytes.length, files: ['model.onnx_data'] }),
  ]);
});
