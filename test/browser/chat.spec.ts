import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { complete, decoderFor } from './support/chat';
import { openHarness } from './support/page';
import { transformersReference } from './support/transformers-reference';

const PAGE = '/test/browser/pages/chat.html';
const user = (content: string) => [{ role: 'user', content }];
const HINDI = user('भारत की राजधानी क्या है? Answer briefly.');

let llama: FixtureLocation;
let qwen: FixtureLocation;
let chunked: FixtureLocation;

test.beforeAll(async () => {
  llama = await ensureDecoderFixture('tiny-llama', tinyLlama);
  qwen = await ensureDecoderFixture('tiny-qwen2', tinyQwen2);
  chunked = await ensureDecoderFixture('tiny-llama-chunked', {
    ...tinyLlama,
    dtypes: ['fp32'],
    externalDataChunkBytes: 64 * 1024,
  });
});

test.describe('greedy output equals transformers.js token for token', () => {
  const cases = [
    { name: 'llama fp32', fixture: () => llama, dtype: 'fp32' as const },
    { name: 'qwen2 fp32 (tied, biases, num_logits_to_keep)', fixture: () => qwen, dtype: 'fp32' as const },
    { name: 'qwen2 fp16 (fp16 weights, cache and logits)', fixture: () => qwen, dtype: 'fp16' as const },
  ];
  for (const { name, fixture, dtype } of cases) {
    test(name, async ({ page }) => {
      const errors = await openHarness(page, PAGE);
      const steps = 24;
      const reference = await transformersReference(page, {
        fixtureUrl: fixture().url,
        dtype,
        messages: HINDI as never,
        maxNewTokens: steps,
      });
      const [answer] = await complete(page, { baseURL: fixture().url, dtype }, [
        { messages: HINDI, temperature: 0, max_tokens: steps },
      ]);
      expect(errors).toEqual([]);
      const eos = new Set([fixture().specialTokens.imEnd, fixture().specialTokens.endOfText]);
      const ended = reference.tokens.length > 0 && eos.has(reference.tokens.at(-1)!);
      const tokens = ended ? reference.tokens.slice(0, -1) : reference.tokens;
      expect(tokens.length).toBeGreaterThan(4);
      expect(answer!.status).toBe(200);
      expect(answer!.backend).toBe('wasm');
      expect(answer!.json.choices[0]!.message.content).toBe(decoderFor(fixture().dir)(tokens));
      expect(answer!.json.usage).toEqual({
        prompt_tokens: reference.promptIds.length,
        completion_tokens: tokens.length,
        total_tokens: reference.promptIds.length + tokens.length,
      });
      expect(answer!.json.choices[0]!.finish_reason).toBe(ended ? 'stop' : 'length');
    });
  }
});

test('external data split into _data_N chunks loads and gives the same text', async ({ page }) => {
  await openHarness(page, PAGE);
  expect(chunked.files.filter((file) => /model\.onnx_data_\d+$/.test(file)).length).toBeGreaterThan(0);
  const body = { messages: HINDI, temperature: 0, max_tokens: 16 };
  const [whole] = await complete(page, { baseURL: llama.url, dtype: 'fp32' }, [body]);
  const [split] = await complete(page, { baseURL: chunked.url }, [body]);
  expect(split!.json.choices[0]!.message.content).toBe(whole!.json.choices[0]!.message.content);
});

test('the openai SDK streams a completion through the shim, with usage, equal to the whole answer', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, messages }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      ai.install();
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const whole = await client.chat.completions.create({
        model: 'chat-v2',
        messages: messages as never,
        temperature: 0,
        max_tokens: 20,
      });
      const chunks = [];
      const stream = await client.chat.completions.create({
        model: 'chat-v2',
        messages: messages as never,
        temperature: 0,
        max_tokens: 20,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
      ai.dispose();
      return { whole, chunks };
    },
    { base: qwen.url, messages: HINDI },
  );
  const { whole, chunks } = result;
  expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
  const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  expect(content).toBe(whole.choices[0]!.message.content);
  expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(3);
  // A random model may emit byte sequences that are never valid UTF-8 (U+FFFD in the whole answer too);
  // what streaming must not do is split a character: no chunk starts or ends inside a surrogate pair.
  for (const chunk of chunks)
    expect(chunk.choices[0]?.delta.content ?? '').not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
  expect(chunks.at(-1)!.usage).toEqual(whole.usage);
});

