import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type OpenAI from 'openai';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { openHarness } from './support/page';

/**
 * Memory (`/v1/memory…`) and data (`/v1/files`, `/v1/vector_stores…`, `/v1/data/query`) under two
 * tabs writing at once, a reload mid-batch, a full quota mid-batch and a worker terminated
 * mid-write: every acknowledged write survives a reload, a batch is all or nothing, the search
 * indexes hold exactly the stored rows, and the next write works. Each test logs its counts.
 */

let encoder: EncoderFixtureLocation;
test.beforeAll(async () => {
  encoder = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
});

type Ai = ReturnType<typeof window.Vaani.createVaani>;
type Env = { ai: Ai; client: OpenAI };

async function start(page: Page) {
  await page.evaluate((url) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: {
        'embed-v1': { baseURL: url, dtype: 'fp32', embedding: { prefixes: { query: 'q: ', passage: 'p: ' } } },
      },
    });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    Object.assign(window, { env: { ai, client } });
  }, encoder.url);
}

async function open(page: Page) {
  const errors = await openHarness(page);
  await start(page);
  return errors;
}

const inPage = <T, A>(page: Page, run: (env: Env, arg: A) => Promise<T>, arg: A) =>
  page.evaluate(
    ({ source, arg }) =>
      new Function('env', 'arg', `return (${source})(env, arg)`)((window as unknown as { env: Env }).env, arg),
    { source: run.toString(), arg },
  ) as Promise<T>;

/** Stored rows read straight from IndexedDB, each database in one read-only transaction (a snapshot). */
type Rows = {
  memories: { id: string; text: string }[];
  files: string[];
  entries: { key: string; store: string; file: string; status: string }[];
  chunks: { id: string; store: string; file: string }[];
};
const rowsOf = (page: Page): Promise<Rows> =>
  page.evaluate(async () => {
    // Never create a database here: the store's own open would then find it without its schema.
    const existing = new Set((await indexedDB.databases()).map((db) => db.name));
    const all = (name: string, stores: string[]) =>
      new Promise<Record<string, unknown[]>>((resolve, reject) => {
        if (!existing.has(name)) return resolve({});
        const request = indexedDB.open(name);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const names = stores.filter((store) => db.objectStoreNames.contains(store));
          if (!names.length) return (resolve({}), db.close());
          const tx = db.transaction(names);
          const out: Record<string, unknown[]> = {};
          for (const store of names) {
            const got = tx.objectStore(store).getAll();
            got.onsuccess = () => (out[store] = got.result);
          }
          tx.oncomplete = () => (db.close(), resolve(out));
        };
      });
    const memory = await all('vaani-memory', ['items']);
    const data = await all('vaani-data', ['files', 'entries', 'chunks']);
    type R = Record<string, string>;
    return {
      memories: ((memory.items ?? []) as R[]).map(({ id, text }) => ({ id: id!, text: text! })),
      files: ((data.files ?? []) as R[]).map((file) => file.id!),
      entries: ((data.entries ?? []) as R[]).map((entry) => ({
        key: entry.key!,
        store: entry.vector_store_id!,
        file: entry.id!,
        status: entry.status!,
      })),
      chunks: ((data.chunks ?? []) as R[]).map((chunk) => ({
        id: chunk.id!,
        store: chunk.store_id!,
        file: chunk.file_id!,
      })),
    };
  });

/** What the memory index answers: every listed id (paged), and the top keyword hit for some texts. */
const memoryIndex = (page: Page, sample: string[]) =>
  inPage(
    page,
    async ({ ai }, sample) => {
      const ids: string[] = [];
      for (let after: string | undefined; ;) {
        const page = await ai.memory.list({ limit: 100, order: 'asc', ...(after ? { after } : {}) });
        ids.push(...page.data.map((memory) => memory.id));
        if (!page.has_more) break;
        after = ids.at(-1);
      }
      const found: string[] = [];
      for (const text of sample) {
        const hits = await ai.memory.search({ query: text, mode: 'keyword', limit: 1 });
        found.push(hits[0]?.text ?? '');
      }
      return { ids, found };
    },
    sample,
  );

