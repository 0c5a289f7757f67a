import { expect, test, type Page } from '@playwright/test';
import type OpenAI from 'openai';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import type { makePdf } from '../support/pdf';
import { openHarness } from './support/page';

declare global {
  interface Window {
    makePdf: typeof makePdf;
  }
}

const PAGE = '/test/browser/pages/data.html';
let encoder: EncoderFixtureLocation;
test.beforeAll(async () => {
  encoder = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
});

type Ai = ReturnType<typeof window.Vaani.createVaani>;
type Env = { ai: Ai; client: OpenAI; strict: OpenAI };

/** A Vaani whose embed-v1 is the fixture, and two SDK clients on its shim (default retries, and none). */
async function start(page: Page, url: string) {
  await page.evaluate((url) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: {
        'embed-v1': {
          baseURL: url,
          dtype: 'fp32',
          embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
        },
      },
    });
    const options = { baseURL: ai.baseURL, apiKey: 'k', fetch: ai.fetch, dangerouslyAllowBrowser: true };
    Object.assign(window, {
      env: { ai, client: new window.OpenAI(options), strict: new window.OpenAI({ ...options, maxRetries: 0 }) },
    });
  }, url);
}

const inPage = <T, A>(page: Page, run: (env: Env, arg: A) => Promise<T>, arg: A) =>
  page.evaluate(
    ({ source, arg }) =>
      new Function('env', 'arg', `return (${source})(env, arg)`)((window as unknown as { env: Env }).env, arg),
    { source: run.toString(), arg },
  ) as Promise<T>;

const HTML = `<!doctype html><html><head><title>Returns policy</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<article><h1>Returns</h1><p>Unworn shoes may be returned within thirty days with the receipt.</p>
<h2>Refunds</h2><p>Refunds reach the original card in five working days.</p></article>
<footer>© Example shop</footer></body></html>`;