test('aborting mid-stream stops generation and frees the worker for the next request', async ({ page }) => {
  await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, messages }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const body = { model: 'chat-v2', messages: messages as never, temperature: 1, seed: 1, max_tokens: 3000 };
      const full = performance.now();
      const long = await client.chat.completions.create({ ...body, max_tokens: 600 });
      const fullMs = performance.now() - full;
      const controller = new AbortController();
      const stream = await client.chat.completions.create({ ...body, stream: true }, { signal: controller.signal });
      let received = 0;
      let afterAbort = 0;
      for await (const chunk of stream) {
        if (controller.signal.aborted) afterAbort++;
        else if (chunk.choices[0]?.delta.content && ++received === 3) controller.abort();
      }
      const next = performance.now();
      const after = await client.chat.completions.create({ ...body, max_tokens: 5 });
      const nextMs = performance.now() - next;
      ai.dispose();
      return { afterAbort, received, after, fullMs, nextMs, longTokens: long.usage!.completion_tokens };
    },
    { base: qwen.url, messages: HINDI },
  );
  expect(result.received).toBe(3);
  expect(result.afterAbort).toBe(0);
  expect(result.after.choices[0]!.message.content!.length).toBeGreaterThan(0);
  expect(result.after.usage!.completion_tokens).toBeLessThanOrEqual(5);
  // Had the aborted request run on to its 3000 tokens, the next one would have waited behind it.
  expect(result.longTokens).toBe(600);
  expect(result.nextMs).toBeLessThan(result.fullMs);
});

test('bad requests get OpenAI-shaped 400s and the next request still works', async ({ page }) => {
  await openHarness(page, PAGE);
  const answers = await complete(page, { baseURL: llama.url }, [
    { messages: HINDI, max_tokens: 4000 },
    {
      messages: [
        { role: 'system', content: 'a' },
        { role: 'system', content: 'b' },
      ],
    },
    { messages: HINDI, temperature: 0, max_tokens: 4 },
  ]);
  const [tooLong, rejected, fine] = answers as [(typeof answers)[0], (typeof answers)[0], (typeof answers)[0]];
  expect(tooLong.status).toBe(400);
  expect(tooLong.json.error).toMatchObject({
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    param: 'messages',
  });
  expect(tooLong.json.error!.message).toContain('2048');
  expect(rejected.status).toBe(400);
  expect(rejected.json.error).toMatchObject({ code: 'invalid_messages', param: 'messages' });
  expect(rejected.json.error!.message).toContain('Unknown message role: system');
  expect(fine.status).toBe(200);
  expect(fine.json.usage!.completion_tokens).toBe(4);
});

test('sampling: the same seed gives the same text, another seed another; penalties change greedy output', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  const sampled = { messages: HINDI, temperature: 1, top_p: 0.95, top_k: 50, max_tokens: 24 };
  const greedy = { messages: HINDI, temperature: 0, max_tokens: 48 };
  const [a, b, c, plain, penalised] = await complete(page, { baseURL: qwen.url }, [
    { ...sampled, seed: 7 },
    { ...sampled, seed: 7 },
    { ...sampled, seed: 8 },
    greedy,
    { ...greedy, frequency_penalty: 2, presence_penalty: 2 },
  ]);
  const text = (answer: typeof a) => answer!.json.choices[0]!.message.content;
  expect(text(a)).toBe(text(b));
  expect(text(a)).not.toBe(text(c));
  expect(text(penalised)).not.toBe(text(plain));
});

test('stop strings end the answer before them and are never emitted, streamed or not', async ({ page }) => {
  await openHarness(page, PAGE);
  const body = { messages: HINDI, temperature: 0, max_tokens: 32 };
  const [full] = await complete(page, { baseURL: qwen.url }, [body]);
  expect(full!.status, JSON.stringify(full!.json)).toBe(200);
  const text = full!.json.choices[0]!.message.content!;
  const stop = text.slice(10, 13);
  const expected = text.slice(0, text.indexOf(stop));
  const [cut] = await complete(page, { baseURL: qwen.url }, [{ ...body, stop: [stop, 'never-there'] }]);
  expect(cut!.json.choices[0]!.message.content).toBe(expected);
  expect(cut!.json.choices[0]!.finish_reason).toBe('stop');
  const streamed = await page.evaluate(
    async ({ base, body }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      let content = '';
      const stream = await client.chat.completions.create({
        ...(body as unknown as { messages: never }),
        model: 'chat-v2',
        stream: true,
      });
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
      ai.dispose();
      return content;
    },
    { base: qwen.url, body: { ...body, stop } },
  );
  expect(streamed).toBe(expected);
});

test('tools are rendered into the prompt by the model template', async ({ page }) => {
  await openHarness(page, PAGE);
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];
  const body = { messages: HINDI, temperature: 0, max_tokens: 8 };
  const [plain, withTools, toolsOff] = await complete(page, { baseURL: qwen.url }, [
    body,
    { ...body, tools },
    { ...body, tools, tool_choice: 'none' },
  ]);
  expect(withTools!.json.usage!.prompt_tokens).toBeGreaterThan(plain!.json.usage!.prompt_tokens + 20);
  expect(toolsOff!.json.usage!.prompt_tokens).toBe(plain!.json.usage!.prompt_tokens);
  expect(withTools!.status).toBe(200);
});
