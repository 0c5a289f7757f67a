import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../fixtures/encoder/fixture-dir';
import { tinyBert, tinyXlmr } from '../fixtures/encoder/spec';
import { openHarness } from './support/page';

let xlmr: EncoderFixtureLocation;
let bert: EncoderFixtureLocation;
test.beforeAll(async () => {
  xlmr = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
  bert = await ensureEncoderFixture('tiny-bert', tinyBert);
});

const MEMORIES = [
  { text: 'मुझे चाय पसंद है।', metadata: { lang: 'hi', year: 2024 }, scope: { user_id: 'asha' } },
  { text: 'எனக்கு காபி பிடிக்கும்.', metadata: { lang: 'ta', year: 2023 }, scope: { user_id: 'asha' } },
  {
    text: 'My birthday is in March.',
    metadata: { lang: 'en', year: 2025 },
    scope: { user_id: 'asha', agent_id: 'cal' },
  },
  { text: 'I live in Delhi and like tea.', metadata: { lang: 'en', year: 2022 }, scope: { user_id: 'ravi' } },
  { text: 'मेरा जन्मदिन मार्च में है।', metadata: { lang: 'hi', year: 2021 }, scope: { user_id: 'ravi' } },
];

/** A Vaani in the page whose embed-v1 is a fixture; `window.ai` for the steps below. */
async function start(page: Page, url: string) {
  await page.evaluate((url) => {
    (window as unknown as { ai: unknown }).ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: {
        'embed-v1': {
          baseURL: url,
          dtype: 'fp32',
          embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
        },
      },
    });
  }, url);
}

type Ai = ReturnType<typeof window.Vaani.createVaani>;
const inPage = <T, A>(page: Page, run: (ai: Ai, arg: A) => Promise<T>, arg: A) =>
  page.evaluate(
    ({ source, arg }) =>
      new Function('ai', 'arg', `return (${source})(ai, arg)`)((window as unknown as { ai: Ai }).ai, arg),
    { source: run.toString(), arg },
  ) as Promise<T>;