/** The chunk ids a vector store's index answers (`/v1/data/query`, up to 50: the stores here hold fewer). */
const storeIndex = (page: Page, store: string) =>
  inPage(
    page,
    async ({ ai }, store) => {
      const response = await ai.fetch(`${ai.baseURL}/data/query`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'ledger note', vector_store_ids: [store], mode: 'search', max_num_results: 50 }),
      });
      const body = (await response.json()) as { results: { chunk: { id: string } }[] };
      return body.results.map((result) => result.chunk.id).sort();
    },
    store,
  );

/** Rows agree with the indexes in `page`: every memory listed and a sample found; each store's chunks searched. */
async function expectIndexesAgree(page: Page, rows: Rows) {
  const sample = rows.memories.filter((_, i) => i % 7 === 0).map((memory) => memory.text);
  const memory = await memoryIndex(page, sample);
  expect(memory.ids.sort()).toEqual(rows.memories.map((memory) => memory.id).sort());
  expect(memory.found).toEqual(sample);
  for (const store of new Set(rows.entries.map((entry) => entry.store))) {
    const chunks = rows.chunks.filter((chunk) => chunk.store === store).map((chunk) => chunk.id);
    expect(chunks.length).toBeLessThanOrEqual(50);
    expect(await storeIndex(page, store)).toEqual(chunks.sort());
  }
}

/** Nothing half there: each memory batch is whole or absent; a store file has chunks only when completed. */
function expectWhole(rows: Rows, batches: Map<string, number>) {
  for (const [prefix, size] of batches) {
    const stored = rows.memories.filter((memory) => memory.text.startsWith(`${prefix} `)).length;
    expect([0, size], `batch ${prefix}`).toContain(stored);
  }
  for (const entry of rows.entries) {
    const chunks = rows.chunks.filter((chunk) => chunk.store === entry.store && chunk.file === entry.file).length;
    if (entry.status === 'completed') expect(chunks, entry.key).toBeGreaterThan(0);
    else expect(chunks, `${entry.key} ${entry.status}`).toBe(0);
  }
  for (const chunk of rows.chunks)
    expect(rows.entries.some((entry) => entry.store === chunk.store && entry.file === chunk.file)).toBe(true);
}

/** Memory batches of `size` items, `count` at once; acknowledged ones are logged (`ack <json ids>`) as they land. */
const writeMemories = (page: Page, arg: { prefix: string; count: number; size: number; words?: string }) =>
  inPage(
    page,
    async ({ ai }, { prefix, count, size, words }) => {
      const results = await Promise.all(
        Array.from({ length: count }, async (_, b) => {
          const batch = `${prefix}b${b}`;
          try {
            const stored = await ai.memory.store(
              Array.from({ length: size }, (_, i) => ({ text: `${batch} ledger note ${i}${words ?? ''}` })),
            );
            console.log(`ack ${JSON.stringify(stored.map((memory) => memory.id))}`);
            return { batch, ids: stored.map((memory) => memory.id) };
          } catch (error) {
            return { batch, ids: [] as string[], error: (error as { status?: number }).status ?? String(error) };
          }
        }),
      );
      return results;
    },
    arg,
  );

/** Uploads one-chunk files (text with a unique word each) and adds them as one file batch; waits unless `wait` is false. */
const writeFiles = (page: Page, arg: { prefix: string; count: number; store?: string; wait?: boolean }) =>
  inPage(
    page,
    async ({ client }, { prefix, count, store, wait }) => {
      const id = store ?? (await client.vectorStores.create({ name: prefix })).id;
      const files = [];
      for (let i = 0; i < count; i++)
        files.push(
          await client.files.create({
            file: new File([`${prefix} ledger note ${i} word${prefix}x${i}.`], `${prefix}-${i}.txt`),
            purpose: 'assistants',
          }),
        );
      const batch = await client.vectorStores.fileBatches.create(id, { file_ids: files.map((file) => file.id) });
      console.log(`ack ${JSON.stringify(files.map((file) => file.id))}`);
      const done =
        wait === false ? batch : await client.vectorStores.fileBatches.poll(id, batch.id, { pollIntervalMs: 100 });
      return { store: id, batch: batch.id, files: files.map((file) => file.id), status: done.status };
    },
    arg,
  );