test('files and vector stores through the openai SDK: upload, ingest PDF and HTML, search with filters, reload, delete', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const made = await inPage(
    page,
    async ({ client }, { html }) => {
      const pdf = window.makePdf(
        [
          { heading: 'Harbour guide', lines: ['The harbour opens at dawn.', 'Boats leave from pier seven.'] },
          { lines: ['The lighthouse keeper writes the weather log at noon.'] },
          { heading: 'पुस्तकालय', lines: ['पुस्तकालय सुबह नौ बजे खुलता है।', 'Library cards are free.'] },
        ],
        { title: 'Harbour guide' },
      );
      const pdfFile = await client.files.create({
        file: new File([pdf as Uint8Array<ArrayBuffer>], 'harbour.pdf', { type: 'application/pdf' }),
        purpose: 'assistants',
      });
      const htmlFile = await client.files.create({
        file: new File([html], 'returns.html', { type: 'text/html' }),
        purpose: 'assistants',
      });
      const listed = await client.files.list();
      const content = await (await client.files.content(htmlFile.id)).text();
      const store = await client.vectorStores.create({ name: 'help', metadata: { team: 'support' } });
      const pdfEntry = await client.vectorStores.files.createAndPoll(store.id, {
        file_id: pdfFile.id,
        attributes: { kind: 'guide', year: 2024 },
      });
      const htmlEntry = await client.vectorStores.files.createAndPoll(store.id, {
        file_id: htmlFile.id,
        attributes: { kind: 'policy', year: 2025 },
        chunking_strategy: { type: 'static', static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 20 } },
      });
      const chunks = await client.vectorStores.files.content(pdfFile.id, { vector_store_id: store.id });
      const retrieved = await client.vectorStores.retrieve(store.id);
      const search = async (query: string, extra = {}) =>
        (await client.vectorStores.search(store.id, { query, ...extra })).data;
      return {
        pdfFile,
        htmlFile,
        listed: listed.data.map((file) => file.id),
        content,
        store,
        pdfEntry,
        htmlEntry,
        chunks: chunks.data.map((part) => part.text),
        retrieved,
        pier: await search('Boats leave from pier seven'),
        hindi: await search('पुस्तकालय सुबह नौ बजे खुलता है'),
        refunds: await search('refunds original card', { max_num_results: 1 }),
        filtered: await search('Boats leave from pier seven', {
          filters: { type: 'eq', key: 'kind', value: 'policy' },
        }),
        compound: await search('harbour', {
          filters: {
            type: 'and',
            filters: [
              { type: 'gte', key: 'year', value: 2024 },
              { type: 'in', key: 'kind', value: ['guide', 'faq'] },
            ],
          },
        }),
        threshold: await search('harbour', { ranking_options: { score_threshold: 1 } }),
      };
    },
    { html: HTML },
  );
  expect(made.pdfFile).toMatchObject({
    object: 'file',
    filename: 'harbour.pdf',
    purpose: 'assistants',
    status: 'processed',
  });
  expect(made.listed).toEqual([made.htmlFile.id, made.pdfFile.id]);
  expect(made.content).toBe(HTML);
  expect(made.pdfEntry).toMatchObject({
    status: 'completed',
    last_error: null,
    attributes: { kind: 'guide', year: 2024 },
  });
  expect(made.pdfEntry.chunking_strategy?.type).toBe('static'); // auto, resolved to the model's window
  expect(made.htmlEntry).toMatchObject({
    status: 'completed',
    chunking_strategy: { type: 'static', static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 20 } },
  });
  expect(made.chunks.join('\n').normalize('NFC')).toContain('Boats leave from pier seven.');
  expect(made.retrieved).toMatchObject({
    object: 'vector_store',
    name: 'help',
    status: 'completed',
    metadata: { team: 'support' },
    file_counts: { completed: 2, total: 2, failed: 0, in_progress: 0 },
  });
  expect(made.retrieved.usage_bytes).toBeGreaterThan(0);
  const top = (hits: typeof made.pier) => hits[0]!.content[0]!.text.normalize('NFC');
  expect(made.pier[0]).toMatchObject({
    file_id: made.pdfFile.id,
    filename: 'harbour.pdf',
    attributes: { kind: 'guide' },
  });
  expect(top(made.pier)).toContain('pier seven');
  expect(top(made.hindi)).toContain('पुस्तकालय सुबह नौ बजे खुलता है।');
  expect(made.refunds).toHaveLength(1);
  expect(made.refunds[0]).toMatchObject({ file_id: made.htmlFile.id, filename: 'returns.html' });
  expect(top(made.refunds)).toContain('original card');
  expect(top(made.refunds)).not.toContain('Example shop');
  expect(made.filtered.every((hit) => hit.attributes!.kind === 'policy')).toBe(true);
  expect(made.filtered.length).toBeGreaterThan(0);
  expect(made.compound.map((hit) => hit.file_id)).toEqual(made.compound.map(() => made.pdfFile.id));
  expect(made.threshold.every((hit) => hit.score >= 1)).toBe(true);
  for (const hit of made.pier) expect(hit.score).toBeGreaterThan(0);

  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page, encoder.url);
  const after = await inPage(
    page,
    async ({ client, ai }, { store, file }) => {
      const hits = (await client.vectorStores.search(store, { query: 'lighthouse keeper weather log' })).data;
      await client.vectorStores.delete(store);
      const gone = await client.vectorStores.retrieve(store).then(
        () => 200,
        (error: { status: number }) => error.status,
      );
      await client.files.delete(file);
      const fileGone = await ai.fetch(`${ai.baseURL}/files/${file}`, { headers: { authorization: 'Bearer k' } });
      return {
        top: hits[0]!.content[0]!.text,
        gone,
        fileGone: { status: fileGone.status, body: await fileGone.json() },
      };
    },
    { store: made.store.id, file: made.pdfFile.id },
  );
  expect(after.top).toContain('lighthouse keeper');
  expect(after.gone).toBe(404);
  expect(after.fileGone).toMatchObject({
    status: 404,
    body: { error: { type: 'not_found_error', code: 'file_not_found' } },
  });
  expect(errors).toEqual([]);
});

