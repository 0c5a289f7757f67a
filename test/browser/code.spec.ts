import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyQwen2, tinyQwenCoder } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const PREFIX = 'def add(a, b):\n    ';
const SUFFIX = '\n\nprint(add(1, 2))\n';

let coder: FixtureLocation;
let plain: FixtureLocation;

test.beforeAll(async () => {
  coder = await ensureDecoderFixture('tiny-qwen-coder', { ...tinyQwenCoder, dtypes: ['fp32'] });
  plain = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
});

/** The ids generation stops on for a raw completion: eos and the FIM family, read from the tokenizer. */
function stopIds(fixture: FixtureLocation): number[] {
  const tokenizer = JSON.parse(readFileSync(join(fixture.dir, 'tokenizer.json'), 'utf8')) as {
    added_tokens: { id: number; content: string }[];
  };
  const stops = ['<|im_end|>', '<|endoftext|>', '<|fim_pad|>', '<|file_sep|>', '<|repo_name|>'];
  return tokenizer.added_tokens
    .filter((t) => stops.includes(t.content) || t.content.startsWith('<|fim_'))
    .map((t) => t.id);
}

test('code-v1 in the page: fill-in-the-middle through the openai SDK (default retries) equals a plain onnxruntime loop over the reference FIM prompt, whole and streamed; /completions with a suffix too; explain mode', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ coderUrl, plainUrl, prefix, suffix, stops }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'code-v1': { baseURL: plainUrl }, 'code-v1-base': { baseURL: coderUrl } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      type Completion = {
        choices: { text: string; finish_reason: string; code?: unknown }[];
        usage: { prompt_tokens: number };
      };
      const body = { prompt: prefix, suffix, max_tokens: 10, temperature: 0 };
      const whole = (await client.post('/code/completions', { body })) as Completion;
      const stream = (await client.post('/code/completions', {
        body: { ...body, stream: true },
        stream: true,
      })) as unknown as AsyncIterable<Completion>;
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? '';
      const legacy = await client.completions.create({
        model: 'code-v1',
        prompt: prefix,
        suffix,
        max_tokens: 10,
        temperature: 0,
      });
      const explain = (await client.post('/code/completions', {
        body: { prompt: prefix, mode: 'explain', language: 'python', max_tokens: 8, temperature: 0 },
      })) as Completion;
      const debug = (await client.post('/code/completions', {
        body: { prompt: prefix, mode: 'debug', max_tokens: 8, temperature: 0 },
      })) as Completion;
      const line = (await client.post('/code/completions', {
        body: { prompt: prefix, max_tokens: 24, temperature: 0, boundary: 'line' },
      })) as Completion;
      const reference = await window.chatReference.greedyWithoutCache({
        base: coderUrl,
        graph: 'onnx/model.onnx',
        externalData: ['onnx/model.onnx_data'],
        messages: [],
        rawPrompt: `<|fim_prefix|>${prefix}<|fim_suffix|>${suffix}<|fim_middle|>`,
        steps: 10,
        stopIds: stops,
      });
      ai.dispose();
      return { whole, streamed, legacy, explain, debug, line, reference };
    },
    { coderUrl: coder.url, plainUrl: plain.url, prefix: PREFIX, suffix: SUFFIX, stops: stopIds(coder) },
  );
  expect(errors).toEqual([]);
  const { whole, reference } = result;
  expect(reference.generated.length).toBeGreaterThan(0);
  expect(whole.choices[0]!.text).toBe(reference.text);
  expect(whole.usage.prompt_tokens).toBe(reference.promptTokens);
  expect(result.streamed).toBe(reference.text);
  expect(result.legacy.choices[0]!.text).toBe(reference.text);
  expect(result.explain.choices[0]!.text.length).toBeGreaterThan(0);
  expect(result.explain.usage.prompt_tokens).toBeGreaterThan(20); // the mode's prompt in the chat template
  expect(result.debug.choices[0]).toHaveProperty('code');
  expect(result.line.choices[0]!.text.trimStart()).not.toContain('\n');
});

test('a suffix on a model without FIM tokens is a 400 naming suffix, and the next request works; bad modes are 400s', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ plainUrl }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'code-v1': { baseURL: plainUrl }, 'code-v1-base': { baseURL: plainUrl } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const failure = (e: { status: number; param: string; code: string }) => ({
        status: e.status,
        param: e.param,
        code: e.code,
      });
      const noFim = await client
        .post('/code/completions', { body: { prompt: 'x = ', suffix: '\n', max_tokens: 4 } })
        .catch(failure);
      const badMode = await client
        .post('/code/completions', { body: { prompt: 'x', mode: 'refactor' } })
        .catch(failure);
      const next = (await client.post('/code/completions', { body: { prompt: 'x = ', max_tokens: 4 } })) as {
        object: string;
      };
      ai.dispose();
      return { noFim, badMode, next };
    },
    { plainUrl: plain.url },
  );
  expect(errors).toEqual([]);
  expect(result.noFim).toEqual({ status: 400, param: 'suffix', code: 'unsupported_value' });
  expect(result.badMode).toEqual({ status: 400, param: 'mode', code: 'invalid_value' });
  expect(result.next.object).toBe('text_completion');
});

test("legacy completions on code-v1 without code-v1-base's files: the 503 names code-v1-base, its folder and the pull line; explain still runs on code-v1", async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ plainUrl }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'code-v1': { baseURL: plainUrl }, 'code-v1-base': { baseURL: '/test/.fixtures/no-code-v1-base/' } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const failure = (e: { status: number; code: string; message: string }) => ({
        status: e.status,
        code: e.code,
        message: e.message,
      });
      const legacy = await client.completions
        .create({ model: 'code-v1', prompt: 'def add(a, b):', max_tokens: 4 })
        .catch(failure);
      const explain = (await client.post('/code/completions', {
        body: { prompt: 'a + b', mode: 'explain', max_tokens: 4, temperature: 0 },
      })) as { object: string };
      ai.dispose();
      return { legacy, explain: explain.object };
    },
    { plainUrl: plain.url },
  );
  expect(errors).toEqual([]);
  expect(result.legacy).toMatchObject({ status: 503, code: 'model_unavailable' });
  const { message } = result.legacy as { message: string };
  expect(message).toContain('on code-v1 run on its base model, code-v1-base');
  expect(message).toMatch(/The folder http:\/\/localhost:\d+\/test\/\.fixtures\/no-code-v1-base\/ has no /);
  expect(message).toContain('npx vaani pull code-v1-base');
  expect(result.explain).toBe('text_completion');
});