/** Polls every store file until none is in progress. */
const settleFiles = (page: Page, store: string) =>
  inPage(
    page,
    async ({ client }, store) => {
      for (;;) {
        const entries = await client.vectorStores.files.list(store, { limit: 100 });
        if (!entries.data.some((entry) => entry.status === 'in_progress'))
          return entries.data.map((entry) => entry.status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    store,
  );

const report = (scenario: string, attempted: number, acknowledged: number, survived: number) =>
  console.log(
    `storage-survives ${scenario}: attempted ${attempted}, acknowledged ${acknowledged}, survived ${survived}`,
  );

test('two tabs writing memories and files at once: every acknowledged write survives a reload, indexes agree in both tabs', async ({
  context,
}) => {
  const tabs = [await context.newPage(), await context.newPage()];
  const errors = [];
  for (const page of tabs) errors.push(...(await open(page)));
  const shared = await writeFiles(tabs[0]!, { prefix: 'seed', count: 1 });
  const [memories, files] = await Promise.all([
    Promise.all(tabs.map((page, tab) => writeMemories(page, { prefix: `t${tab}`, count: 8, size: 5 }))),
    Promise.all(tabs.map((page, tab) => writeFiles(page, { prefix: `f${tab}`, count: 6, store: shared.store }))),
  ]);
  const acked = memories.flat().flatMap((batch) => batch.ids);
  const batches = new Map(memories.flat().map((batch) => [batch.batch, 5]));
  expect(files.map((batch) => batch.status)).toEqual(['completed', 'completed']);
  let rows = await rowsOf(tabs[0]!);
  expectWhole(rows, batches);
  for (const page of tabs) await expectIndexesAgree(page, rows);
  for (const page of tabs) {
    await page.reload();
    await page.waitForFunction(() => document.title === 'ready');
    await start(page);
  }
  rows = await rowsOf(tabs[1]!);
  const ids = new Set(rows.memories.map((memory) => memory.id));
  const fileIds = files.flatMap((batch) => batch.files);
  expect(acked.filter((id) => !ids.has(id))).toEqual([]);
  expect(fileIds.filter((id) => !rows.files.includes(id))).toEqual([]);
  expectWhole(rows, batches);
  for (const page of tabs) await expectIndexesAgree(page, rows);
  expect((await writeMemories(tabs[1]!, { prefix: 'next', count: 1, size: 1 }))[0]!.ids).toHaveLength(1);
  report('two tabs, memory items', 80, acked.length, acked.filter((id) => ids.has(id)).length);
  report(
    'two tabs, store files',
    fileIds.length,
    fileIds.length,
    fileIds.filter((id) => rows.files.includes(id)).length,
  );
  expect(errors).toEqual([]);
});

test('a reload mid-batch: acknowledged batches survive, the others are whole or absent, ingestion resumes', async ({
  page,
}) => {
  await open(page);
  const acks: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('ack ')) acks.push(...(JSON.parse(message.text().slice(4)) as string[]));
  });
  const files = await writeFiles(page, { prefix: 'r', count: 8, wait: false });
  const first = page.waitForEvent('console', (message) => message.text().startsWith('ack ["mem_'));
  void writeMemories(page, { prefix: 'r', count: 12, size: 20 }).catch(() => undefined);
  await first;
  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  let rows = await rowsOf(page);
  const batches = new Map(Array.from({ length: 12 }, (_, b) => [`rb${b}`, 20]));
  expectWhole(rows, batches);
  await start(page);
  expect(await settleFiles(page, files.store)).toEqual(Array(8).fill('completed'));
  rows = await rowsOf(page);
  const ids = new Set(rows.memories.map((memory) => memory.id));
  const memoryAcks = acks.filter((id) => id.startsWith('mem_'));
  expect(memoryAcks.filter((id) => !ids.has(id))).toEqual([]);
  expect(files.files.filter((id) => !rows.files.includes(id))).toEqual([]);
  expectWhole(rows, batches);
  await expectIndexesAgree(page, rows);
  expect((await writeMemories(page, { prefix: 'next', count: 1, size: 1 }))[0]!.ids).toHaveLength(1);
  report('reload mid-batch, memory items', 240, memoryAcks.length, memoryAcks.filter((id) => ids.has(id)).length);
  report('reload mid-batch, store files', 8, 8, files.files.filter((id) => rows.files.includes(id)).length);
});