test('bad files: 400 for an unsupported or binary upload, 413 over the limit, a corrupt PDF fails its batch entry alone, unknown ids are 404', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const got = await inPage(
    page,
    async ({ client, strict }) => {
      const status = (promise: Promise<unknown>) =>
        promise.then(
          () => ({ status: 200 }),
          (error: { status: number; code: string; type?: string }) => ({ status: error.status, code: error.code }),
        );
      const upload = (name: string, body: BlobPart, type = '') =>
        strict.files.create({ file: new File([body], name, { type }), purpose: 'assistants' });
      const png = await status(upload('photo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'image/png'));
      const binary = await status(upload('notes.txt', new Uint8Array([0x41, 0, 0xff, 0xfe, 0x42])));
      const huge = await status(upload('big.txt', new Uint8Array(26 * 1024 * 1024).fill(0x61)));
      const good = await upload('hours.md', '# Opening hours\n\nThe shop opens at nine and closes at six.\n');
      const corrupt = await upload('broken.pdf', '%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage');
      const store = await client.vectorStores.create({ name: 'mixed' });
      const empty = await client.vectorStores.create({ name: 'empty' });
      const batch = await client.vectorStores.fileBatches.createAndPoll(store.id, {
        file_ids: [good.id, corrupt.id],
        attributes: { source: 'upload' },
      });
      const entries = await client.vectorStores.fileBatches.listFiles(batch.id, { vector_store_id: store.id });
      return {
        png,
        binary,
        huge,
        batch,
        entries: entries.data.map((entry) => ({ id: entry.id, status: entry.status, last_error: entry.last_error })),
        good: good.id,
        corrupt: corrupt.id,
        unknownStore: await status(strict.vectorStores.retrieve('vs_missing')),
        unknownFile: await status(strict.vectorStores.files.create(store.id, { file_id: 'file-missing' })),
        unknownSearch: await status(strict.vectorStores.search('vs_missing', { query: 'x' })),
        badFilter: await status(
          strict.vectorStores.search(store.id, { query: 'x', filters: { type: 'like', key: 'a', value: 1 } as never }),
        ),
        emptyHits: (await client.vectorStores.search(empty.id, { query: 'opening hours' })).data,
        stillWorks: (await client.vectorStores.search(store.id, { query: 'when does the shop open' })).data,
      };
    },
    undefined,
  );
  expect(got.png).toEqual({ status: 400, code: 'unsupported_file' });
  expect(got.binary).toEqual({ status: 400, code: 'invalid_file' });
  expect(got.huge).toEqual({ status: 413, code: 'request_too_large' });
  expect(got.batch).toMatchObject({ status: 'completed', file_counts: { completed: 1, failed: 1, total: 2 } });
  const byId = Object.fromEntries(got.entries.map((entry) => [entry.id, entry]));
  expect(byId[got.good]).toMatchObject({ status: 'completed', last_error: null });
  expect(byId[got.corrupt]!.status).toBe('failed');
  expect(byId[got.corrupt]!.last_error).toMatchObject({ code: 'invalid_file' });
  expect(byId[got.corrupt]!.last_error!.message).toMatch(/broken\.pdf/);
  expect(got.unknownStore).toEqual({ status: 404, code: 'vector_store_not_found' });
  expect(got.unknownFile).toEqual({ status: 404, code: 'file_not_found' });
  expect(got.unknownSearch).toEqual({ status: 404, code: 'vector_store_not_found' });
  expect(got.badFilter.status).toBe(400);
  expect(got.emptyHits).toEqual([]);
  expect(got.stillWorks[0]).toMatchObject({ file_id: got.good, attributes: { source: 'upload' } });
  expect(errors).toEqual([]);
});

/** Rows in each object store of the data database (what deleting must empty). */
const rowsLeft = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('vaani-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = async () => {
          const db = open.result;
          const names = [...db.objectStoreNames];
          const tx = db.transaction(names);
          const counts = await Promise.all(
            names.map(
              (name) =>
                new Promise<number>((done) => {
                  const request = tx.objectStore(name).count();
                  request.onsuccess = () => done(request.result);
                }),
            ),
          );
          db.close();
          resolve(Object.fromEntries(names.map((name, i) => [name, counts[i]!])));
        };
      }),
  );

