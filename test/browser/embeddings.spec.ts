import { expect, test } from '@playwright/test';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../fixtures/encoder/fixture-dir';
import { tinyBert, tinyXlmr } from '../fixtures/encoder/spec';
import { maxAbsDiff, referenceEmbeddings, referenceIds } from './support/encoder-reference';
import { openHarness } from './support/page';

const texts = ['नमस्ते, मुझे चाय पसंद है।', 'எனக்கு காபி பிடிக்கும்.', 'Hello world, how are you today?', 'tea'];

let xlmr: EncoderFixtureLocation;
let bert: EncoderFixtureLocation;
test.beforeAll(async () => {
  xlmr = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
  bert = await ensureEncoderFixture('tiny-bert', tinyBert);
});

test('openai SDK (default retries, base64 by default) and float: unit vectors of the model width equal to transformers.js', async ({
  page,
}) => {
  const errors = await openHarness(page);
  for (const fixture of [xlmr, bert]) {
    const got = await page.evaluate(
      async ({ url, texts }) => {
        const ai = window.Vaani.createVaani({
          backend: 'wasm',
          models: { 'embed-v1': { baseURL: url, dtype: 'fp32' } },
        });
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
        });
        const sent: string[] = [];
        const spy: typeof fetch = (input, init) => {
          sent.push(String(init?.body));
          return ai.fetch(input, init);
        };
        const spied = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: spy,
          dangerouslyAllowBrowser: true,
        });
        const base64 = await spied.embeddings.create({ model: 'text-embedding-3-small', input: texts });
        const float = await client.embeddings.create({ model: 'embed-v1', input: texts, encoding_format: 'float' });
        const single = await client.embeddings.create({ model: 'text-embedding-3-large', input: texts[0]! });
        ai.dispose();
        return { base64, float, single, sent };
      },
      { url: fixture.url, texts },
    );
    expect(JSON.parse(got.sent[0]!).encoding_format).toBe('base64');
    const expected = await referenceEmbeddings(fixture.dir, texts);
    for (const response of [got.base64, got.float]) {
      expect(response.object).toBe('list');
      expect(response.data.map((item) => item.index)).toEqual([0, 1, 2, 3]);
      response.data.forEach((item, i) => {
        expect(item.embedding).toHaveLength(fixture.options.hiddenSize);
        expect(Math.hypot(...item.embedding)).toBeCloseTo(1, 5);
        expect(maxAbsDiff(item.embedding, expected[i]!)).toBeLessThan(1e-4);
      });
    }
    const ids = await Promise.all(texts.map((text) => referenceIds(fixture.dir, text)));
    const tokens = ids.reduce((sum, row) => sum + row.length, 0);
    expect(got.float.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
    expect(got.base64.model).toBe('text-embedding-3-small');
    expect(maxAbsDiff(got.single.data[0]!.embedding, expected[0]!)).toBeLessThan(1e-4);
  }
  expect(errors).toEqual([]);
});

test('token arrays, dimensions, truncation and clear 400s; the next request still works', async ({ page }) => {
  await openHarness(page);
  const bare = await referenceIds(xlmr.dir, texts[0]!, false);
  const got = await page.evaluate(
    async ({ url, bare, text }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'embed-v1': { baseURL: url, dtype: 'fp32' } } });
      const cut = window.Vaani.createVaani({
        backend: 'wasm',
        baseURL: '/cut/v1',
        models: { 'embed-v1': { baseURL: url, dtype: 'fp32', embedding: { truncatable: true } } },
      });
      const post = async (body: unknown, target = ai) => {
        const response = await target.fetch(`${target.baseURL}/embeddings`, {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        });
        return {
          status: response.status,
          truncated: response.headers.get('x-vaani-truncated-inputs'),
          body: await response.json(),
        };
      };
      const out = {
        tokens: await post({ model: 'embed-v1', input: [bare], encoding_format: 'float' }),
        text: await post({ model: 'embed-v1', input: text, encoding_format: 'float' }),
        flat: await post({ model: 'embed-v1', input: bare, encoding_format: 'float' }),
        long: await post({ model: 'embed-v1', input: ['word '.repeat(500), 'short'], encoding_format: 'float' }),
        empty: await post({ model: 'embed-v1', input: ['ok', ''] }),
        tooMany: await post({ model: 'embed-v1', input: Array(2049).fill('x') }),
        badToken: await post({ model: 'embed-v1', input: [[1, 99999]] }),
        badFormat: await post({ model: 'embed-v1', input: 'x', encoding_format: 'int8' }),
        wrongProduct: await post({ model: 'chat-v2', input: 'x' }),
        unknown: await post({ model: 'nope', input: 'x' }),
        badJson: await post('{"model": "embed-v1", "input": '),
        fixedWidth: await post({ model: 'embed-v1', input: 'x', dimensions: 16 }),
        sameWidth: await post({ model: 'embed-v1', input: 'x', dimensions: 48, encoding_format: 'float' }),
        full: await post({ model: 'embed-v1', input: 'x', encoding_format: 'float' }, cut),
        short: await post({ model: 'embed-v1', input: 'x', dimensions: 16, encoding_format: 'float' }, cut),
        after: await post({ model: 'embed-v1', input: 'after', encoding_format: 'float' }),
      };
      ai.dispose();
      cut.dispose();
      return out;
    },
    { url: xlmr.url, bare, text: texts[0]! },
  );
  expect(got.tokens.status).toBe(200);
  expect(maxAbsDiff(got.tokens.body.data[0].embedding, got.text.body.data[0].embedding)).toBeLessThan(1e-6);
  expect(maxAbsDiff(got.flat.body.data[0].embedding, got.text.body.data[0].embedding)).toBeLessThan(1e-6);
  expect(got.long.status).toBe(200);
  expect(got.long.truncated).toBe('0');
  expect(got.long.body.usage.prompt_tokens).toBe(tinyXlmr.maxLength + (await referenceIds(xlmr.dir, 'short')).length);
  const names = ['empty', 'tooMany', 'badToken', 'badFormat', 'wrongProduct', 'fixedWidth'] as const;
  expect(names.map((name) => [name, got[name].status, got[name].body.error.param])).toEqual([
    ['empty', 400, 'input[1]'],
    ['tooMany', 400, 'input'],
    ['badToken', 400, 'input[0]'],
    ['badFormat', 400, 'encoding_format'],
    ['wrongProduct', 400, 'model'],
    ['fixedWidth', 400, 'dimensions'],
  ]);
  expect(got.unknown.status).toBe(404);
  expect(got.badJson.status).toBe(400);
  expect(got.sameWidth.body.data[0].embedding).toHaveLength(48);
  const short = got.short.body.data[0].embedding as number[];
  const sliced = (got.full.body.data[0].embedding as number[]).slice(0, 16);
  const norm = Math.hypot(...sliced);
  expect(
    maxAbsDiff(
      short,
      sliced.map((x) => x / norm),
    ),
  ).toBeLessThan(1e-6);
  expect(got.after.status).toBe(200);
});