test('a full quota mid-batch: 507 quota_exceeded, the batch absent, the acknowledged ones there, indexes agree; the next write works', async ({
  page,
}) => {
  await openHarness(page);
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  // Before anything is stored: Chromium reads the quota when it first opens the origin's storage.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
  await start(page);
  const files = await writeFiles(page, { prefix: 'q', count: 2 });
  // Incompressible words (Chromium compresses IndexedDB values): a batch is about 50 kB; until three are refused.
  const words = ' ' + Array.from(randomBytes(6_000), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
  const results = [];
  for (let b = 0; b < 40 && results.filter((result) => result.error).length < 3; b++)
    results.push(...(await writeMemories(page, { prefix: `q${b}`, count: 1, size: 8, words })));
  const statuses = results.map((result) => result.error ?? 200);
  expect(statuses).toContain(507);
  expect(statuses[0]).toBe(200);
  const upload = await inPage(
    page,
    async ({ client }, text) =>
      client.files.create({ file: new File([text], 'big.txt'), purpose: 'assistants' }).then(
        () => 200,
        (error: { status: number; error: { code: string } }) => `${error.status} ${error.error.code}`,
      ),
    words.repeat(100),
  );
  expect(upload).toBe('507 quota_exceeded');
  let rows = await rowsOf(page);
  const batches = new Map(results.map((result) => [result.batch, 8]));
  expectWhole(rows, batches);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page);
  rows = await rowsOf(page);
  const ids = new Set(rows.memories.map((memory) => memory.id));
  const acked = results.flatMap((result) => result.ids);
  expect([...ids].sort()).toEqual(acked.sort());
  expect(rows.files.sort()).toEqual([...files.files].sort());
  expectWhole(rows, batches);
  await expectIndexesAgree(page, rows);
  // A put that throws QuotaExceededError at once, on the batch's fourth item: the same 507, none of it stored.
  const memoryWorker = page.workers().find((worker) => worker.url().includes('memory.worker'))!;
  await memoryWorker.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    let puts = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if (this.name === 'items' && ++puts === 4) throw new DOMException('Quota exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  const thrown = await writeMemories(page, { prefix: 'qt', count: 1, size: 8 });
  expect(thrown[0]!.error).toBe(507);
  batches.set('qtb0', 8);
  expectWhole(await rowsOf(page), batches);
  await expectIndexesAgree(page, rows);
  expect((await writeMemories(page, { prefix: 'next', count: 1, size: 1 }))[0]!.ids).toHaveLength(1);
  expect((await writeFiles(page, { prefix: 'n', count: 1, store: files.store })).status).toBe('completed');
  report('full quota, memory items', results.length * 8 + 8, acked.length, acked.filter((id) => ids.has(id)).length);
});

test('the owning worker terminated mid-write: the write is absent, acknowledged ones survive, the other tab catches up, the next write works', async ({
  context,
}) => {
  const [a, b] = [await context.newPage(), await context.newPage()];
  for (const page of [a, b]) await open(page);
  const acked = (await writeMemories(a, { prefix: 'k', count: 3, size: 4 })).flatMap((batch) => batch.ids);
  const files = await writeFiles(a, { prefix: 'k', count: 2 });
  await expectIndexesAgree(b, await rowsOf(b));
  const worker = (name: string) =>
    a
      .workers()
      .filter((worker) => worker.url().includes(`${name}.worker`))
      .at(-1)!;
  // Mid-write: the first put into `store` throws in the worker (the page terminates it) and keeps
  // the transaction open, so the worker dies with its batch uncommitted.
  const crashOnPut = (store: string) => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if (this.name !== store) return put.apply(this, args);
      setTimeout(() => {
        throw new Error('worker terminated mid-write');
      });
      const spin = () => this.get('').addEventListener('success', spin);
      spin();
      return this.get('') as IDBRequest<IDBValidKey>;
    };
  };
  await worker('memory').evaluate(crashOnPut, 'items');
  const crashed = await writeMemories(a, { prefix: 'kx', count: 1, size: 4 });
  expect(crashed[0]!.error).toBe(503);
  const next = await writeMemories(a, { prefix: 'k3', count: 1, size: 4 });
  acked.push(...next[0]!.ids);
  // Between commit and announcement: the write lands, its tab's worker dies before telling the other tab.
  await worker('memory').evaluate(() => {
    BroadcastChannel.prototype.postMessage = () => {
      self.postMessage = () => undefined;
      setTimeout(() => {
        throw new Error('worker terminated before announcing');
      });
    };
  });
  const unannounced = await writeMemories(a, { prefix: 'ku', count: 1, size: 4 });
  expect(unannounced[0]!.error).toBe(503);
  // The data worker dies while storing a file's chunks: the file fails whole, the next one completes.
  await worker('data').evaluate(crashOnPut, 'chunks');
  const crashedFile = await writeFiles(a, { prefix: 'kf', count: 1, store: files.store });
  expect(crashedFile.status).toBe('completed'); // the batch ends; its file failed
  const after = await writeFiles(a, { prefix: 'ka', count: 1, store: files.store });
  expect(after.status).toBe('completed');
  // The data worker dies after committing a file's chunks, before telling the other tab.
  await worker('data').evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    const post = BroadcastChannel.prototype.postMessage;
    let stored = false;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      stored ||= this.name === 'chunks';
      return put.apply(this, args);
    };
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, message: unknown) {
      if (!stored) return post.call(this, message);
      self.postMessage = () => undefined;
      setTimeout(() => {
        throw new Error('worker terminated before announcing');
      });
    };
  });
  expect((await writeFiles(a, { prefix: 'ku', count: 1, store: files.store })).status).toBe('completed');
  let rows = await rowsOf(b);
  const status = (file: string) => rows.entries.find((entry) => entry.file === file)?.status;
  expect([crashedFile, after].map(({ files }) => status(files[0]!))).toEqual(['failed', 'completed']);
  // With the other tab's index loaded, a file deletion lands and its worker dies before telling it.
  await expectIndexesAgree(b, rows);
  await worker('data').evaluate(() => {
    BroadcastChannel.prototype.postMessage = () => {
      self.postMessage = () => undefined;
      setTimeout(() => {
        throw new Error('worker terminated before announcing');
      });
    };
  });
  const deleted = await inPage(
    a,
    async ({ client }, id) =>
      client.files.delete(id).then(
        () => 200,
        (error: { status: number }) => error.status,
      ),
    after.files[0]!,
  );
  expect(deleted).toBe(503);
  rows = await rowsOf(b);
  expect(rows.files).not.toContain(after.files[0]);
  const batches = new Map([
    ['kxb0', 4],
    ['k3b0', 4],
    ['kub0', 4],
  ]);
  expectWhole(rows, batches);
  expect(rows.memories.filter((memory) => memory.text.startsWith('kxb0 '))).toEqual([]);
  for (const page of [a, b]) await expectIndexesAgree(page, rows);
  await b.reload();
  await b.waitForFunction(() => document.title === 'ready');
  await start(b);
  rows = await rowsOf(b);
  const ids = new Set(rows.memories.map((memory) => memory.id));
  expect(acked.filter((id) => !ids.has(id))).toEqual([]);
  expectWhole(rows, batches);
  await expectIndexesAgree(b, rows);
  expect((await writeMemories(b, { prefix: 'next', count: 1, size: 1 }))[0]!.ids).toHaveLength(1);
  report('worker terminated, memory items', 24, acked.length, acked.filter((id) => ids.has(id)).length);
});