test('a reload mid-ingestion resumes the file; deleting the file and the store leaves no row behind', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const lines = Array.from({ length: 1500 }, (_, i) => `Line ${i} of the ledger records shipment ${i * 7}.`);
  lines.push('The planted sentence says the vault code is saffron.');
  const added = await inPage(
    page,
    async ({ client }, text) => {
      const file = await client.files.create({ file: new File([text], 'ledger.txt'), purpose: 'assistants' });
      const store = await client.vectorStores.create({ name: 'ledger' });
      const entry = await client.vectorStores.files.create(store.id, { file_id: file.id });
      return { file: file.id, store: store.id, status: entry.status };
    },
    lines.join('\n'),
  );
  expect(added.status).toBe('in_progress');
  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page, encoder.url);
  const resumed = await inPage(
    page,
    async ({ client }, { file, store }) => {
      const first = await client.vectorStores.files.retrieve(file, { vector_store_id: store });
      const done = await client.vectorStores.files.poll(store, file, { pollIntervalMs: 200 });
      const hits = await client.vectorStores.search(store, { query: 'vault code saffron', max_num_results: 1 });
      return { first: first.status, done: done.status, top: hits.data[0]!.content[0]!.text };
    },
    added,
  );
  expect(resumed.first).toBe('in_progress');
  expect(resumed.done).toBe('completed');
  expect(resumed.top).toContain('vault code is saffron');
  const before = await rowsLeft(page);
  expect(before.chunks).toBeGreaterThan(10);
  await inPage(
    page,
    async ({ client }, { file, store }) => {
      await client.files.delete(file);
      await client.vectorStores.delete(store);
    },
    added,
  );
  expect(await rowsLeft(page)).toEqual({ batches: 0, blobs: 0, chunks: 0, entries: 0, files: 0, stores: 0 });
  expect(errors).toEqual([]);
});

test('a full quota is a 507 quota_exceeded with nothing stored; the next upload works', async ({ page }) => {
  await openHarness(page, PAGE);
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
  await start(page, encoder.url);
  const got = await inPage(
    page,
    async ({ ai, client }) => {
      const upload = (name: string, text: string) =>
        ai.fetch(`${ai.baseURL}/files`, {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: (() => {
            const form = new FormData();
            form.set('purpose', 'assistants');
            form.set('file', new File([text], name));
            return form;
          })(),
        });
      const first = await upload('first.txt', 'The first file fits.');
      // Incompressible text: Chromium compresses IndexedDB values, so a repeated letter would fit.
      const letters = Array.from({ length: 3_000_000 }, () =>
        String.fromCharCode(97 + Math.floor(Math.random() * 26)),
      ).join('');
      const full = await upload('big.txt', letters);
      const listed = await client.files.list();
      return {
        first: first.status,
        full: { status: full.status, body: await full.json() },
        listed: listed.data.map((file) => file.filename),
      };
    },
    undefined,
  );
  expect(got.first).toBe(200);
  expect(got.full.status).toBe(507);
  expect(got.full.body.error).toMatchObject({ code: 'quota_exceeded', type: 'server_error' });
  expect(got.listed).toEqual(['first.txt']);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  const after = await inPage(
    page,
    async ({ client }) =>
      (await client.files.create({ file: new File(['after'], 'after.txt'), purpose: 'assistants' })).filename,
    undefined,
  );
  expect(after).toBe('after.txt');
});