async function post(page: Page, path: string, body: unknown, method = 'POST') {
  return inPage(
    page,
    async (ai, { path, body, method }) => {
      const response = await ai.fetch(`${ai.baseURL}${path}`, {
        method,
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    { path, body, method },
  );
}

test('stored in one page load, found after a reload by meaning, by Hindi and Tamil words, by scope and metadata', async ({
  page,
}) => {
  await openHarness(page);
  await start(page, xlmr.url);
  const stored = await post(page, '/memory/store', { items: MEMORIES });
  expect(stored.status).toBe(200);
  expect(stored.body.data).toHaveLength(5);
  expect(stored.body.data[0]).toMatchObject({
    object: 'memory',
    text: MEMORIES[0]!.text,
    scope: { user_id: 'asha' },
    model: 'embed-v1',
  });
  expect(stored.body.usage.prompt_tokens).toBeGreaterThan(5);
  // The first store asked the browser to keep the site's storage: the page's one request, which the plan reports.
  const persist = await inPage(page, async (ai) => (await ai.plan('memory')).persist, undefined);
  expect(persist.asked).toBe(true);

  await page.reload();
  await page.waitForFunction(() => document.title === 'ready');
  await start(page, xlmr.url);

  const hindi = await post(page, '/memory/search', { query: 'चाय', mode: 'keyword', scope: { user_id: 'asha' } });
  expect(hindi.body.data.map((hit: { text: string }) => hit.text)).toEqual([MEMORIES[0]!.text]);
  const tamil = await post(page, '/memory/search', { query: 'காபி', mode: 'keyword' });
  expect(tamil.body.data.map((hit: { text: string }) => hit.text)).toEqual([MEMORIES[1]!.text]);
  const filtered = await post(page, '/memory/search', {
    query: 'birthday',
    mode: 'hybrid',
    filters: {
      type: 'and',
      filters: [
        { type: 'gte', key: 'year', value: 2022 },
        { type: 'in', key: 'lang', value: ['en', 'hi'] },
      ],
    },
  });
  expect(filtered.body.data.map((hit: { text: string }) => hit.text).sort()).toEqual(
    [MEMORIES[0]!.text, MEMORIES[2]!.text, MEMORIES[3]!.text].sort(),
  );
  expect(filtered.body.data[0].text).toBe(MEMORIES[2]!.text);

  // By meaning: the semantic ranking equals a brute-force ranking of /v1/embeddings vectors (query: / passage: prefixes).
  const query = 'Where do I live?';
  const semantic = await post(page, '/memory/search', { query, mode: 'semantic', limit: 5 });
  const vectors = await post(page, '/embeddings', {
    model: 'embed-v1',
    input: [`query: ${query}`, ...MEMORIES.map((memory) => `passage: ${memory.text}`)],
  });
  const [q, ...passages] = vectors.body.data.map((item: { embedding: number[] }) => item.embedding);
  const expected = passages
    .map((vector: number[], i: number) => ({
      text: MEMORIES[i]!.text,
      score: vector.reduce((s, x, d) => s + x * q[d], 0),
    }))
    .sort((a: { score: number }, b: { score: number }) => b.score - a.score);
  expect(semantic.body.data.map((hit: { text: string }) => hit.text)).toEqual(
    expected.map((e: { text: string }) => e.text),
  );
  semantic.body.data.forEach((hit: { score: number }, i: number) =>
    expect(hit.score).toBeCloseTo(expected[i].score, 5),
  );
  const strict = await post(page, '/memory/search', { query, mode: 'semantic', min_score: expected[1].score + 1e-6 });
  expect(strict.body.data).toHaveLength(1);

  // The same through ai.memory: scope, list paging, get, update (re-embedded), delete by id and by scope.
  const steps = await inPage(
    page,
    async (ai) => {
      const scoped = await ai.memory.search({ query: 'जन्मदिन', mode: 'keyword', scope: { user_id: 'ravi' } });
      const pages = [];
      let after: string | undefined;
      for (;;) {
        const page = await ai.memory.list({ limit: 2, after, order: 'asc' });
        pages.push(page.data.map((memory) => memory.text));
        if (!page.has_more) break;
        after = page.last_id!;
      }
      const asha = await ai.memory.list({ scope: { user_id: 'asha' } });
      const first = asha.data.at(-1)!;
      const got = await ai.memory.get(first.id);
      const updated = await ai.memory.update(first.id, {
        text: 'मुझे कॉफ़ी पसंद है।',
        metadata: { lang: 'hi', year: 2026 },
      });
      const found = await ai.memory.search({ query: 'कॉफ़ी', mode: 'keyword' });
      await ai.memory.delete(first.id);
      const gone = await ai.memory
        .get(first.id)
        .catch((error: { status: number; code: string }) => [error.status, error.code]);
      const removed = await ai.memory.deleteScope({ user_id: 'ravi' });
      const left = await ai.memory.list({});
      return { scoped, pages, got, updated, found, gone, removed, left: left.data.map((memory) => memory.text) };
    },
    undefined,
  );
  expect(steps.scoped.map((hit) => hit.text)).toEqual([MEMORIES[4]!.text]);
  expect(steps.pages.flat()).toEqual(MEMORIES.map((memory) => memory.text));
  expect(steps.pages.map((page) => page.length)).toEqual([2, 2, 1]);
  expect(steps.got.text).toBe(MEMORIES[0]!.text);
  expect(steps.updated).toMatchObject({ text: 'मुझे कॉफ़ी पसंद है।', metadata: { year: 2026 } });
  expect(steps.found.map((hit) => hit.id)).toEqual([steps.got.id]);
  expect(steps.gone).toEqual([404, 'memory_not_found']);
  expect(steps.removed).toBe(2);
  expect(steps.left.sort()).toEqual([MEMORIES[1]!.text, MEMORIES[2]!.text].sort());
});

test('bad requests get clear 400s and lose nothing; a model change is refused', async ({ page }) => {
  await openHarness(page);
  await start(page, xlmr.url);
  await post(page, '/memory/store', { text: 'कल बारिश हुई', scope: { user_id: 'u' } });
  const bad = {
    empty: await post(page, '/memory/store', { text: '   ' }),
    both: await post(page, '/memory/store', { text: 'a', items: [{ text: 'b' }] }),
    metadata: await post(page, '/memory/store', { text: 'a', metadata: { nested: { x: 1 } } }),
    filter: await post(page, '/memory/search', { query: 'x', filters: { type: 'near', key: 'a', value: 1 } }),
    mode: await post(page, '/memory/search', { query: 'x', mode: 'fuzzy' }),
    noScope: await post(page, '/memory/delete', { scope: {} }),
    model: await post(page, '/memory/store', { model: 'chat-v2', text: 'x' }),
    json: await post(page, '/memory/store', '{"text": '),
    unknown: await post(page, '/memory/mem_nope', undefined, 'GET'),
    method: await post(page, '/memory/search', undefined, 'GET'),
  };
  expect(Object.fromEntries(Object.entries(bad).map(([name, r]) => [name, [r.status, r.body.error.param]]))).toEqual({
    empty: [400, 'text'],
    both: [400, null],
    metadata: [400, 'metadata.nested'],
    filter: [400, 'filters'],
    mode: [400, 'mode'],
    noScope: [400, 'scope'],
    model: [400, 'model'],
    json: [400, null],
    unknown: [404, 'id'],
    method: [405, null],
  });
  const list = await post(page, '/memory?user_id=u', undefined, 'GET');
  expect(list.body.data.map((memory: { text: string }) => memory.text)).toEqual(['कल बारिश हुई']);

  // Another embedding model on the same store: refused, never mixed; keyword search needs no model and still works.
  await start(page, bert.url);
  const mixed = await post(page, '/memory/store', { text: 'another model' });
  expect(mixed.status).toBe(409);
  expect(mixed.body.error.code).toBe('embedding_model_mismatch');
  const semantic = await post(page, '/memory/search', { query: 'बारिश', mode: 'semantic' });
  expect(semantic.status).toBe(409);
  const keyword = await post(page, '/memory/search', { query: 'बारिश', mode: 'keyword' });
  expect(keyword.body.data).toHaveLength(1);
});

test('the memory engine embeds: keyword search needs no loadable model, the others say it is unavailable', async ({
  page,
}) => {
  await openHarness(page);
  await start(page, xlmr.url);
  expect((await post(page, '/memory/store', { text: 'कल बारिश हुई' })).status).toBe(200);
  // The same store, now with embed-v1's files nowhere to be found.
  await start(page, '/test/.fixtures/no-such-encoder/');
  const keyword = await post(page, '/memory/search', { query: 'बारिश', mode: 'keyword' });
  expect(keyword.status).toBe(200);
  expect(keyword.body.data.map((hit: { text: string }) => hit.text)).toEqual(['कल बारिश हुई']);
  expect(keyword.body.usage).toEqual({ prompt_tokens: 0, total_tokens: 0 });
  const semantic = await post(page, '/memory/search', { query: 'बारिश', mode: 'semantic' });
  expect([semantic.status, semantic.body.error.code]).toEqual([503, 'model_unavailable']);
  const stored = await post(page, '/memory/store', { text: 'आज धूप है' });
  expect([stored.status, stored.body.error.code]).toEqual([503, 'model_unavailable']);
  const list = await post(page, '/memory', undefined, 'GET');
  expect(list.body.data.map((memory: { text: string }) => memory.text)).toEqual(['कल बारिश हुई']);
});

test('two tabs writing at once lose nothing, and each sees the other’s memories', async ({ context }) => {
  const pages = [await context.newPage(), await context.newPage()];
  for (const page of pages) {
    await openHarness(page);
    await start(page, xlmr.url);
  }
  const writes = await Promise.all(
    pages.map((page, tab) =>
      inPage(
        page,
        async (ai, tab) => {
          const batches = Array.from({ length: 8 }, (_, b) =>
            ai.memory.store(
              Array.from({ length: 3 }, (_, i) => ({
                text: `tab${tab} batch${b} note${i}`,
                scope: { user_id: `tab${tab}` },
              })),
            ),
          );
          return (await Promise.all(batches)).flat().length;
        },
        tab,
      ),
    ),
  );
  expect(writes).toEqual([24, 24]);
  for (const [tab, page] of pages.entries()) {
    const seen = await inPage(
      page,
      async (ai, other) => {
        const all = await ai.memory.list({ limit: 100 });
        const theirs = await ai.memory.search({
          query: 'note1',
          mode: 'keyword',
          scope: { user_id: `tab${other}` },
          limit: 100,
        });
        return { all: all.data.length, theirs: theirs.length };
      },
      1 - tab,
    );
    expect(seen).toEqual({ all: 48, theirs: 8 });
  }
});

test('a full quota is a 507 quota_exceeded with nothing half-written; the next request works', async ({ page }) => {
  await openHarness(page);
  // Chromium's IndexedDB reads the quota when it first opens the origin's storage, so the override
  // comes before anything is stored: 1 MiB holds the fixture's weights and 'first', not 1.2 MB more.
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
  await start(page, xlmr.url);
  expect((await post(page, '/memory/store', { text: 'first' })).status).toBe(200);
  // Incompressible text: Chromium compresses IndexedDB values, so a repeated letter would fit.
  const letters = () => Array.from(randomBytes(30_000), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
  const big = Array.from({ length: 40 }, (_, i) => ({ text: `${i} ${letters()}` }));
  const full = await post(page, '/memory/store', { items: big });
  expect(full.status).toBe(507);
  expect(full.body.error).toMatchObject({ code: 'quota_exceeded', type: 'server_error' });
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  const list = await post(page, '/memory', undefined, 'GET');
  expect(list.body.data.map((memory: { text: string }) => memory.text)).toEqual(['first']);
  const after = await post(page, '/memory/store', { text: 'after' });
  expect(after.status).toBe(200);
});

test("a model's weights past the weight store's room are a 507 quota_exceeded naming the bytes", async ({ page }) => {
  await openHarness(page);
  // Room for the small files, not the graph: the load fails on the graph, inside the backend attempts.
  const sizes = xlmr.files.map((file) => statSync(join(xlmr.dir, file)).size);
  const graph = Math.max(...sizes);
  const budget = sizes.reduce((sum, size) => sum + size, 0) - graph + 1;
  const embed = (budget?: number) =>
    page.evaluate(
      async ({ url, budget }) => {
        const ai = window.Vaani.createVaani({
          backend: 'wasm',
          store: budget === undefined ? {} : { budget },
          models: { 'embed-v1': { baseURL: url, dtype: 'fp32' } },
        });
        const response = await ai.fetch(`${ai.baseURL}/embeddings`, {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'embed-v1', input: 'नमस्ते' }),
        });
        const body = await response.json();
        ai.dispose();
        return { status: response.status, body };
      },
      { url: xlmr.url, budget },
    );
  const full = await embed(budget);
  expect(full.status).toBe(507);
  expect(full.body.error).toMatchObject({ type: 'server_error', code: 'quota_exceeded' });
  expect(full.body.error.message).toMatch(/^Not enough space in the cache budget for \S+ from http\S+: it needs /);
  const after = await embed();
  expect(after.status).toBe(200);
  expect(after.body.data[0].embedding.length).toBeGreaterThan(0);
});
