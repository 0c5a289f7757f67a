import { expect, test } from '@playwright/test';
import { openHarness } from './support/page';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';
const PROMPT = 'The rivers of India: Ganga, Yamuna,';

test('POST /v1/completions through client.completions.create on the upstream export: greedy text equals a cache-free onnxruntime loop, whole, streamed and echoed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, '/test/browser/pages/chat.html');
  const result = await page.evaluate(
    async ({ base, prompt }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const body = { model: 'chat-v2', prompt, max_tokens: 12, temperature: 0 };
      const { data: whole, response } = await client.completions.create(body).withResponse();
      const chunks = [];
      for await (const chunk of await client.completions.create({
        ...body,
        stream: true,
        stream_options: { include_usage: true },
      }))
        chunks.push(chunk);
      const echoed = await client.completions.create({ ...body, echo: true });
      const scored = await client.completions.create({ ...body, logprobs: 2 });
      const suffix = await client.completions
        .create({ ...body, suffix: 'end' })
        .catch((e: { status: number; param: string }) => ({ status: e.status, param: e.param }));
      const reference = await window.chatReference.greedyWithoutCache({
        base,
        graph: 'model.onnx',
        externalData: ['model.onnx.data'],
        messages: [],
        rawPrompt: prompt,
        steps: 12,
        stopIds: [2],
      });
      ai.dispose();
      return { whole, backend: response.headers.get('x-vaani-backend'), chunks, echoed, scored, suffix, reference };
    },
    { base: UPSTREAM, prompt: PROMPT },
  );
  expect(errors).toEqual([]);
  const { whole, chunks, echoed, reference } = result;
  expect(whole.object).toBe('text_completion');
  expect(whole.id).toMatch(/^cmpl-/);
  expect(result.backend).toBe('wasm');
  expect(whole.choices[0]!.text).toBe(reference.text);
  expect(whole.usage).toEqual({
    prompt_tokens: reference.promptTokens,
    completion_tokens: reference.generated.length,
    total_tokens: reference.promptTokens + reference.generated.length,
  });
  expect(whole.choices[0]!.finish_reason).toBe(reference.generated.length === 12 ? 'length' : 'stop');
  expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe(reference.text);
  expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
  expect(chunks.at(-1)!.usage).toEqual(whole.usage);
  expect(echoed.choices[0]!.text).toBe(PROMPT + reference.text);
  expect(result.suffix).toEqual({ status: 400, param: 'suffix' });
  // logprobs: one entry per generated token; greedy picks the likeliest, so each token's log-probability is its top one.
  const scored = result.scored.choices[0]!;
  expect(scored.text).toBe(reference.text);
  const logprobs = scored.logprobs!;
  expect(logprobs.tokens!.length).toBe(reference.generated.length);
  expect(logprobs.text_offset![0]).toBe(0);
  for (const [i, top] of logprobs.top_logprobs!.entries()) {
    expect(Object.keys(top).length).toBeLessThanOrEqual(2);
    expect(logprobs.token_logprobs![i]).toBeLessThanOrEqual(0);
    expect(logprobs.token_logprobs![i]).toBeCloseTo(Math.max(...Object.values(top)), 5);
  }
});