test("two tabs: a file one tab ingests or deletes shows in the other tab's search at once", async ({ context }) => {
  const [a, b] = [await context.newPage(), await context.newPage()];
  for (const page of [a, b]) {
    await openHarness(page, PAGE);
    await start(page, encoder.url);
  }
  const add = (page: Page, arg: { store?: string; name: string; text: string }) =>
    inPage(
      page,
      async ({ client }, { store, name, text }) => {
        const id = store ?? (await client.vectorStores.create({ name: 'shared' })).id;
        const file = await client.files.create({ file: new File([text], name), purpose: 'assistants' });
        await client.vectorStores.files.createAndPoll(id, { file_id: file.id });
        return { store: id, file: file.id };
      },
      arg,
    );
  const search = (page: Page, store: string, query: string) =>
    inPage(
      page,
      async ({ client }, { store, query }) =>
        (await client.vectorStores.search(store, { query, max_num_results: 5 })).data.map((hit) => hit.filename),
      { store, query },
    );
  const first = await add(b, { name: 'tea.txt', text: 'Masala tea is served at four in the afternoon.' });
  expect(await search(b, first.store, 'masala tea')).toEqual(['tea.txt']);
  await add(a, { store: first.store, name: 'vault.txt', text: 'The vault code is saffron.' });
  expect(await search(b, first.store, 'vault code saffron')).toContain('vault.txt');
  await inPage(a, async ({ client }, file) => void (await client.files.delete(file)), first.file);
  expect(await search(b, first.store, 'masala tea')).toEqual(['vault.txt']);
});

test('searches racing a cold index share its load; a change after it reaches the next search', async ({ page }) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const store = await inPage(
    page,
    async ({ client }) => {
      const store = await client.vectorStores.create({ name: 'cold' });
      const file = await client.files.create({
        file: new File(['Masala tea is served at four in the afternoon.'], 'tea.txt'),
        purpose: 'assistants',
      });
      await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id, attributes: { shop: 'pune' } });
      return { id: store.id, file: file.id };
    },
    undefined,
  );
  // A new page: the data worker holds no index, so the racing searches all wait on one load.
  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page, encoder.url);
  const got = await inPage(
    page,
    async ({ client }, { id, file }) => {
      const search = async (filters?: unknown) =>
        (await client.vectorStores.search(id, { query: 'masala tea', filters: filters as never })).data.map(
          (hit) => hit.filename,
        );
      const raced = await Promise.all([search(), search(), search()]);
      // New attributes drop the held index: the next search loads it again, with them.
      await client.vectorStores.files.update(file, { vector_store_id: id, attributes: { shop: 'delhi' } });
      return { raced, moved: await search({ type: 'eq', key: 'shop', value: 'delhi' }) };
    },
    store,
  );
  expect(got.raced).toEqual([['tea.txt'], ['tea.txt'], ['tea.txt']]);
  expect(got.moved).toEqual(['tea.txt']);
  expect(errors).toEqual([]);
});

test('a store index loads from the words cut at ingest; chunks of older builds (no words) are cut at load', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const store = await inPage(
    page,
    async ({ client }) => {
      const store = await client.vectorStores.create({ name: 'words' });
      for (const [name, text] of [
        ['tea.txt', 'Masala tea is served at four in the afternoon.'],
        ['old.txt', 'The lighthouse keeper logs the weather.'],
      ]) {
        const file = await client.files.create({ file: new File([text!], name!), purpose: 'assistants' });
        await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id });
      }
      return store.id;
    },
    undefined,
  );
  // Straight in the database: the stored words, then one chunk's words changed and the other's removed.
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('vaani-data');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const chunks = db.transaction('chunks', 'readwrite').objectStore('chunks');
    const rows = await new Promise<{ text: string; words?: string }[]>((resolve) => {
      const request = chunks.getAll();
      request.onsuccess = () => resolve(request.result);
    });
    const words = rows.map((row) => row.words);
    for (const row of rows)
      if (row.text.startsWith('Masala')) chunks.put({ ...row, words: 'zebra' });
      else chunks.put(Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'words')));
    await new Promise((resolve) => (chunks.transaction.oncomplete = resolve));
    db.close();
    return words;
  });
  expect(stored.sort()).toEqual([
    'masala tea is served at four in the afternoon',
    'the lighthouse keeper logs the weather',
  ]);
  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page, encoder.url);
  // Found by its words as well as by meaning ranks first (fused 1 against 0.5 for meaning alone).
  const top = await inPage(
    page,
    async ({ client }, store) => {
      const first = async (query: string) =>
        (await client.vectorStores.search(store, { query, max_num_results: 2 })).data[0]!.filename;
      return { zebra: await first('zebra'), lighthouse: await first('lighthouse keeper') };
    },
    store,
  );
  expect(top).toEqual({ zebra: 'tea.txt', lighthouse: 'old.txt' });
  expect(errors).toEqual([]);
});

test('CSV and JSON records: one chunk each, their fields searchable as attributes beside the file attributes', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const got = await inPage(
    page,
    async ({ client }) => {
      const csv = 'sku,name,price\nT1,Assam tea,120\nT2,Darjeeling tea,450\nC1,Filter coffee,90\n';
      const json = JSON.stringify([
        { sku: 'S1', name: 'Cardamom', price: 60 },
        { sku: 'S2', name: 'Saffron', price: 900 },
      ]);
      const store = await client.vectorStores.create({ name: 'catalogue' });
      for (const [name, text] of [
        ['catalogue.csv', csv],
        ['spices.json', json],
      ]) {
        const file = await client.files.create({ file: new File([text!], name!), purpose: 'assistants' });
        await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id, attributes: { shop: 'pune' } });
      }
      const search = async (query: string, filters?: unknown) =>
        (
          await client.vectorStores.search(store.id, { query, filters: filters as never, max_num_results: 10 })
        ).data.map((hit) => ({ text: hit.content[0]!.text, attributes: hit.attributes }));
      return {
        all: await search('tea'),
        dear: await search('tea', { type: 'gte', key: 'price', value: 400 }),
        spice: await search('saffron', {
          type: 'and',
          filters: [
            { type: 'eq', key: 'shop', value: 'pune' },
            { type: 'eq', key: 'sku', value: 'S2' },
          ],
        }),
      };
    },
    undefined,
  );
  expect(got.all).toHaveLength(5);
  expect(got.dear.map((hit) => hit.attributes!.sku).sort()).toEqual(['S2', 'T2']);
  expect(got.spice).toHaveLength(1);
  expect(got.spice[0]!.attributes).toMatchObject({ sku: 'S2', name: 'Saffron', price: 900, shop: 'pune' });
  expect(got.spice[0]!.text).toContain('Saffron');
  expect(errors).toEqual([]);
});

test('a cancelled batch ends its waiting files cancelled with no chunks; new attributes reach search filters; lists page and filter', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  await start(page, encoder.url);
  const got = await inPage(
    page,
    async ({ client }) => {
      const long = Array.from({ length: 600 }, (_, i) => `Entry ${i} of the long register.`).join('\n');
      const upload = (name: string, text: string) =>
        client.files.create({ file: new File([text], name), purpose: 'assistants' });
      const first = await upload('long.txt', long);
      const second = await upload('queued.txt', 'Queued behind the long file: the ferry leaves at noon.');
      const store = await client.vectorStores.create({ name: 'batches' });
      const batch = await client.vectorStores.fileBatches.create(store.id, { file_ids: [first.id, second.id] });
      const cancelled = await client.vectorStores.fileBatches.cancel(batch.id, { vector_store_id: store.id });
      // Wait for the ingestion queue: a later file added behind it completes.
      const later = await upload('later.txt', 'The lighthouse is painted red.');
      await client.vectorStores.files.createAndPoll(store.id, { file_id: later.id, attributes: { colour: 'red' } });
      const entries = await client.vectorStores.files.list(store.id);
      const content = await client.vectorStores.files.content(second.id, { vector_store_id: store.id });
      const filter = { type: 'eq', key: 'colour', value: 'white' } as const;
      const before = await client.vectorStores.search(store.id, { query: 'lighthouse', filters: filter });
      const updated = await client.vectorStores.files.update(later.id, {
        vector_store_id: store.id,
        attributes: { colour: 'white' },
      });
      const after = await client.vectorStores.search(store.id, { query: 'lighthouse', filters: filter });
      const completed = await client.vectorStores.files.list(store.id, { filter: 'completed' });
      const firstPage = await client.vectorStores.files.list(store.id, { limit: 2, order: 'asc' });
      const nextPage = await client.vectorStores.files.list(store.id, {
        limit: 2,
        order: 'asc',
        after: firstPage.data[1]!.id,
      });
      return {
        cancelled: cancelled.status,
        batchAfter: (await client.vectorStores.fileBatches.retrieve(batch.id, { vector_store_id: store.id })).status,
        statuses: Object.fromEntries(entries.data.map((entry) => [entry.id, entry.status])),
        ids: { first: first.id, second: second.id, later: later.id },
        secondChunks: content.data.length,
        before: before.data.length,
        updated: updated.attributes,
        after: after.data.map((hit) => hit.filename),
        completed: completed.data.map((entry) => entry.id),
        pages: [firstPage.data.length, firstPage.has_more, nextPage.data.length, nextPage.has_more],
      };
    },
    undefined,
  );
  expect(got.cancelled).toBe('cancelled');
  expect(got.batchAfter).toBe('cancelled');
  expect(got.statuses[got.ids.second]).toBe('cancelled');
  expect(['cancelled', 'completed']).toContain(got.statuses[got.ids.first]);
  expect(got.statuses[got.ids.later]).toBe('completed');
  expect(got.secondChunks).toBe(0);
  expect(got.before).toBe(0);
  expect(got.updated).toEqual({ colour: 'white' });
  expect(got.after).toEqual(['later.txt']);
  expect(got.completed).toContain(got.ids.later);
  expect(got.completed).not.toContain(got.ids.second);
  expect(got.pages).toEqual([2, true, 1, false]);
  expect(errors).toEqual([]);
});

test('keepFiles: false drops a file’s bytes once ingested; its chunks stay searchable and the bytes are a clear 404', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const got = await page.evaluate(async (url) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      data: { keepFiles: false },
      models: { 'embed-v1': { baseURL: url, dtype: 'fp32' } },
    });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    const file = await client.files.create({
      file: new File(['The night bus leaves from gate nine.'], 'bus.txt'),
      purpose: 'assistants',
    });
    const store = await client.vectorStores.create({ name: 'light' });
    const entry = await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id });
    const hits = await client.vectorStores.search(store.id, { query: 'night bus gate' });
    const content = await ai.fetch(`${ai.baseURL}/files/${file.id}/content`, {
      headers: { authorization: 'Bearer k' },
    });
    const other = await client.vectorStores.create({ name: 'other' });
    const again = await client.vectorStores.files.createAndPoll(other.id, { file_id: file.id });
    ai.dispose();
    return {
      status: entry.status,
      hit: hits.data[0]?.content[0]?.text,
      content: { status: content.status, body: await content.json() },
      again: { status: again.status, last_error: again.last_error },
    };
  }, encoder.url);
  expect(got.status).toBe('completed');
  expect(got.hit).toContain('gate nine');
  expect(got.content).toMatchObject({ status: 404, body: { error: { code: 'file_content_not_kept' } } });
  expect(got.again.status).toBe('failed');
  expect(got.again.last_error!.message).toMatch(/not kept/);
  expect((await rowsLeft(page)).blobs).toBe(0);
  expect(errors).toEqual([]);
});
